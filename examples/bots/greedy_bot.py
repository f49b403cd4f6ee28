#!/usr/bin/env python3
"""A bot for `referee play` that plays greedily from its view (docs/protocol.md).

- It always calls UNO and catches whoever forgot.
- It sheds its costliest card first: wild and action cards before numbers,
  high numbers before low.
- When it names a colour, it names the one it holds most of.
- It draws only when it cannot play, plays a wild draw card only when it
  holds no card of the colour in play (or has nothing else), and never challenges.

Standard library only.
"""

import json
import sys
from collections import Counter


def face_in_play(card: str, view: dict) -> str:
    """The face of a physical card on the side in play: 'red-1/pink-3' is red-1 on the light side."""
    faces = card.split("/")
    return faces[1] if len(faces) > 1 and view["side"] != "light" else faces[0]


def colour_of(face: str) -> str | None:
    return None if face.startswith("wild") else face.split("-")[0]


def cost(face: str) -> int:
    """Roughly what a face scores against its holder: numbers their value, actions 20, wilds 50."""
    last = face.split("-")[-1]
    if face.startswith("wild"):
        return 50
    return int(last) if last.isdigit() else 20


def choose(message: dict) -> str:
    legal, view, me = message["legal"], message["view"], message["you"]
    for move in legal:
        if move == f"{me} calls uno" or move.startswith(f"{me} catches "):
            return move
    held = Counter(colour_of(face_in_play(card, view)) for card in view["hand"])
    held.pop(None, None)
    favourite = held.most_common(1)[0][0] if held else None

    def score(move: str) -> tuple[int, int]:
        words = move.split()
        if words[1] == "plays":
            face = face_in_play(words[2], view)
            named = words[3] if len(words) > 3 else None
            if face.startswith("wild-draw") and held[view["colour"]] > 0:
                return (1, 1)  # a bluff: only when nothing else can be played (a challenge would catch it)
            return (2, cost(face) + (5 if named == favourite else 0))
        if words[1] == "chooses":
            return (2, 5 if words[2] == favourite else 0)
        if words[1] == "swaps":
            return (2, -view["hand_sizes"][words[2]])
        if words[1] in ("draws", "passes"):
            return (1, 0)
        return (0, 0)  # a challenge, a wait

    mine = [move for move in legal if move != "wait"]
    return max(mine, key=score) if mine else "wait"


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("protocol") != 2:
            sys.exit(f"greedy_bot speaks protocol 2, not {message.get('protocol')}")
        if message["phase"] != "playing":  # round-over, game-over: news that wants no answer
            continue
        print(choose(message), flush=True)


if __name__ == "__main__":
    main()
