"""The node tree a spec is read into: every value a string, a list or a mapping, with its position.

Kept apart from the YAML reader (``referee.spec.loader``) so that code that
only looks at nodes, or unpickles compiled rules, does not import PyYAML.
"""

from __future__ import annotations

from dataclasses import field

from referee.errors import Position
from referee.records import dataclass


@dataclass(frozen=True, slots=True)
class Scalar:
    """A scalar of the YAML file, as text, with its position."""

    value: str
    position: Position


@dataclass(frozen=True, slots=True)
class Sequence:
    """A sequence of the YAML file, with its position."""

    items: tuple[Node, ...]
    position: Position


@dataclass(frozen=True, slots=True)
class Mapping:
    """A YAML mapping with string keys; ``keys`` maps each key to its position."""

    entries: dict[str, Node]
    keys: dict[str, Position]
    position: Position = field(default_factory=lambda: Position("?"))


Node = Scalar | Sequence | Mapping
