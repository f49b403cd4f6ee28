"""A claim's figures: what its form states, one typed record per form, read from a claims file and written back.

Each record reads itself from the claim's YAML mapping (``read``, through ``ClaimReader``: bounded problems with
positions), gives its figures under the claim's own keys (``by_key``: what ``rules --claims`` shows as JSON and
what ``prove --declare`` compares), and writes them back as the YAML the reader reads (``written``: the form's key
order, defaults left out). The prover's questions and checks read the typed fields (``referee.proof.claims``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from referee.errors import Position
from referee.records import dataclass
from referee.spec.loader import Mapping, Node, Scalar, Sequence
from referee.spec.reader import NodeReader
from referee.spec.vocabulary import MATCHING_KEYS, TABLE_KEYS

PLAY_KEYS = frozenset({"kind", "players", "next", "direction", "side", "owes", "colour", "restricted", "challengeable"})
START_KEYS = frozenset({"kind", "returned", "to-act", "direction", "side", "owes", "colour"})
# A matching or table claim restates the spec's own matching and table sections: the same keys (MATCHING_KEYS,
# TABLE_KEYS), from the vocabulary.
DECK_KEYS = frozenset({"cards", "sides", "pairing"})
CHALLENGE_KEYS = frozenset({"ruling", "draws", "cards", "then", "extra"})
CATCH_KEYS = frozenset({"draws", "cards"})
STACK_KEYS = frozenset({"kind", "adds"})
# The rulebooks' figures where a claim leaves them out (claims files written before the figures were claim keys):
# an innocent challenger's extra cards and the UNO catch penalty are 2 in both official sheets.
DEFAULT_EXTRA = 2
DEFAULT_CATCH_CARDS = 2
UNTIL_COLOUR = "until-colour"

Owes = int | str  # cards owed after the card: a number, or UNTIL_COLOUR
StackingFigure = dict[str, frozenset[str]]  # option stacking: the kind of penalty owed -> the kinds that may go on it
OptionValue = bool | int | str | StackingFigure


class ClaimReader(NodeReader):
    """The spec's node reader (bounded problems, "did you mean" on keys), with a claim's own readings: a value, a
    number, a choice, each with the position to blame when the node is missing."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def scalar(self, node: Node | None, what: str, where: Position) -> str:
        if not isinstance(node, Scalar):
            self.error(node.position if node is not None else where, f"{what} must be a single value")
            return ""
        return node.value

    def count(self, node: Node | None, what: str, where: Position, allow: tuple[str, ...] = ()) -> int | str:
        value = self.scalar(node, what, where)
        if value in allow:
            return value
        if not value.isascii() or not value.isdigit() or len(value) > 6:
            self.error(
                node.position if node is not None else where, f"{what} must be a whole number{' or ' if allow else ''}{' or '.join(allow)}"
            )
            return 0
        return int(value)

    def whole_number(self, node: Node | None, what: str, where: Position) -> int:
        """A whole number (0 after a problem, which is recorded)."""
        value = self.count(node, what, where)
        return value if isinstance(value, int) else 0

    def choice(self, node: Node | None, what: str, where: Position, choices: tuple[str, ...], default: str | None = None) -> str:
        if node is None and default is not None:
            return default
        value = self.scalar(node, what, where)
        if value not in choices:
            self.error(node.position if node is not None else where, f"{what} is one of {', '.join(choices)}, not '{value}'")
        return value

    def true_false(self, node: Node | None, what: str, where: Position) -> bool:
        """``true`` or ``false``, false when left out."""
        return self.choice(node, what, where, ("true", "false"), "false") == "true"


class _Keyed:
    """``to_json`` and ``written`` from ``by_key``, for the forms whose YAML is their figures as they are."""

    __slots__ = ()

    def by_key(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The figures as ``referee rules --claims --format json`` shows them (sets and counters sorted)."""
        plain: dict[str, Any] = _plain(self.by_key())
        return plain

    def written(self) -> dict[str, Any]:
        return self.by_key()


def _plain(value: Any) -> Any:
    """Figures as JSON values: mappings and lists kept, sets and counters sorted."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(_plain(item) for item in value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


_DEFAULTS: dict[str, object] = {
    "players": "any",
    "direction": "same",
    "side": "same",
    "owes": 0,
    "restricted": False,
    "challengeable": False,
}


def _without_defaults(figures: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in figures.items() if _DEFAULTS.get(key, object()) != value}


@dataclass(frozen=True, slots=True)
class NoFigures(_Keyed):
    """The figures of a claim that has none: a withdrawal (``{id: ..., withdrawn: REASON}``), or a form misread."""

    def by_key(self) -> dict[str, Any]:
        return {}


NO_FIGURES = NoFigures()


@dataclass(frozen=True, slots=True)
class PlayFigures(_Keyed):
    """``play``: after a card of ``kind`` is played, who moves (``next`` seats on), which way, which side is up,
    what the next player owes, where the colour comes from, and whether the card is restricted and challengeable."""

    kind: str
    next: int
    colour: str  # card, chosen, uncovered
    players: str = "any"  # any, 2, 3+: the player counts the claim speaks of
    direction: str = "same"  # same, reversed
    side: str = "same"  # same, flipped
    owes: Owes = 0
    restricted: bool = False
    challengeable: bool = False

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> PlayFigures:
        where, entries = node.position, node.entries
        reader.keys(node, PLAY_KEYS, {"kind", "next", "colour"}, "a play claim")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        players = reader.choice(entries.get("players"), "players", where, ("any", "2", "3+"), "any")
        following = reader.whole_number(entries.get("next"), "next", where)
        direction = reader.choice(entries.get("direction"), "direction", where, ("same", "reversed"), "same")
        side = reader.choice(entries.get("side"), "side", where, ("same", "flipped"), "same")
        owes = reader.count(entries.get("owes"), "owes", where, (UNTIL_COLOUR,)) if "owes" in entries else 0
        colour = reader.choice(entries.get("colour"), "colour", where, ("card", "chosen", "uncovered"))
        restricted = reader.true_false(entries.get("restricted"), "restricted", where)
        challengeable = reader.true_false(entries.get("challengeable"), "challengeable", where)
        return cls(kind, following, colour, players, direction, side, owes, restricted, challengeable)

    def counts(self, players: tuple[int, ...]) -> tuple[int, ...]:
        """The player counts of ``players`` the claim speaks of."""
        wanted = self.players
        return tuple(n for n in players if wanted == "any" or (wanted == "2" and n == 2) or (wanted == "3+" and n >= 3))

    def by_key(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": self.players,
            "next": self.next,
            "direction": self.direction,
            "side": self.side,
            "owes": self.owes,
            "colour": self.colour,
            "restricted": self.restricted,
            "challengeable": self.challengeable,
        }

    def written(self) -> dict[str, Any]:
        return _without_defaults(self.by_key())


@dataclass(frozen=True, slots=True)
class StartFigures(_Keyed):
    """``start``: when a card of ``kind`` is turned up to start a round, it goes back (``returned``), or who acts
    first (``to_act`` seats from the dealer), which way, which side is up, what is owed, where the colour comes from."""

    kind: str
    returned: bool = False
    to_act: int = 0
    direction: str = "same"
    side: str = "same"
    owes: Owes = 0
    colour: str = ""

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> StartFigures:
        where, entries = node.position, node.entries
        reader.keys(node, START_KEYS, {"kind"}, "a start claim")
        if reader.true_false(entries.get("returned"), "returned", where):
            return cls(reader.scalar(entries.get("kind"), "kind", where), returned=True)
        for key in ("to-act", "colour"):
            if key not in entries:
                reader.error(where, f"a start claim needs '{key}' (or returned: true)")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        to_act = reader.whole_number(entries.get("to-act"), "to-act", where)
        direction = reader.choice(entries.get("direction"), "direction", where, ("same", "reversed"), "same")
        side = reader.choice(entries.get("side"), "side", where, ("same", "flipped"), "same")
        owes = reader.count(entries.get("owes"), "owes", where, (UNTIL_COLOUR,)) if "owes" in entries else 0
        colour = reader.choice(entries.get("colour"), "colour", where, ("card", "chosen", "uncovered"))
        return cls(kind, False, to_act, direction, side, owes, colour)

    def by_key(self) -> dict[str, Any]:
        if self.returned:
            return {"kind": self.kind, "returned": True}
        return {
            "kind": self.kind,
            "returned": False,
            "to-act": self.to_act,
            "direction": self.direction,
            "side": self.side,
            "owes": self.owes,
            "colour": self.colour,
        }

    def written(self) -> dict[str, Any]:
        if self.returned:
            return self.by_key()
        figures = self.by_key()
        del figures["returned"]
        return _without_defaults(figures)


@dataclass(frozen=True, slots=True)
class StackFigures(_Keyed):
    """``stack``: a card of ``kind`` played on a penalty owed passes it on to the next player with ``adds`` more."""

    kind: str
    adds: int

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> StackFigures:
        where, entries = node.position, node.entries
        reader.keys(node, STACK_KEYS, set(STACK_KEYS), "a stack claim")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        return cls(kind, reader.whole_number(entries.get("adds"), "adds", where))

    def by_key(self) -> dict[str, Any]:
        return {"kind": self.kind, "adds": self.adds}


@dataclass(frozen=True, slots=True)
class ChallengeFigures(_Keyed):
    """``challenge``: a wild draw card challenged and ruled ``ruling``: who draws, how many, who moves after; or
    ``never``: no challenge can arise (a house rule without bluffing)."""

    never: bool = False
    extra: int = DEFAULT_EXTRA
    ruling: str = ""  # guilty, innocent
    draws: str = ""  # player, challenger
    cards: str = ""  # penalty, penalty-and-extra
    then: str = ""  # challenger-plays, challenger-loses-turn

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> ChallengeFigures:
        where, entries = node.position, node.entries
        if set(entries) == {"never"}:
            reader.choice(entries.get("never"), "never", where, ("true",))
            return cls(never=True)
        reader.keys(node, CHALLENGE_KEYS, set(CHALLENGE_KEYS - {"extra"}), "a challenge claim")
        extra = reader.whole_number(entries["extra"], "extra", where) if "extra" in entries else DEFAULT_EXTRA
        ruling = reader.choice(entries.get("ruling"), "ruling", where, ("guilty", "innocent"))
        draws = reader.choice(entries.get("draws"), "draws", where, ("player", "challenger"))
        cards = reader.choice(entries.get("cards"), "cards", where, ("penalty", "penalty-and-extra"))
        then = reader.choice(entries.get("then"), "then", where, ("challenger-plays", "challenger-loses-turn"))
        return cls(False, extra, ruling, draws, cards, then)

    @property
    def guilty(self) -> bool:
        return self.ruling == "guilty"

    def by_key(self) -> dict[str, Any]:
        if self.never:
            return {"never": True}
        return {"never": False, "extra": self.extra, "ruling": self.ruling, "draws": self.draws, "cards": self.cards, "then": self.then}

    def written(self) -> dict[str, Any]:
        if self.never:
            return {"never": True}
        return {"ruling": self.ruling, "draws": self.draws, "cards": self.cards, "extra": self.extra, "then": self.then}


@dataclass(frozen=True, slots=True)
class CatchFigures(_Keyed):
    """``catch``: a player caught not saying UNO: who draws (``caught`` or ``catcher``), and how many cards."""

    draws: str
    cards: int = DEFAULT_CATCH_CARDS

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> CatchFigures:
        where, entries = node.position, node.entries
        reader.keys(node, CATCH_KEYS, {"draws"}, "a catch claim")
        draws = reader.choice(entries.get("draws"), "draws", where, ("caught", "catcher"))
        cards = reader.whole_number(entries["cards"], "cards", where) if "cards" in entries else DEFAULT_CATCH_CARDS
        return cls(draws, cards)

    def by_key(self) -> dict[str, Any]:
        return {"draws": self.draws, "cards": self.cards}


@dataclass(frozen=True, slots=True)
class PointsFigures(_Keyed):
    """``points``: what a face of each kind scores, a number or ``face-value``, in the order the claim lists them."""

    points: tuple[tuple[str, int | str], ...]

    FACE_VALUE: ClassVar[str] = "face-value"

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> PointsFigures:
        where, face_value = node.position, (cls.FACE_VALUE,)
        return cls(tuple((kind, reader.count(value, f"points of {kind}", where, face_value)) for kind, value in node.entries.items()))

    def get(self, kind: str) -> int | str | None:
        return dict(self.points).get(kind)

    def by_key(self) -> dict[str, Any]:
        return dict(self.points)


@dataclass(frozen=True, slots=True)
class MatchingFigures(_Keyed):
    """``matching``: what a played face must share with the top of the discard pile (the spec's matching section)."""

    same_colour: bool
    same_number: bool
    same_action_kind: bool
    wild_always: bool

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> MatchingFigures:
        reader.keys(node, set(MATCHING_KEYS), set(MATCHING_KEYS), "a matching claim")
        same_colour, same_number, same_action_kind, wild_always = (
            reader.choice(node.entries.get(key), key, node.position, ("true", "false")) == "true" for key in MATCHING_KEYS
        )
        return cls(same_colour, same_number, same_action_kind, wild_always)

    def by_key(self) -> dict[str, Any]:
        values = (self.same_colour, self.same_number, self.same_action_kind, self.wild_always)
        return dict(zip(MATCHING_KEYS, values, strict=True))


@dataclass(frozen=True, slots=True)
class TableFigures(_Keyed):
    """``table``: the player range, the hand size dealt and the side a round starts on; each only where stated."""

    min_players: int | None = None
    max_players: int | None = None
    hand_size: int | None = None
    start_side: str | None = None

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> TableFigures:
        reader.keys(node, TABLE_KEYS, set(), "a table claim")
        where = node.position
        stated: dict[str, Any] = {
            key: reader.scalar(value, key, where) if key == "start-side" else reader.whole_number(value, key, where)
            for key, value in node.entries.items()
        }
        return cls(stated.get("min-players"), stated.get("max-players"), stated.get("hand-size"), stated.get("start-side"))

    def by_key(self) -> dict[str, Any]:
        values = {
            "min-players": self.min_players,
            "max-players": self.max_players,
            "hand-size": self.hand_size,
            "start-side": self.start_side,
        }
        return {key: value for key, value in values.items() if value is not None}


@dataclass(frozen=True, slots=True)
class SideFigures:
    """One side of a deck claim: its colours, its numbers (from, to, copies; copies of particular numbers) and the
    copies of each other kind (per colour, or in all for a wild)."""

    kinds: tuple[tuple[str, int], ...] = ()
    colours: tuple[str, ...] | None = None
    numbers: tuple[int, int, int] | None = None
    number_copies: tuple[tuple[int, int], ...] = ()

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> SideFigures:
        """``{colours: [...], numbers: {from, to, copies}, KIND: copies per colour, WILD-KIND: copies in all}``."""
        kinds: list[tuple[str, int]] = []
        colours: tuple[str, ...] | None = None
        numbers: tuple[int, int, int] | None = None
        number_copies: tuple[tuple[int, int], ...] = ()
        for key, value in node.entries.items():
            if key == "colours" and isinstance(value, Sequence):
                colours = tuple(reader.scalar(item, "a colour", node.position) for item in value.items)
            elif key == "numbers" and isinstance(value, Mapping):
                low, high, copies = (reader.whole_number(value.entries.get(part), part, node.position) for part in ("from", "to", "copies"))
                numbers = (low, high, copies)
                # copies of particular numbers: {from: 0, to: 9, copies: 2, 0: 1} (one 0, two of each other number)
                number_copies = tuple(
                    (int(number), reader.whole_number(count, f"copies of {number}", node.position))
                    for number, count in value.entries.items()
                    if number.isdigit()
                )
            else:
                kinds.append((key, reader.whole_number(value, key, node.position)))
        return cls(tuple(kinds), colours, numbers, number_copies)

    def written(self) -> dict[str, Any]:
        """The side as a deck claim writes it: colours, numbers (with copies of particular numbers), then the kinds."""
        side: dict[str, Any] = {}
        if self.colours is not None:
            side["colours"] = self.colours
        if self.numbers is not None:
            low, high, copies = self.numbers
            side["numbers"] = {"from": low, "to": high, "copies": copies, **{str(number): count for number, count in self.number_copies}}
        return side | dict(self.kinds)

    def by_key(self) -> dict[str, Any]:
        side: dict[str, Any] = {"kinds": dict(self.kinds)}
        if self.colours is not None:
            side["colours"] = self.colours
        if self.numbers is not None:
            side["numbers"] = self.numbers
            side["number-copies"] = dict(self.number_copies)
        return side


@dataclass(frozen=True, slots=True)
class DeckFigures(_Keyed):
    """``deck``: how many cards, the composition of each side stated, and which faces are printed back to back."""

    cards: int
    sides: tuple[tuple[str, SideFigures], ...] | None = None  # None: not stated
    pairing: tuple[tuple[str, int], ...] | None = None  # card token -> copies; None: not stated

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> DeckFigures:
        where, entries = node.position, node.entries
        reader.keys(node, DECK_KEYS, {"cards"}, "a deck claim")
        cards = reader.whole_number(entries.get("cards"), "cards", where)
        sides: tuple[tuple[str, SideFigures], ...] | None = None
        sides_node = entries.get("sides")
        if isinstance(sides_node, Mapping):
            read: list[tuple[str, SideFigures]] = []
            for side_name, side_node in sides_node.entries.items():
                if not isinstance(side_node, Mapping):
                    reader.error(sides_node.position, f"each side is a mapping of its colours and kinds, not '{side_name}'")
                    continue
                read.append((side_name, SideFigures.read(reader, side_node)))
            sides = tuple(read)
        pairing: tuple[tuple[str, int], ...] | None = None
        pairing_node = entries.get("pairing")
        if isinstance(pairing_node, Sequence):
            pairing = tuple(Counter(reader.scalar(item, "a card", where).lower() for item in pairing_node.items).items())
        return cls(cards, sides, pairing)

    def pairing_counts(self) -> Counter[str] | None:
        return Counter(dict(self.pairing)) if self.pairing is not None else None

    def by_key(self) -> dict[str, Any]:
        figures: dict[str, Any] = {"cards": self.cards}
        if self.sides is not None:
            figures["sides"] = {name: side.by_key() for name, side in self.sides}
        if self.pairing is not None:
            figures["pairing"] = dict(self.pairing)
        return figures

    def written(self) -> dict[str, Any]:
        """As a deck claim writes it: each side in its own words, the pairing as a list of cards (a card twice: two)."""
        figures: dict[str, Any] = {"cards": self.cards}
        if self.sides is not None:
            figures["sides"] = {name: side.written() for name, side in self.sides}
        if self.pairing is not None:
            figures["pairing"] = [card for card, copies in self.pairing for _ in range(copies)]
        return figures


@dataclass(frozen=True, slots=True)
class OptionFigures(_Keyed):
    """``option: {NAME: VALUE}``: the rulebook's value of one option (``referee.spec.vocabulary``), in the spec's
    own terms (stacking as the compiled rules' table)."""

    name: str
    value: OptionValue

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> OptionFigures | NoFigures:
        from referee.spec.vocabulary import OPTION_CHOICES, OPTION_FLAGS, OPTION_NUMBERS, OPTIONS

        where = node.position
        if len(node.entries) != 1:
            reader.error(where, "an option claim names one option: {OPTION: VALUE}")
            return NO_FIGURES
        ((name, value),) = node.entries.items()
        if name not in OPTIONS:
            reader.error(where, f"unknown option '{name}' in an option claim")
            return NO_FIGURES
        if name == "stacking":
            return cls(name, _stacking_figure(reader, value))
        if name in OPTION_FLAGS:
            return cls(name, reader.choice(value, name, where, ("true", "false")) == "true")
        if name in OPTION_NUMBERS:
            return cls(name, reader.count(value, name, where))
        return cls(name, reader.choice(value, name, where, tuple(sorted(OPTION_CHOICES[name]))))

    def by_key(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value}

    def written(self) -> dict[str, Any]:
        return {self.name: self.value}


def _stacking_figure(reader: ClaimReader, node: Node) -> StackingFigure:
    """Option stacking as a claim states it: ``[]`` (none), a list of kinds (each on its own kind) or a mapping
    (the kind of the penalty owed: the kinds that may go on it); as the compiled rules' table."""
    if isinstance(node, Mapping):
        return {
            owed: frozenset(reader.scalar(item, "a kind", node.position) for item in allowed.items)
            for owed, allowed in node.entries.items()
            if isinstance(allowed, Sequence) and allowed.items  # an empty list allows what a missing entry allows
        }
    if isinstance(node, Sequence):
        return {
            reader.scalar(item, "a kind", node.position): frozenset({reader.scalar(item, "a kind", node.position)}) for item in node.items
        }
    reader.error(node.position, "stacking is a list of kinds or a mapping {KIND: [KINDS]}")
    return {}


AnyFigures = (
    NoFigures
    | PlayFigures
    | StartFigures
    | StackFigures
    | ChallengeFigures
    | CatchFigures
    | PointsFigures
    | MatchingFigures
    | TableFigures
    | DeckFigures
    | OptionFigures
)
