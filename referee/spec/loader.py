"""Spec YAML -> a small node tree in which every value keeps its position.

Specs are untrusted. We never construct Python objects from YAML: the safe
loader's event stream is screened (no anchors, aliases, explicit tags, extra
documents or deep nesting), then ``yaml.compose`` builds nodes that we turn
into ``Mapping`` / ``Sequence`` / ``Scalar`` values whose scalars are strings.
Duplicate keys are errors naming both lines. Conversion to numbers and names
is the spec model's job, by its schema.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from referee.errors import Position, SpecError
from referee.spec.nodes import Mapping, Node, Scalar, Sequence
from referee.spec.paths import MAX_SPEC_BYTES

__all__ = ["Mapping", "Node", "Scalar", "Sequence", "load_file", "load_text"]

MAX_DEPTH = 12

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML
    _Loader = yaml.SafeLoader


def _position(path: str, mark: Any) -> Position:
    if mark is None:
        return Position(path)
    return Position(path, mark.line + 1, mark.column + 1)


def _screen_events(text: str, path: str) -> list[tuple[Position, str]]:
    """Reject YAML features a spec has no use for, before any node is built."""
    problems: list[tuple[Position, str]] = []
    depth = 0
    documents = 0
    for event in yaml.parse(text, Loader=_Loader):
        where = _position(path, event.start_mark)
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                problems.append((where, "a spec is one YAML document; found a second"))
                break
        if isinstance(event, yaml.AliasEvent):
            problems.append((where, "aliases (*name) are not allowed in a spec"))
            continue
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            problems.append((where, f"anchors (&{anchor}) are not allowed in a spec"))
        tag = getattr(event, "tag", None)
        if tag is not None and isinstance(event, yaml.ScalarEvent | yaml.SequenceStartEvent | yaml.MappingStartEvent):
            implicit = getattr(event, "implicit", True)
            explicit = not implicit[0] if isinstance(implicit, tuple) else not implicit
            if explicit:
                problems.append((where, f"explicit tags ({tag}) are not allowed in a spec"))
        if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                problems.append((where, f"nesting deeper than {MAX_DEPTH} levels"))
                break
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1
    return problems


def _convert(node: yaml.Node, path: str, problems: list[tuple[Position, str]]) -> Node:
    where = _position(path, node.start_mark)
    if isinstance(node, yaml.ScalarNode):
        value = str(node.value)
        if not value.isprintable():
            _control(value, where, problems)
        return Scalar(value, where)
    if isinstance(node, yaml.SequenceNode):
        return Sequence(tuple(_convert(item, path, problems) for item in node.value), where)
    assert isinstance(node, yaml.MappingNode)
    entries: dict[str, Node] = {}
    keys: dict[str, Position] = {}
    for key_node, value_node in node.value:
        key_where = _position(path, key_node.start_mark)
        if not isinstance(key_node, yaml.ScalarNode):
            problems.append((key_where, "a mapping key must be a plain word"))
            continue
        key = str(key_node.value)
        if not key.isprintable():
            _control(key, key_where, problems)
            continue
        if key in entries:
            problems.append((key_where, f"duplicate key '{key}' (first at line {keys[key].line})"))
            continue
        keys[key] = key_where
        entries[key] = _convert(value_node, path, problems)
    return Mapping(entries, keys, where)


def _control(value: str, where: Position, problems: list[tuple[Position, str]]) -> None:
    """Spec text reaches terminals and reports: a control character (or a line break) in it is an error."""
    bad = next(ch for ch in value if not ch.isprintable())
    what = "a line break" if bad in "\n\r\x0b\x0c\x85\u2028\u2029" else f"the control character U+{ord(bad):04X}"
    problems.append((where, f"{what} inside a value is not allowed: a spec's text is one printable line"))


def load_text(text: str, path: str) -> Mapping:
    """Parse spec text into a positioned node tree whose top level is a mapping."""
    try:
        problems = _screen_events(text, path)
        if problems:
            raise SpecError(problems)
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise SpecError([(_position(path, mark), f"not valid YAML: {error.problem or error}")]) from None
    except yaml.YAMLError as error:
        raise SpecError([(Position(path), f"not valid YAML: {error}")]) from None
    except (RecursionError, ValueError, KeyError, IndexError) as error:
        raise SpecError([(Position(path), f"not valid YAML: {error.__class__.__name__}")]) from None
    if root is None:
        raise SpecError([(Position(path, 1, 1), "the spec is empty")])
    tree_problems: list[tuple[Position, str]] = []
    tree = _convert(root, path, tree_problems)
    if tree_problems:
        raise SpecError(tree_problems)
    if not isinstance(tree, Mapping):
        raise SpecError([(tree.position, "the top level of a spec must be a mapping")])
    return tree


def load_file(path: Path, markers: tuple[str, ...] = ()) -> Mapping:
    """Read and parse a spec (or claims) file: a regular file, bounded in size.

    With ``markers``, a file none of whose lines starts with one of those
    top-level keys is "not a spec file" and nothing of it is parsed or
    quoted: an error about a file that is not a spec (``/etc/shadow`` named
    by mistake or by a hostile log) must not print its lines.
    """
    from referee.safe_io import read_bounded, reason

    try:
        data = read_bounded(path, MAX_SPEC_BYTES)
    except OSError as error:
        raise SpecError([(Position(str(path)), f"cannot read spec: {reason(error)}")]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SpecError([(Position(str(path), line), "not a spec file: not valid UTF-8 text")]) from None
    if markers and not re.search(r"(?m)^[\"']?(?:" + "|".join(markers) + r")[\"']?[ \t]*:", text):
        keys = ", ".join(f"'{key}'" for key in markers)
        raise SpecError([(Position(str(path)), f"not a spec file: a spec is YAML text whose top level has {keys}")])
    return load_text(text, str(path))
