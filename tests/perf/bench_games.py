"""Random games per second, per shipped spec and mode: a bot choosing uniformly among ``legal_moves()`` plays whole
games (every round to the target) through ``referee.Game`` (figures, not a timed test).

Also the longest game met, in moves: a uniform random bot's game ends (``legal_moves()`` never offers a move that
changes nothing), and this is the figure docs/library.md quotes.

Run: python tests/perf/bench_games.py [--games 10]
"""

from __future__ import annotations

import argparse
import random
import time

import referee
from referee.spec.extends import shipped_spec_names


def play(spec: str, seed: int, mode: str) -> int:
    """One whole random game; its number of moves."""
    rng = random.Random(seed)
    game = referee.Game.new(spec, ["Ann", "Bob", "Cat", "Dan"][: 2 + seed % 3], seed=seed, mode=mode)
    moves = 0
    while not game.is_game_over():
        legal = game.legal_moves()
        if not legal:
            game.next_round(seed=rng.randrange(10**6))
            continue
        game.push(rng.choice(legal))
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    for spec in shipped_spec_names():
        for mode in ("full", "observed"):
            started = time.perf_counter()
            lengths = [play(spec, seed, mode) for seed in range(args.games)]
            seconds = time.perf_counter() - started
            print(
                f"{spec:22} {mode:8} {args.games / seconds:6.2f} games/s {sum(lengths) / seconds:8,.0f} moves/s "
                f"mean {sum(lengths) / len(lengths):8,.0f} moves, longest {max(lengths):,}"
            )


if __name__ == "__main__":
    main()
