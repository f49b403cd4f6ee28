"""Scale benchmark of `referee check` (not part of the pytest run): one core, every core, a Dask cluster.

Simulates a corpus of 4-player games, then times whole `referee check -q`
processes over it with `-j 1`, `-j 2` and `--dask` on a local cluster of 2
worker processes, and prints games/s, lines/s, the scaling efficiency
(speed-up / workers), the Dask overhead per log, and a projection for
1,000,000 games on 16 cores (linear from the measured efficiency; an estimate,
not a measurement). The runs alternate and the best of `--repeat` is kept,
so that a noisy machine slows every variant alike.

    python tests/perf/bench_scale.py [--games 10000] [--keep DIR] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.checking.replay import rules_for
from referee.play.simulate import simulate_game


def build_corpus(folder: Path, games: int) -> int:
    rules = rules_for(None, None, None)
    lines = 0
    for number in range(games):
        path = folder / f"game-{number:06d}.log"
        if not path.exists():
            path.write_text(simulate_game(rules, 4, number, "full" if number % 2 == 0 else "observed", max_rounds=30), encoding="utf-8")
        lines += path.read_bytes().count(b"\n")
    return lines


def timed(command: list[str]) -> float:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    result = subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}: {result.stderr[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="write the corpus here and keep it (reused when it is there)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        lines = build_corpus(folder, args.games)
        print(f"corpus: {args.games:,} games, {lines:,} lines ({time.perf_counter() - started:.0f} s to simulate)")
        referee = [sys.executable, "-m", "referee", "check", "-q"]
        variants: dict[str, list[str]] = {"-j 1": [*referee, "-j", "1", str(folder)], "-j 2": [*referee, "-j", "2", str(folder)]}
        cluster = None
        if not args.no_dask:
            try:
                from distributed import LocalCluster
            except ImportError:
                print("dask: not installed (pip install 'referee[dask]'); skipped")
            else:
                cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
                variants["dask, 2 workers"] = [*referee, "--dask", cluster.scheduler_address, str(folder)]
        best = {name: float("inf") for name in variants}
        try:
            for _ in range(args.repeat):
                for name, command in variants.items():
                    best[name] = min(best[name], timed(command))
        finally:
            if cluster is not None:
                cluster.close()
        one = best["-j 1"]
        for name, seconds in best.items():
            workers = 1 if name == "-j 1" else 2
            speed_up = one / seconds
            print(
                f"{name:>16}: {seconds:6.1f} s, {args.games / seconds:8,.0f} games/s, {lines / seconds:10,.0f} lines/s, "
                f"speed-up {speed_up:4.2f}x, efficiency {speed_up / workers:4.0%}"
            )
        if "dask, 2 workers" in best:
            overhead = (best["dask, 2 workers"] - best["-j 2"]) / args.games
            print(f"dask overhead per log beside -j 2: {overhead * 1e3:+.2f} ms")
        efficiency = one / best["-j 2"] / 2
        projected = 1_000_000 / (args.games / one * 16 * efficiency)
        print(f"projected: 1,000,000 games on 16 cores at {efficiency:.0%} efficiency: about {projected / 60:.0f} min")


if __name__ == "__main__":
    main()
