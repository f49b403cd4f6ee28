"""The events of a game log: one frozen record per line kind, each with its line number.

Card and colour tokens are kept as the (lower-cased) text of the log; the
replay resolves them against the spec's deck, so that an unknown card is a
replay diagnostic (``unknown-card``) and not a syntax error.

Each record pickles as a constructor call (``__reduce__``): mypyc's compiled frozen classes do not unpickle by
default, and a move, a legality or an environment in the middle of a game is pickled (search, multiprocessing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Verb(StrEnum):
    """The verb of a player's line (docs/log-format.md), each written once: the reader reads it, the writer writes it,
    a move and an environment's action name it. A member is the string itself."""

    PLAYS = "plays"
    DRAWS = "draws"
    PASSES = "passes"
    CHOOSES = "chooses"
    CALLS = "calls"
    CATCHES = "catches"
    CHALLENGES = "challenges"
    SWAPS = "swaps"
    SCORES = "scores"


@dataclass(frozen=True, slots=True)
class Players:
    line: int
    names: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Players], tuple[object, ...]]:
        return (
            Players,
            (
                self.line,
                self.names,
            ),
        )


@dataclass(frozen=True, slots=True)
class SpecName:
    line: int
    name: str

    def __reduce__(self) -> tuple[type[SpecName], tuple[object, ...]]:
        return (
            SpecName,
            (
                self.line,
                self.name,
            ),
        )


@dataclass(frozen=True, slots=True)
class Deck:
    line: int
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Deck], tuple[object, ...]]:
        return (
            Deck,
            (
                self.line,
                self.cards,
            ),
        )


@dataclass(frozen=True, slots=True)
class Target:
    line: int
    points: int

    def __reduce__(self) -> tuple[type[Target], tuple[object, ...]]:
        return (
            Target,
            (
                self.line,
                self.points,
            ),
        )


@dataclass(frozen=True, slots=True)
class Round:
    line: int
    number: int

    def __reduce__(self) -> tuple[type[Round], tuple[object, ...]]:
        return (
            Round,
            (
                self.line,
                self.number,
            ),
        )


@dataclass(frozen=True, slots=True)
class Dealer:
    line: int
    player: str

    def __reduce__(self) -> tuple[type[Dealer], tuple[object, ...]]:
        return (
            Dealer,
            (
                self.line,
                self.player,
            ),
        )


@dataclass(frozen=True, slots=True)
class Shuffle:
    line: int
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Shuffle], tuple[object, ...]]:
        return (
            Shuffle,
            (
                self.line,
                self.cards,
            ),
        )


@dataclass(frozen=True, slots=True)
class Hand:
    line: int
    player: str
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Hand], tuple[object, ...]]:
        return (
            Hand,
            (
                self.line,
                self.player,
                self.cards,
            ),
        )


@dataclass(frozen=True, slots=True)
class Public:
    """``public``: this round's deal and draws are hidden (docs/log-format.md, "Public records")."""

    line: int

    def __reduce__(self) -> tuple[type[Public], tuple[object, ...]]:
        return (Public, (self.line,))


@dataclass(frozen=True, slots=True)
class Start:
    line: int
    card: str

    def __reduce__(self) -> tuple[type[Start], tuple[object, ...]]:
        return (
            Start,
            (
                self.line,
                self.card,
            ),
        )


@dataclass(frozen=True, slots=True)
class Play:
    line: int
    player: str
    card: str
    colour: str | None

    def __reduce__(self) -> tuple[type[Play], tuple[object, ...]]:
        return (
            Play,
            (
                self.line,
                self.player,
                self.card,
                self.colour,
            ),
        )


@dataclass(frozen=True, slots=True)
class Draw:
    line: int
    player: str
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Draw], tuple[object, ...]]:
        return (
            Draw,
            (
                self.line,
                self.player,
                self.cards,
            ),
        )


@dataclass(frozen=True, slots=True)
class DrawCount:
    """``P draws N`` in a public round: N cards nobody saw."""

    line: int
    player: str
    count: int

    def __reduce__(self) -> tuple[type[DrawCount], tuple[object, ...]]:
        return (
            DrawCount,
            (
                self.line,
                self.player,
                self.count,
            ),
        )


@dataclass(frozen=True, slots=True)
class Shows:
    """``shows P FACE ...`` at a public round's end: the faces of a hand, on the side in play."""

    line: int
    player: str
    faces: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Shows], tuple[object, ...]]:
        return (
            Shows,
            (
                self.line,
                self.player,
                self.faces,
            ),
        )


@dataclass(frozen=True, slots=True)
class Pass:
    line: int
    player: str

    def __reduce__(self) -> tuple[type[Pass], tuple[object, ...]]:
        return (
            Pass,
            (
                self.line,
                self.player,
            ),
        )


@dataclass(frozen=True, slots=True)
class Choose:
    line: int
    player: str
    colour: str

    def __reduce__(self) -> tuple[type[Choose], tuple[object, ...]]:
        return (
            Choose,
            (
                self.line,
                self.player,
                self.colour,
            ),
        )


@dataclass(frozen=True, slots=True)
class Call:
    line: int
    player: str

    def __reduce__(self) -> tuple[type[Call], tuple[object, ...]]:
        return (
            Call,
            (
                self.line,
                self.player,
            ),
        )


@dataclass(frozen=True, slots=True)
class Catch:
    line: int
    player: str
    target: str

    def __reduce__(self) -> tuple[type[Catch], tuple[object, ...]]:
        return (
            Catch,
            (
                self.line,
                self.player,
                self.target,
            ),
        )


@dataclass(frozen=True, slots=True)
class Challenge:
    line: int
    player: str
    target: str

    def __reduce__(self) -> tuple[type[Challenge], tuple[object, ...]]:
        return (
            Challenge,
            (
                self.line,
                self.player,
                self.target,
            ),
        )


@dataclass(frozen=True, slots=True)
class Swap:
    """``P swaps Q``: after P's 7 under the house rule seven swaps, P and Q exchange hands."""

    line: int
    player: str
    target: str

    def __reduce__(self) -> tuple[type[Swap], tuple[object, ...]]:
        return (
            Swap,
            (
                self.line,
                self.player,
                self.target,
            ),
        )


@dataclass(frozen=True, slots=True)
class Reshuffle:
    line: int
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Reshuffle], tuple[object, ...]]:
        return (
            Reshuffle,
            (
                self.line,
                self.cards,
            ),
        )


@dataclass(frozen=True, slots=True)
class Score:
    line: int
    player: str
    points: int

    def __reduce__(self) -> tuple[type[Score], tuple[object, ...]]:
        return (
            Score,
            (
                self.line,
                self.player,
                self.points,
            ),
        )


HeaderEvent = Players | SpecName | Deck | Target
SetupEvent = Round | Dealer | Shuffle | Hand | Public | Start
PlayerEvent = Play | Draw | DrawCount | Shows | Pass | Choose | Call | Catch | Challenge | Swap | Score
Event = HeaderEvent | SetupEvent | PlayerEvent | Reshuffle
