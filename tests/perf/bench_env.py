"""What hosting costs: environment steps per second (random masked actions) and match-host moves per second (the
example bots, over pipes), for classic UNO and UNO Flip (figures, not a timed test). Where RLCard is installed
(``pip install rlcard``; not a dependency), its UNO runs in the same process, on the same machine and load, and the
ratios are printed: its ``env.step`` against ``raw_env`` and ``env()``, its raw game against ``Game`` (legal moves,
push).

Each figure is the best of RUNS runs (3), ours and RLCard's alike. The random agent picks from the mask with
``mask.nonzero()``, RLCard's from its ``legal_actions``: each the cheapest way its API offers.

Run: python tests/perf/bench_env.py [STEPS] [GAMES] [RUNS]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from referee.env import raw_env
from referee.play.host import Match

BOTS = Path(__file__).resolve().parent.parent.parent / "examples" / "bots"


def steps_per_second(spec: str, players: int, steps: int, wrapped: bool = False) -> tuple[float, int]:
    """Steps of one environment with uniform random masked actions, across as many games as it takes (``wrapped``:
    through ``env()``, PettingZoo's wrappers, as an agent uses it; else ``raw_env``)."""
    from referee.env import env

    environment = env(spec=spec, players=players) if wrapped else raw_env(spec=spec, players=players)
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
            legal = observation["action_mask"].nonzero()[0]  # the agent's own cost, kept as low as RLCard's loop's
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


def game_moves_per_second(spec: str, players: int, moves: int) -> float:
    """``Game.legal_moves()`` and ``push`` of a random one, across as many rounds as it takes."""
    import referee

    rng = random.Random(0)
    names = [f"P{seat}" for seat in range(players)]
    done, seed = 0, 0
    started = time.perf_counter()
    while done < moves:
        game = referee.Game.new(spec, names, seed=seed)
        game.undo_limit = 0
        seed += 1
        while done < moves and (legal := game.legal_moves()):
            game.push(legal[rng.randrange(len(legal))])
            done += 1
    return done / (time.perf_counter() - started)


def rlcard_rates(players: int, steps: int) -> tuple[float, float] | None:
    """RLCard's UNO (classic, its own rules): ``env.step`` steps/s and raw-game moves/s; None without RLCard."""
    try:
        import rlcard
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(0)
    environment = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    done = 0
    started = time.perf_counter()
    while done < steps:
        state, _ = environment.reset()
        while not environment.is_over() and done < steps:
            state, _ = environment.step(rng.choice(list(state["legal_actions"])))
            done += 1
    env_rate = done / (time.perf_counter() - started)
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(0)
    done = 0
    started = time.perf_counter()
    while done < steps:
        game.init_game()
        while not game.is_over() and done < steps:
            game.step(rng.choice(game.get_legal_actions()))
            done += 1
    return env_rate, done / (time.perf_counter() - started)


def best(rate: Callable[[], float], runs: int) -> float:
    """The best of ``runs`` runs: on a shared machine the other load only ever slows a run down."""
    return max(rate() for _ in range(runs))


def _compare(players: int, steps: int, runs: int) -> None:
    """One row of ours and RLCard's figures for classic UNO, and the ratios."""
    raw = best(lambda: steps_per_second("uno", players, steps)[0], runs)
    wrapped = best(lambda: steps_per_second("uno", players, steps, wrapped=True)[0], runs)
    moves = best(lambda: game_moves_per_second("uno", players, steps), runs)
    theirs = [rlcard_rates(players, steps) for _ in range(runs)]
    if None in theirs:
        print(f"{players:>7} {raw:>9,.0f} {wrapped:>9,.0f} {moves:>9,.0f} {'-':>11} {'-':>12}  (RLCard not installed)")
        return
    env_rate = max(rates[0] for rates in theirs if rates is not None)
    game_rate = max(rates[1] for rates in theirs if rates is not None)
    print(f"{players:>7} {raw:>9,.0f} {wrapped:>9,.0f} {moves:>9,.0f} {env_rate:>11,.0f} {game_rate:>12,.0f}")
    print(f"{'ratio':>7} {raw / env_rate:>9.2f} {wrapped / env_rate:>9.2f} {moves / game_rate:>9.2f}  (ours / RLCard's: 1.0 is as fast)")


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    import referee.engine.engine

    build = "compiled" if str(referee.engine.engine.__file__).endswith(".so") else "pure Python"
    print(f"build: {build} (a regular 'pip install .' is compiled; an editable install is pure Python)")
    print(f"{'players':>7} {'raw_env':>9} {'env()':>9} {'Game':>9} {'RLCard env':>11} {'RLCard game':>12}  (classic UNO; steps or moves/s)")
    for players in (2, 4):
        _compare(players, steps, runs)
    print()
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
