"""Benchmark of `referee check` (not part of the pytest run).

Simulates a corpus of games (2 to 10 players, both modes), then replays all of
it in one process the way `referee check DIR` does, and prints log lines per
second, games per second and peak memory. A second measurement replays one
very long game to show that memory does not grow with a log's length.

    python tests/perf/bench_check.py [--games 1000] [--keep DIR] [--start-up-only]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.checking.replay import check_path, rules_for
from referee.play.simulate import simulate_game


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_corpus(folder: Path, games: int) -> int:
    rules = rules_for(None, None, None)
    lines = 0
    for number in range(games):
        players = 2 + number % 9
        mode = "full" if number % 2 == 0 else "observed"
        text = simulate_game(rules, players, number, mode, max_rounds=30)
        (folder / f"game-{number:05d}.log").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    return lines


def replay_all(paths: list[Path]) -> tuple[float, int]:
    gc.collect()
    started = time.perf_counter()
    invalid = 0
    for path in paths:
        if not check_path(path, str(path)).valid:
            invalid += 1
    return time.perf_counter() - started, invalid


def long_game_memory(folder: Path) -> None:
    """Peak memory of a fresh process checking one short and one long game."""
    rules = rules_for(None, None, None)
    for name, rounds in (("short", 2), ("long", 400), ("longer", 1600)):
        text = simulate_game(rules, 4, 99, "full", max_rounds=rounds, target=999_999)
        path = folder / f"{name}.log"
        path.write_text(text, encoding="utf-8")
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork+exec, so the child would report this process's peak.
        code = (
            "from pathlib import Path; from referee.checking.replay import check_path;"
            f"v = check_path(Path({str(path)!r}), 'x'); assert v.valid, v.errors;"
            "print([int(line.split()[1]) / 1024 for line in open('/proc/self/status') if line.startswith('VmHWM')][0])"
        )
        peak = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        print(f"one {name} game: {text.count(chr(10)):>9,} lines, {path.stat().st_size / 1e6:6.1f} MB, peak memory {peak:6.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="write the corpus here and keep it")
    parser.add_argument("--repeat", type=int, default=3, help="replays of the corpus; the best is reported")
    parser.add_argument("--start-up-only", action="store_true", help="measure only the start-up ratios")
    args = parser.parse_args()
    if args.start_up_only:
        start_up()
        return
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        lines = build_corpus(folder, args.games)
        print(f"corpus: {args.games} games, {lines:,} lines, simulated in {time.perf_counter() - started:.1f} s")
        paths = sorted(folder.glob("game-*.log"))
        best = min(replay_all(paths) for _ in range(args.repeat))
        seconds, invalid = best
        assert invalid == 0, f"{invalid} simulated games did not pass check"
        print(
            f"check: {seconds:.2f} s, {lines / seconds:,.0f} lines/s, {len(paths) / seconds:,.0f} games/s, "
            f"peak memory {peak_rss_mib():.1f} MiB (one process, best of {args.repeat})"
        )
        long_game_memory(folder)
        start_up()


def _run(command: list[str], environment: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def start_up(rounds: int = 25) -> None:
    """``referee check`` on a small log, ``--version`` and ``--help`` against ``import click, yaml``: whole processes.

    Bytecode is written and read as in an installed package (this workplace sets
    PYTHONDONTWRITEBYTECODE, which would make every run compile our sources).
    Each round runs the baseline and every command once, in turn, so that a
    machine whose load changes slows every side alike; the medians are compared.
    """
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    small = Path(__file__).resolve().parents[2] / "scenarios" / "codes" / "illegal-play.log"
    commands = {
        "import click, yaml": [sys.executable, "-c", "import click, yaml"],
        "check (cached rules)": [sys.executable, "-m", "referee", "check", "-q", str(small)],
        "check --no-cache": [sys.executable, "-m", "referee", "check", "-q", "--no-cache", str(small)],
        "--version": [sys.executable, "-m", "referee", "--version"],
        "--help": [sys.executable, "-m", "referee", "--help"],
    }
    for command in commands.values():
        _run(command, environment)  # bytecode, the rules cache
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(_run(command, environment))
    baseline = statistics.median(times.pop("import click, yaml"))
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"start-up, {name}: {median * 1000:.0f} ms = {median / baseline:.2f}x 'import click, yaml' ({baseline * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
