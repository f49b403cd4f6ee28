"""What a long hosted game costs: two bots that only ever draw, pass or wait play one game of MOVES moves (the host
stops it at --max-moves), and the moves per second around move 1,000 and around move 90,000 are printed. With the
history sent in pieces (protocol 2) and no state kept per move (``Game.undo_limit``), the two are about the same:
the cost of a decision does not grow with the game (figures, not a timed test).

With --sandbox the bots run as ``referee play`` runs them (referee.play.sandbox: an empty root, an unprivileged
user, the seccomp filter and the limits), which costs about nothing per move: the sandbox is set up once per bot.

Run: python tests/perf/bench_host.py [MOVES] [--sandbox]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.play.host import Match
from referee.play.sandbox import Sandbox

DRAWER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["phase"] != "playing":
        continue
    legal = message["legal"]
    print(next((move for move in legal if move == "wait" or " draws" in move or " passes" in move), legal[0]), flush=True)
"""


class Timed(Match):
    """A match that notes the clock every 1,000 moves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock: dict[int, float] = {}

    def _decide(self, *args: Any) -> None:
        super()._decide(*args)
        if self.moves % 1000 == 0 and self.moves not in self.clock:
            self.clock[self.moves] = time.perf_counter()


def rate_at(clock: dict[int, float], move: int) -> float:
    """Moves per second over the 1,000 moves from ``move``."""
    return 1000 / (clock[move + 1000] - clock[move])


def main() -> None:
    arguments = [argument for argument in sys.argv[1:] if argument != "--sandbox"]
    moves = int(arguments[0]) if arguments else 100_000
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "drawer.py"
        bot.write_text(DRAWER, encoding="utf-8")
        bot.parent.chmod(0o755)  # a sandboxed bot runs as another user when the host is root
        command = [sys.executable, str(bot)]
        sandbox = Sandbox() if "--sandbox" in sys.argv else None
        if sandbox is not None and not sandbox.active:
            sys.exit(f"error: no sandbox here: {sandbox.why}")
        match = Timed("uno", [command, command], games=1, seed=0, move_timeout=10, max_moves=moves, sandbox=sandbox)
        match.run()
    print("bots sandboxed" if sandbox is not None else "bots bare (--sandbox runs them sandboxed)")
    print(f"{match.moves:,} moves in {match.seconds:.1f} s ({match.moves / match.seconds:,.0f} moves/s overall)")
    late = max(move for move in match.clock if move + 1000 in match.clock)
    early, far = rate_at(match.clock, 1000), rate_at(match.clock, min(late, 90_000))
    print(f"moves/s at move 1,000: {early:,.0f}; at move {min(late, 90_000):,}: {far:,.0f} (ratio {early / far:.2f})")
    print(f"stopped: {match.unfinished}")


if __name__ == "__main__":
    main()
