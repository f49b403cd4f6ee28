#!/usr/bin/env python3
"""A bot for `referee play` that answers every decision with a legal move chosen at random.

It reads the host's JSON lines on standard input (docs/protocol.md) and
writes one move per line. It prefers playing to drawing, so that games end,
and lets half of its out-of-turn chances (an UNO call, a catch) go by.
Standard library only: copy it and change `choose`.

    referee play --spec uno --games 10 --out games/ \
        "python3 examples/bots/random_bot.py" "python3 examples/bots/greedy_bot.py"
"""

import json
import random
import sys


def choose(message: dict, rng: random.Random) -> str:
    legal = message["legal"]
    if "wait" in legal and rng.random() < 0.5:
        return "wait"
    plays = [move for move in legal if " plays " in move]
    return rng.choice(plays or legal)


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("protocol") != 2:
            sys.exit(f"random_bot speaks protocol 2, not {message.get('protocol')}")
        if message["phase"] != "playing":  # round-over, game-over: news that wants no answer
            continue
        print(choose(message, rng), flush=True)


if __name__ == "__main__":
    main()
