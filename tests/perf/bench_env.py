"""What hosting costs: environment steps per second (random masked actions) and match-host moves per second (the
example bots, over pipes), for classic UNO and UNO Flip (figures, not a timed test).

Run: python tests/perf/bench_env.py [STEPS] [GAMES]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from referee.env import raw_env
from referee.host import Match

BOTS = Path(__file__).resolve().parent.parent.parent / "examples" / "bots"


def steps_per_second(spec: str, players: int, steps: int) -> tuple[float, int]:
    """Steps of one environment with uniform random masked actions, across as many games as it takes."""
    environment = raw_env(spec=spec, players=players)
    rng = random.Random(0)
    seed, done = 0, 0
    started = time.perf_counter()
    while done < steps:
        environment.reset(seed=seed)
        seed += 1
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= steps:
                break
    return done / (time.perf_counter() - started), seed


def moves_per_second(spec: str, games: int) -> tuple[float, int]:
    bots = [[sys.executable, str(BOTS / "random_bot.py"), "1"], [sys.executable, str(BOTS / "greedy_bot.py")]]
    with tempfile.TemporaryDirectory():
        match = Match(spec, bots, games=games, seed=0, move_timeout=10)
        match.run()
    return match.moves / match.seconds, match.moves


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"{'spec':<9} {'players':>7} {'env steps/s':>12}  (random masked actions, {steps:,} steps, observe + step)")
    for spec in ("uno", "uno-flip"):
        for players in (2, 4, 10):
            rate, episodes = steps_per_second(spec, players, steps)
            print(f"{spec:<9} {players:>7} {rate:>12,.0f}  ({episodes} games begun)")
    print(f"\n{'spec':<9} {'bots':>7} {'host moves/s':>12}  (random_bot vs greedy_bot, {games} games to 500 points)")
    for spec in ("uno", "uno-flip"):
        rate, moves = moves_per_second(spec, games)
        print(f"{spec:<9} {2:>7} {rate:>12,.0f}  ({moves:,} moves)")


if __name__ == "__main__":
    main()
