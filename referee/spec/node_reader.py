"""Reading a spec's nodes by a schema, every problem kept with its place (``NodeReader``): what the spec's reader, the
kinds' reader and the claims' reader (``referee.proof.claims``) share."""

from __future__ import annotations

from referee.errors import Position, SpecError, known_names
from referee.spec.nodes import Mapping, Node, Scalar, Sequence
from referee.spec.vocabulary import NAME_FORM, NUMBER_FORM

# At most this many problems of a spec are collected and listed; the rest are counted only as "more".
MAX_PROBLEMS = 100


class NodeReader:
    """Collects problems while reading nodes by a schema, at most MAX_PROBLEMS of them (then ``SpecError``): the
    spec's reader, and the claims' (``referee.proof.claims``), which adds its own readings of a claim's figures."""

    def __init__(self) -> None:
        self.problems: list[tuple[Position, str]] = []

    def error(self, position: Position, message: str) -> None:
        self.problems.append((position, message))
        if len(self.problems) > MAX_PROBLEMS:  # a hostile spec could have a million; keep memory and output bounded
            raise SpecError(self.problems)

    def keys(self, node: Mapping, allowed: set[str] | frozenset[str], required: set[str] | frozenset[str], what: str) -> None:
        for key, position in node.keys.items():
            if key not in allowed:
                self.error(position, f"unknown key '{key}' in {what}{known_names(key, allowed, f'keys of {what}')}")
        for key in sorted(required - set(node.entries)):
            self.error(node.position, f"{what} needs '{key}'")

    def mapping(self, node: Node | None, what: str, form: str = "") -> Mapping | None:
        if node is None:
            return None
        if not isinstance(node, Mapping):
            shown = f", written like {form}" if form else ""
            self.error(node.position, f"{what} must be a mapping{shown}")
            return None
        return node

    def sequence(self, node: Node | None, what: str) -> tuple[Node, ...]:
        if node is None:
            return ()
        if not isinstance(node, Sequence):
            self.error(node.position, f"{what} must be a list")
            return ()
        return node.items

    def text(self, node: Node | None, what: str) -> str | None:
        if node is None:
            return None
        if not isinstance(node, Scalar):
            self.error(node.position, f"{what} must be a single value")
            return None
        return node.value

    def name(self, node: Node | None, what: str) -> str | None:
        value = self.text(node, what)
        if value is not None and not NAME_FORM.fullmatch(value):
            assert node is not None
            self.error(node.position, f"{what} must be a lower-case name like 'draw-one', not '{value}'")
            return None
        return value

    def number(self, node: Node | None, what: str, minimum: int = 0) -> int | None:
        value = self.text(node, what)
        if value is None:
            return None
        assert node is not None
        if not NUMBER_FORM.fullmatch(value) or int(value) < minimum:
            self.error(node.position, f"{what} must be a whole number of at least {minimum}, not '{value}'")
            return None
        return int(value)

    def flag(self, node: Node | None, what: str) -> bool | None:
        value = self.text(node, what)
        if value is None:
            return None
        if value not in ("true", "false"):
            assert node is not None
            self.error(node.position, f"{what} must be true or false, not '{value}'")
            return None
        return value == "true"
