"""What the library costs: push, pop, is_legal and legal_moves() in random games (figures, not a timed test).

Both modes: in observed mode ``legal_moves()`` lists one named draw (it listed one per distinct card of the pile,
which made it cost 2.5x to 5x a push). Each figure is a mean and a median over every call.

Run: python tests/perf/bench_api.py
"""

from __future__ import annotations

import random
import statistics
import time

import referee


def main() -> None:
    for spec in ("uno-flip", "uno"):
        for mode in ("full", "observed"):
            timings: dict[str, list[float]] = {"push": [], "pop": [], "is_legal": [], "legal_moves": []}
            for seed in range(20):
                rng = random.Random(seed)
                game = referee.Game.new(spec, ["Ann", "Bob", "Cat", "Dan"], seed=seed, mode=mode)
                for _ in range(300):
                    if game.is_round_over():
                        break
                    started = time.perf_counter()
                    moves = game.legal_moves()
                    timings["legal_moves"].append(time.perf_counter() - started)
                    move = rng.choice(moves)
                    started = time.perf_counter()
                    game.is_legal(move)
                    timings["is_legal"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    game.push(move)
                    timings["push"].append(time.perf_counter() - started)
                    if rng.random() < 0.1:
                        started = time.perf_counter()
                        game.pop()
                        timings["pop"].append(time.perf_counter() - started)
            mean = {name: statistics.fmean(values) * 1e6 for name, values in timings.items()}
            median = {name: statistics.median(values) * 1e6 for name, values in timings.items()}
            print(
                f"{spec} {mode}: push {mean['push']:.1f} us, pop {mean['pop']:.1f} us, is_legal {mean['is_legal']:.1f} us, "
                f"legal_moves {mean['legal_moves']:.1f} us = {mean['legal_moves'] / mean['push']:.2f} pushes "
                f"(median {median['legal_moves'] / median['push']:.2f})"
            )


if __name__ == "__main__":
    main()
