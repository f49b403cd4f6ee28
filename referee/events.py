"""The events of a game log: one frozen record per line kind, each with its line number.

Card and colour tokens are kept as the (lower-cased) text of the log; the
replay resolves them against the spec's deck, so that an unknown card is a
replay diagnostic (``unknown-card``) and not a syntax error.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Players:
    line: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpecName:
    line: int
    name: str


@dataclass(frozen=True, slots=True)
class Deck:
    line: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Target:
    line: int
    points: int


@dataclass(frozen=True, slots=True)
class Round:
    line: int
    number: int


@dataclass(frozen=True, slots=True)
class Dealer:
    line: int
    player: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    line: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hand:
    line: int
    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Public:
    """``public``: this round's deal and draws are hidden (docs/log-format.md, "Public records")."""

    line: int


@dataclass(frozen=True, slots=True)
class Start:
    line: int
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    line: int
    player: str
    card: str
    colour: str | None


@dataclass(frozen=True, slots=True)
class Draw:
    line: int
    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DrawCount:
    """``P draws N`` in a public round: N cards nobody saw."""

    line: int
    player: str
    count: int


@dataclass(frozen=True, slots=True)
class Shows:
    """``shows P FACE ...`` at a public round's end: the faces of a hand, on the side in play."""

    line: int
    player: str
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    line: int
    player: str


@dataclass(frozen=True, slots=True)
class Choose:
    line: int
    player: str
    colour: str


@dataclass(frozen=True, slots=True)
class Call:
    line: int
    player: str


@dataclass(frozen=True, slots=True)
class Catch:
    line: int
    player: str
    target: str


@dataclass(frozen=True, slots=True)
class Challenge:
    line: int
    player: str
    target: str


@dataclass(frozen=True, slots=True)
class Swap:
    """``P swaps Q``: after P's 7 under the house rule seven swaps, P and Q exchange hands."""

    line: int
    player: str
    target: str


@dataclass(frozen=True, slots=True)
class Reshuffle:
    line: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Score:
    line: int
    player: str
    points: int


HeaderEvent = Players | SpecName | Deck | Target
SetupEvent = Round | Dealer | Shuffle | Hand | Public | Start
PlayerEvent = Play | Draw | DrawCount | Shows | Pass | Choose | Call | Catch | Challenge | Swap | Score
Event = HeaderEvent | SetupEvent | PlayerEvent | Reshuffle
