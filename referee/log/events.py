"""The events of a game log: one frozen record per line kind, each with its line number.

Card and colour tokens are kept as the (lower-cased) text of the log; the
replay resolves them against the spec's deck, so that an unknown card is a
replay diagnostic (``unknown-card``) and not a syntax error.

Each record pickles as a constructor call (``__reduce__``): mypyc's compiled frozen classes do not unpickle by
default, and a move, a legality or an environment in the middle of a game is pickled (search, multiprocessing).
"""

from __future__ import annotations

from enum import StrEnum

from referee.records import dataclass


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
    """``players P1 ... Pn``: the players in seating order."""

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
    """``spec NAME``: the rule spec the log names."""

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
    """``deck C1 ...``: the physical deck, which light face is printed on which dark face."""

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
    """``target N``: the points that end the game."""

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
    """``round N``: a round begins."""

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
    """``dealer P``: the dealer of the round."""

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
    """``shuffle C1 ...``: the draw pile after shuffling, top card first (full mode)."""

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
    """``hand P C1 ...``: the cards dealt to P (observed mode)."""

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
    """``start C``: the card turned up to start the discard pile (observed mode)."""

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
    """``P plays CARD [COLOUR]``: a card from P's hand onto the discard pile, with the colour named for a wild."""

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
    """``P draws [CARD ...]``: cards from the draw pile; no cards named when the shuffle tells them."""

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
    """``P passes``: P keeps the card of a turn draw and ends the turn."""

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
    """``P chooses COLOUR``: the colour in play when a start card or an uncovered card is a wild."""

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
    """``P calls uno``."""

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
    """``P catches Q``: Q did not say UNO in time."""

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
    """``P challenges Q``: P challenges Q's wild draw card."""

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
    """``reshuffle [CARD ...]``: the discard pile less its top card becomes the draw pile."""

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
    """``P scores N``: a claim of the points P won in the last finished round."""

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
