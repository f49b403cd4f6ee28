"""Events -> log text in the format of game-log-format.md (the inverse of ``log_reader``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from referee import events as ev


def format_event(event: ev.Event) -> str:
    """One log line (without its newline)."""
    match event:
        case ev.Players(names=names):
            return "players " + " ".join(names)
        case ev.SpecName(name=name):
            return f"spec {name}"
        case ev.Deck(cards=cards):
            return "deck " + " ".join(cards)
        case ev.Target(points=points):
            return f"target {points}"
        case ev.Round(number=number):
            return f"round {number}"
        case ev.Dealer(player=player):
            return f"dealer {player}"
        case ev.Shuffle(cards=cards):
            return "shuffle " + " ".join(cards)
        case ev.Hand(player=player, cards=cards):
            return f"hand {player} " + " ".join(cards)
        case ev.Start(card=card):
            return f"start {card}"
        case ev.Play(player=player, card=card, colour=colour):
            return f"{player} plays {card}" + (f" {colour}" if colour else "")
        case ev.Draw(player=player, cards=cards):
            return f"{player} draws" + "".join(f" {card}" for card in cards)
        case ev.Pass(player=player):
            return f"{player} passes"
        case ev.Choose(player=player, colour=colour):
            return f"{player} chooses {colour}"
        case ev.Call(player=player):
            return f"{player} calls uno"
        case ev.Catch(player=player, target=target):
            return f"{player} catches {target}"
        case ev.Challenge(player=player, target=target):
            return f"{player} challenges {target}"
        case ev.Reshuffle(cards=cards):
            return "reshuffle" + "".join(f" {card}" for card in cards)
        case ev.Score(player=player, points=points):
            return f"{player} scores {points}"
    raise TypeError(f"not an event: {event!r}")


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file beside the target, then rename: no partial output file."""
    folder = path.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
