"""The events of a game log: one frozen record per kind of line, each with its line number, and what each kind is.

Card and colour tokens are kept as the (lower-cased) text of the log; the
replay resolves them against the spec's deck, so that an unknown card is a
replay diagnostic (``unknown-card``) and not a syntax error.

Each record pickles as a constructor call (``__reduce__``): mypyc's compiled frozen classes do not unpickle by
default, and a move, a legality or an environment in the middle of a game is pickled (search, multiprocessing).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, StrEnum
from typing import Any, Final

from referee.records import dataclass
from referee.spec.vocabulary import Check


def _cards(cards: tuple[str, ...]) -> str:
    return "".join(" " + card for card in cards)


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
    SHUFFLES = "shuffles"
    SCORES = "scores"


# Words other records and players use for a verb, so that an unknown verb's hint names the verb meant ('Ann says uno'
# is 'Ann calls uno'), not the one spelled most alike ('swaps').
VERB_SYNONYMS: dict[str, Verb] = {
    "says": Verb.CALLS,
    "shouts": Verb.CALLS,
    "yells": Verb.CALLS,
    "declares": Verb.CALLS,
    "announces": Verb.CALLS,
    "picks": Verb.DRAWS,
    "takes": Verb.DRAWS,
    "discards": Verb.PLAYS,
    "lays": Verb.PLAYS,
    "names": Verb.CHOOSES,
    "skips": Verb.PASSES,
    "accuses": Verb.CHALLENGES,
    "doubts": Verb.CHALLENGES,
    "trades": Verb.SWAPS,
    "exchanges": Verb.SWAPS,
}


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
    """``P plays CARD [COLOUR]``: a card from P's hand onto the discard pile, with the colour named for a wild. Under
    the house rule doubles, ``P plays CARD CARD ...``: ``also`` are the cards played with the first, identical to it."""

    line: int
    player: str
    card: str
    colour: str | None
    also: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[Play], tuple[object, ...]]:
        return (
            Play,
            (
                self.line,
                self.player,
                self.card,
                self.colour,
                self.also,
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
class ShuffleHands:
    """``P shuffles [CARD ...]``: after P's card that shuffles hands, every hand is collected, shuffled and dealt out
    one card at a time from P's left; ``cards`` in the order dealt (none in a public round)."""

    line: int
    player: str
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[type[ShuffleHands], tuple[object, ...]]:
        return (
            ShuffleHands,
            (
                self.line,
                self.player,
                self.cards,
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
PlayerEvent = Play | Draw | DrawCount | Shows | Pass | Choose | Call | Catch | Challenge | Swap | ShuffleHands | Score
Event = HeaderEvent | SetupEvent | PlayerEvent | Reshuffle


class Action(Enum):
    """How the environment numbers a move of a kind (``referee.env``): one action, one per card and colour named,
    one per colour, or one per seat named."""

    ONE = "one"
    CARD = "card"
    COLOUR = "colour"
    SEAT = "seat"


@dataclass(frozen=True, slots=True)
class EventKind:
    """What a kind of line is, written once: its record, its keyword or a player's verb, the fields that name a player
    (the engine checks each is one), the check ``explain`` cites for it, whether it is a move of a round (what
    ``Move.parse`` accepts and ``legal_moves`` lists), how it is written back (``text``), where ``explain`` lists it
    among a player's alternatives (``order``), how the environment numbers it (``action``; None: the table makes
    it, not an agent), the house option it exists under (``option``, a switch of the spec's vocabulary) and its line's
    grammar as the log format writes it (``form``: a public round's draw is a kind of its own, ``DrawCount``) and the
    card effect it exists for (``effect``: its verb is listed, and reserved, only where a kind has that effect). The
    writer, the moves, the engine, the explainer, the environment and the reader's messages read it here; the reader
    holds how each line's words are told apart, the engine how it applies it."""

    record: type
    keyword: str
    names: tuple[str, ...]
    check: Check
    move: bool
    text: Callable[[Any], str]
    order: int = 0
    action: Action | None = None
    option: str | None = None
    form: str = ""
    effect: str | None = None


# The verbs as plain strings, for the lines written below.
_PLAYS: Final = Verb.PLAYS.value
_DRAWS: Final = Verb.DRAWS.value
_PASSES: Final = Verb.PASSES.value
_CHOOSES: Final = Verb.CHOOSES.value
_CALLS: Final = Verb.CALLS.value
_CATCHES: Final = Verb.CATCHES.value
_CHALLENGES: Final = Verb.CHALLENGES.value
_SWAPS: Final = Verb.SWAPS.value
_SHUFFLES: Final = Verb.SHUFFLES.value
_SCORES: Final = Verb.SCORES.value


# Every kind of line, in the order of a log (a round's moves in the order the environment numbers them: the draw, the
# pass, the challenge and the call, then the catch and the swap).
KINDS: dict[type, EventKind] = {
    kind.record: kind
    for kind in (
        EventKind(Players, "players", (), Check.PLAYERS, False, lambda event: "players " + " ".join(event.names), form="players P1 ... Pn"),
        EventKind(SpecName, "spec", (), Check.SYNTAX, False, lambda event: f"spec {event.name}", form="spec NAME"),
        EventKind(Deck, "deck", (), Check.DECK, False, lambda event: "deck " + " ".join(event.cards), form="deck C1 ..."),
        EventKind(Target, "target", (), Check.GAME_OVER, False, lambda event: f"target {event.points}", form="target N"),
        EventKind(Round, "round", (), Check.ROUND_ORDER, False, lambda event: f"round {event.number}", form="round N"),
        EventKind(Dealer, "dealer", ("player",), Check.DEALER, False, lambda event: f"dealer {event.player}", form="dealer P"),
        EventKind(Shuffle, "shuffle", (), Check.SHUFFLE, False, lambda event: "shuffle " + " ".join(event.cards), form="shuffle C1 ..."),
        EventKind(
            Hand,
            "hand",
            ("player",),
            Check.HANDS,
            False,
            lambda event: f"hand {event.player} " + " ".join(event.cards),
            form="hand P C1 ... C7",
        ),
        EventKind(Public, "public", (), Check.TURN, False, lambda event: "public", form="public"),
        EventKind(Start, "start", (), Check.START_CARD, False, lambda event: f"start {event.card}", form="start C"),
        EventKind(
            Play,
            Verb.PLAYS.value,
            ("player",),
            Check.MATCH,
            True,
            lambda event: f"{event.player} {_PLAYS} {event.card}" + _cards(event.also) + (f" {event.colour}" if event.colour else ""),
            0,
            Action.CARD,
            form="P plays CARD [COLOUR]",
        ),
        EventKind(
            Draw,
            Verb.DRAWS.value,
            ("player",),
            Check.TURN,
            True,
            lambda event: f"{event.player} {_DRAWS}" + _cards(event.cards),
            1,
            Action.ONE,
            form="P draws [CARD ...]",
        ),
        EventKind(
            DrawCount,
            Verb.DRAWS.value,
            ("player",),
            Check.TURN,
            False,
            lambda event: f"{event.player} {_DRAWS} {event.count}",
            form="P draws N",
        ),
        EventKind(
            Shows,
            "shows",
            ("player",),
            Check.TURN,
            False,
            lambda event: f"shows {event.player}" + _cards(event.faces),
            form="shows P FACE ...",
        ),
        EventKind(
            Pass,
            Verb.PASSES.value,
            ("player",),
            Check.PASS,
            True,
            lambda event: f"{event.player} {_PASSES}",
            2,
            Action.ONE,
            form="P passes",
        ),
        EventKind(
            Choose,
            Verb.CHOOSES.value,
            ("player",),
            Check.CHOOSE,
            True,
            lambda event: f"{event.player} {_CHOOSES} {event.colour}",
            3,
            Action.COLOUR,
            form="P chooses COLOUR",
        ),
        EventKind(
            Catch,
            Verb.CATCHES.value,
            ("player", "target"),
            Check.CATCH,
            True,
            lambda event: f"{event.player} {_CATCHES} {event.target}",
            5,
            Action.SEAT,
            form="P catches Q",
        ),
        EventKind(
            Challenge,
            Verb.CHALLENGES.value,
            ("player", "target"),
            Check.CHALLENGE,
            True,
            lambda event: f"{event.player} {_CHALLENGES} {event.target}",
            5,
            Action.ONE,
            form="P challenges Q",
        ),
        EventKind(
            Call,
            Verb.CALLS.value,
            ("player",),
            Check.CALL,
            True,
            lambda event: f"{event.player} {_CALLS} uno",
            4,
            Action.ONE,
            form="P calls uno",
        ),
        EventKind(
            Swap,
            Verb.SWAPS.value,
            ("player", "target"),
            Check.SWAP,
            True,
            lambda event: f"{event.player} {_SWAPS} {event.target}",
            5,
            Action.SEAT,
            "seven-swaps",
            form="P swaps Q",
        ),
        EventKind(
            ShuffleHands,
            Verb.SHUFFLES.value,
            ("player",),
            Check.SHUFFLE_HANDS,
            True,
            lambda event: f"{event.player} {_SHUFFLES}" + _cards(event.cards),
            6,
            form="P shuffles [CARD ...]",
            effect="shuffle-hands",
        ),
        EventKind(
            Score,
            Verb.SCORES.value,
            ("player",),
            Check.SCORE,
            True,
            lambda event: f"{event.player} {_SCORES} {event.points}",
            7,
            form="P scores N",
        ),
        EventKind(
            Reshuffle,
            "reshuffle",
            (),
            Check.RESHUFFLE,
            True,
            lambda event: "reshuffle" + _cards(event.cards),
            6,
            form="reshuffle [CARD ...]",
        ),
    )
}
MOVES: tuple[type, ...] = tuple(kind.record for kind in KINDS.values() if kind.move)
