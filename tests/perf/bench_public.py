"""What judging a public record costs: seconds per game and per line, for 2, 4 and 10 players, both games
(figures, not a timed test). The records are projections of whole simulated games (``simulate --mode public``), so
each is consistent; the figure is ``check``'s text mode (no answers on wild draw cards), one core.

Run: python tests/perf/bench_public.py [GAMES]
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

from referee.checking.replay import check_stream
from referee.play.simulate import simulate_game
from referee.rules.compiler import load_rules
from referee.spec.paths import shipped_spec_path


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{'spec':<10} {'players':>7} {'lines':>7} {'s/game':>8} {'ms/line':>8} {'s/500 lines':>12}  verdicts")
    for spec in ("uno", "uno-flip"):
        path = shipped_spec_path(spec)
        assert path is not None
        rules = load_rules(path)
        for players in (2, 4, 10):
            seconds: list[float] = []
            lines: list[int] = []
            verdicts: dict[str, int] = {}
            for seed in range(games):
                text = simulate_game(rules, players, seed, "public", spec_line=spec)  # whole games, to 500 points
                started = time.perf_counter()
                verdict = check_stream(io.BytesIO(text.encode()), "<bench>", Path.cwd(), answers=False)
                seconds.append(time.perf_counter() - started)
                lines.append(text.count("\n"))
                verdicts[verdict.consistency or "none"] = verdicts.get(verdict.consistency or "none", 0) + 1
            per_line = sum(seconds) / sum(lines)
            print(
                f"{spec:<10} {players:>7} {statistics.mean(lines):>7.0f} {statistics.mean(seconds):>8.2f} "
                f"{per_line * 1000:>8.2f} {per_line * 500:>12.2f}  {verdicts}"
            )


if __name__ == "__main__":
    main()
