"""What every claim form's figures share: the reader of a claim's YAML, the record's base, the choices a figure takes.

Each form's own record (``PlayFigures``, ``DeckFigures``...) lives in the form's module; this module holds what
they read with (``ClaimReader``: bounded problems with positions), what they are (``Figures``: ``read``,
``by_key``, ``to_json``, ``written``), the choices two forms share as enums, and the helpers the forms use to read
a spec's own figures back for ``prove --declare``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from referee.errors import Position
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping, Node, Scalar
from referee.spec.node_reader import NodeReader

if TYPE_CHECKING:
    pass


UNTIL_COLOUR = "until-colour"
Owes = int | str  # cards owed after the card: a number, or UNTIL_COLOUR
E = TypeVar("E", bound=StrEnum)


class Direction(StrEnum):
    """Which way play moves after a card, against the way it moved before."""

    SAME = "same"
    REVERSED = "reversed"


class Side(StrEnum):
    """Which side is up after a card, against the side before."""

    SAME = "same"
    FLIPPED = "flipped"


class ColourFrom(StrEnum):
    """Where the colour in play comes from after a card: the card's own, one a player names, the card a Flip uncovers."""

    CARD = "card"
    CHOSEN = "chosen"
    UNCOVERED = "uncovered"


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

    def member(self, node: Node | None, what: str, where: Position, choices: type[E], default: E | None = None) -> E:
        """One of an enum's values (its first after a problem, which is recorded)."""
        value = self.choice(node, what, where, tuple(choices), default)
        return choices(value) if value in tuple(choices) else next(iter(choices))

    def true_false(self, node: Node | None, what: str, where: Position) -> bool:
        """``true`` or ``false``, false when left out."""
        return self.choice(node, what, where, ("true", "false"), "false") == "true"


class Figures:
    """What a claim of one form states, as a typed record: read from the claim's YAML mapping (``read``), given under
    the claim's own keys (``by_key``), shown as JSON (``to_json``) and written back as YAML (``written``)."""

    __slots__ = ()

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> Figures:
        raise NotImplementedError

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


def without_defaults(figures: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in figures.items() if _DEFAULTS.get(key, object()) != value}


@dataclass(frozen=True, slots=True)
class NoFigures(Figures):
    """The figures of a claim that has none: a withdrawal (``{id: ..., withdrawn: REASON}``), or a form misread."""

    def by_key(self) -> dict[str, Any]:
        return {}


NO_FIGURES = NoFigures()


# -- the spec's own figures, read back (``prove --declare``)

T = TypeVar("T")


def option_value(rules: Rules, name: str) -> Any:
    """The value of an option in the compiled rules, in a claim's terms (stacking as its table)."""
    if name == "stacking":
        return dict(rules.stacking or {})
    value = rules.spec.options.get(name)
    return frozenset(value) if isinstance(value, tuple) else value  # a switch limited to kinds


class Unreadable(Exception):
    """The spec's figures for a claim are not one value: its faces, or its player counts, differ."""


def one(values: list[T], what: str) -> T:
    """The one value every face gives (``Unreadable`` when they differ)."""
    distinct = {repr(value): value for value in values}
    if len(distinct) != 1:
        raise Unreadable(f"the faces of {what} differ")
    return next(iter(distinct.values()))
