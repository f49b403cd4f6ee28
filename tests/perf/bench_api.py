"""What the library costs: push, pop, is_legal and legal_moves() in random games (figures, not a timed test).

Run: python tests/perf/bench_api.py
"""

from __future__ import annotations

import random
import time

import referee


def main() -> None:
    for spec in ("uno-flip", "uno"):
        timings = {"push": 0.0, "pop": 0.0, "is_legal": 0.0, "legal_moves": 0.0}
        counts = dict.fromkeys(timings, 0)
        for seed in range(20):
            rng = random.Random(seed)
            game = referee.Game.new(spec, ["Ann", "Bob", "Cat", "Dan"], seed=seed)
            for _ in range(300):
                if game.is_round_over():
                    break
                started = time.perf_counter()
                moves = game.legal_moves()
                timings["legal_moves"] += time.perf_counter() - started
                counts["legal_moves"] += 1
                move = rng.choice(moves)
                started = time.perf_counter()
                game.is_legal(move)
                timings["is_legal"] += time.perf_counter() - started
                counts["is_legal"] += 1
                started = time.perf_counter()
                game.push(move)
                timings["push"] += time.perf_counter() - started
                counts["push"] += 1
                if rng.random() < 0.1:
                    started = time.perf_counter()
                    game.pop()
                    timings["pop"] += time.perf_counter() - started
                    counts["pop"] += 1
        each = {name: timings[name] / max(counts[name], 1) * 1e6 for name in timings}
        print(
            f"{spec}: push {each['push']:.1f} us, pop {each['pop']:.1f} us, is_legal {each['is_legal']:.1f} us, "
            f"legal_moves {each['legal_moves']:.1f} us = {each['legal_moves'] / each['push']:.2f} pushes"
        )


if __name__ == "__main__":
    main()
