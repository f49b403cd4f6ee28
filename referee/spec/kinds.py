"""A spec's kinds of face, read: each kind's class, sides, numbers, copies, points and effects (with their settings
and what they do to the card turned up at the start), and the deck they make, checked against its bounds.

Part of the spec reader (``referee.spec.reader``), which hands in its node reader; every problem is recorded there
with its position.
"""

from __future__ import annotations

import re

from referee.cards import FaceClass
from referee.errors import Position, did_you_mean, escape, known_names
from referee.spec.model import (
    Effect,
    Kind,
)
from referee.spec.node_reader import NodeReader
from referee.spec.nodes import Mapping, Node, Scalar
from referee.spec.vocabulary import (
    EFFECT_SETTINGS,
    EFFECT_WORDS,
    EFFECTS_PLAIN,
    EFFECTS_WITH_AMOUNT,
    KIND_KEYS,
    MAX_DECK_CARDS,
    NAME_FORM,
    NUMBER_FORM,
    NUMBERS_KEYS,
    START_ACTIONS,
    EffectGroup,
)


def _signed(reader: NodeReader, node: Node | None, what: str) -> int | None:
    """A whole number that may be negative (points: the prover, not the loader, judges their sign)."""
    value = reader.text(node, what)
    if value is None:
        return None
    assert node is not None
    if not re.fullmatch(r"-?(0|[1-9][0-9]{0,5})", value):
        reader.error(node.position, f"{what} must be a whole number, not '{value}'")
        return None
    return int(value)


def read_kinds(reader: NodeReader, node: Node | None, side_names: tuple[str, ...]) -> tuple[Kind, ...]:
    kinds_node = reader.mapping(node, "kinds", "{number: {class: number, ...}, ...}")
    if not kinds_node:
        return ()
    kinds = []
    for name, kind_node in kinds_node.entries.items():
        what = f"kind '{name}'"
        if not NAME_FORM.fullmatch(name):
            reader.error(kinds_node.keys[name], f"{what}: a kind is a lower-case name")
        entry = reader.mapping(kind_node, what, "{class: number, sides: [light, dark], copies: 2, points: 20, rule: RULE-ID, ...}")
        if entry:
            kinds.append(_read_kind(reader, name, entry, side_names))
    return tuple(kinds)


def _read_kind(reader: NodeReader, name: str, entry: Mapping, side_names: tuple[str, ...]) -> Kind:
    """One kind of face: its class, sides, numbers, copies, points, effects and what it does turned up at the start."""
    what = f"kind '{name}'"
    reader.keys(entry, KIND_KEYS, {"class", "sides", "copies", "points", "rule", "start-rule", "at-start"}, what)
    face_class = _read_class(reader, entry.entries.get("class"))
    sides = _read_kind_sides(reader, entry.entries.get("sides"), side_names)
    numbers = _read_numbers(reader, entry.entries.get("numbers"), what)
    if (face_class is FaceClass.NUMBER) != bool(numbers):
        reader.error(entry.position, f"{what}: 'numbers' is required for a number kind and only there")
    copies, number_copies = _read_copies(reader, entry.entries.get("copies"), numbers, what)
    points_node = entry.entries.get("points")
    points: int | None = None
    if isinstance(points_node, Scalar) and points_node.value == "face-value":
        if face_class is not FaceClass.NUMBER:
            reader.error(points_node.position, "points: face-value is only for number kinds")
    else:
        points = _signed(reader, points_node, "points")
    effects = [effect for node in reader.sequence(entry.entries.get("effects"), "effects") if (effect := _read_effect(reader, node))]
    names = [effect.name for effect in effects]
    _check_effects(reader, entry, what, names, face_class, side_names)
    at_start = _read_at_start(reader, entry.entries.get("at-start"), what)
    _conflicting_start(reader, entry, what, names, at_start)
    if len(side_names) < 2 and "flip" in at_start:
        reader.error(entry.keys.get("at-start", entry.position), f"{what}: a flip needs a second side to turn to")
    spellings = tuple(reader.name(n, "a spelling") or "" for n in reader.sequence(entry.entries.get("spellings"), "spellings"))
    return Kind(
        name=name,
        face_class=face_class,
        sides=sides,
        copies=copies,
        number_copies=number_copies,
        numbers=numbers,
        points=points,
        effects=tuple(effects),
        at_start=tuple(at_start),
        rule=reader.text(entry.entries.get("rule"), "rule") or "",
        start_rule=reader.text(entry.entries.get("start-rule"), "start-rule") or "",
        spellings=spellings,
    )


def _read_class(reader: NodeReader, node: Node | None) -> FaceClass:
    class_name = reader.text(node, "class")
    if class_name is not None:
        try:
            return FaceClass(class_name)
        except ValueError:
            reader.error(node.position, f"class must be number, action or wild, not '{class_name}'")  # type: ignore[union-attr]
    return FaceClass.NUMBER


def _read_kind_sides(reader: NodeReader, node: Node | None, side_names: tuple[str, ...]) -> tuple[int, ...]:
    sides = []
    for side_node in reader.sequence(node, "sides"):
        side = reader.text(side_node, "a side")
        if side not in side_names:
            reader.error(side_node.position, f"a side is {' or '.join(side_names)}, not '{side}'")
        else:
            sides.append(side_names.index(side))
    return tuple(sides)


def _read_numbers(reader: NodeReader, node: Node | None, what: str) -> tuple[int, ...]:
    """``numbers: {from: 1, to: 9}``: counted, never expanded beyond what a deck may hold."""
    numbers_node = reader.mapping(node, "numbers", "{from: 1, to: 9}")
    if not numbers_node:
        return ()
    reader.keys(numbers_node, NUMBERS_KEYS, NUMBERS_KEYS, "numbers")
    low = reader.number(numbers_node.entries.get("from"), "from")
    high = reader.number(numbers_node.entries.get("to"), "to")
    if low is None or high is None:
        return ()
    if high - low + 1 > MAX_DECK_CARDS:  # counted, never expanded
        reader.error(
            numbers_node.position, f"{what}: numbers from {low} to {high} are more faces than a deck may hold ({MAX_DECK_CARDS:,})"
        )
        return (low,)  # a stand-in, so that no second error follows from this one (the spec is refused)
    return tuple(range(low, high + 1))


def _check_effects(
    reader: NodeReader, entry: Mapping, what: str, names: list[str], face_class: FaceClass, side_names: tuple[str, ...]
) -> None:
    """Effects that need one another, or a class, or a second side."""
    if "challengeable" in names and not any(n in ("next-player-draws", "next-player-draws-until-colour") for n in names):
        reader.error(entry.position, f"{what}: only a card with a draw penalty can be challengeable")
    if ("choose-colour" in names) != (face_class is FaceClass.WILD):
        reader.error(entry.position, f"{what}: a wild kind has choose-colour, and only a wild kind")
    if "next-player-draws-until-colour" in names and "choose-colour" not in names:
        reader.error(entry.position, f"{what}: next-player-draws-until-colour needs choose-colour")
    _conflicting_effects(reader, entry, what, names)
    if len(side_names) < 2 and "flip" in names:
        reader.error(entry.keys.get("effects", entry.position), f"{what}: a flip needs a second side to turn to")


def _read_at_start(reader: NodeReader, node: Node | None, what: str) -> list[str]:
    at_start: list[str] = []
    for start_node in reader.sequence(node, "at-start"):
        action = reader.text(start_node, "a start action")
        if action not in START_ACTIONS:
            reader.error(start_node.position, f"unknown start action '{action}'{did_you_mean(action or '', START_ACTIONS)}")
        elif action in at_start:
            reader.error(start_node.position, f"{what}: start action '{action}' is listed twice")
        else:
            at_start.append(action)
    return at_start


def check_deck_size(
    reader: NodeReader, node: Node | None, kinds: tuple[Kind, ...], side_names: tuple[str, ...], colours: list[tuple[str, ...]], path: str
) -> None:
    """Refuse a deck of more than MAX_DECK_CARDS faces on a side, counted from the kinds (colours x numbers x copies)
    before any card is made: a few lines of YAML may not ask for millions of cards."""
    for side, name in enumerate(side_names):
        size = 0
        for kind in kinds:
            if side not in kind.sides:
                continue
            per_colour = sum(dict(kind.number_copies).get(number, kind.copies) for number in kind.numbers) if kind.numbers else kind.copies
            size += per_colour * (1 if kind.face_class is FaceClass.WILD else len(colours[side]) if side < len(colours) else 1)
        if size > MAX_DECK_CARDS:
            where = node.position if node is not None else Position(path)
            reader.error(
                where, f"side '{name}' has {size:,} faces: a deck holds at most {MAX_DECK_CARDS:,} (fewer kinds, numbers or copies)"
            )


def _read_copies(reader: NodeReader, node: Node | None, numbers: tuple[int, ...], what: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``copies: 2``, or for a number kind ``copies: {0: 1, other: 2}``: copies of particular numbers, per colour."""
    if not isinstance(node, Mapping):
        return reader.number(node, "copies", 1) or 1, ()
    if not numbers:
        reader.error(node.position, f"{what}: copies per number is only for a number kind")
        return 1, ()
    default = 0
    particular: list[tuple[int, int]] = []
    for key, value in node.entries.items():
        count = reader.number(value, f"copies of {key}", 1) or 1
        if key == "other":
            default = count
        elif NUMBER_FORM.fullmatch(key) and int(key) in numbers:
            particular.append((int(key), count))
        else:
            reader.error(node.keys[key], f"{what}: copies are given per number of the kind or as 'other', not '{escape(key)}'")
    if not default and len(particular) < len(numbers):
        reader.error(node.position, f"{what}: copies needs 'other' for the numbers it does not name")
    return default or 1, tuple(sorted(particular))


TURN_EFFECTS = tuple(name for name, word in EFFECT_WORDS.items() if word.group is EffectGroup.TURN)
PENALTY_EFFECTS = tuple(name for name, word in EFFECT_WORDS.items() if word.group is EffectGroup.PENALTY)
HAND_EFFECTS = tuple(name for name, word in EFFECT_WORDS.items() if word.group is EffectGroup.HANDS)


def _conflicting_effects(reader: NodeReader, entry: Mapping, what: str, names: list[str]) -> None:
    """Effects the vocabulary gives no combined meaning: one would silently undo or hide another, so they are errors."""
    where = entry.keys.get("effects", entry.position)
    for name in sorted({name for name in names if names.count(name) > 1}):
        reader.error(where, f"{what}: effect '{name}' is listed twice")
    turn = [name for name in TURN_EFFECTS if name in names]
    if len(turn) > 1:
        reader.error(where, f"{what}: effects {' and '.join(repr(n) for n in turn)} cannot be combined (each decides who moves next)")
    penalty = [name for name in PENALTY_EFFECTS if name in names]
    if len(penalty) > 1:
        reader.error(where, f"{what}: effects {' and '.join(repr(n) for n in penalty)} cannot be combined (one penalty per card)")
    hands = [name for name in HAND_EFFECTS if name in names]
    if len(hands) > 1:
        reader.error(where, f"{what}: effects {' and '.join(repr(n) for n in hands)} cannot be combined (each decides where the hands go)")
    if penalty and "shuffle-hands" in names:
        reader.error(
            where,
            f"{what}: '{penalty[0]}' beside 'shuffle-hands' is not in the vocabulary (a penalty drawn into a hand dealt anew)",
        )
    if penalty and ("skip" in names or "skip-everyone" in names):
        reader.error(
            where,
            f"{what}: '{penalty[0]}' already makes the next player lose the turn; "
            f"'{'skip' if 'skip' in names else 'skip-everyone'}' beside it would be ignored",
        )


def _conflicting_start(reader: NodeReader, entry: Mapping, what: str, names: list[str], at_start: list[str]) -> None:
    """Start actions that one another would silently undo."""
    where = entry.keys.get("at-start", entry.position)
    if "apply-effects" not in at_start:
        return
    moves = any(name in names for name in (*PENALTY_EFFECTS, "skip", "skip-everyone"))
    if "dealer-first" in at_start and moves:
        reader.error(where, f"{what}: 'dealer-first' beside 'apply-effects' would be ignored: the card's effects choose who acts first")
    if "reverse" in at_start and "reverse" in names:
        reader.error(where, f"{what}: 'reverse' beside 'apply-effects' of a reversing card turns the direction twice (not at all)")


def _read_effect(reader: NodeReader, node: Node) -> Effect | None:
    if isinstance(node, Scalar):
        if node.value in EFFECTS_PLAIN:
            return Effect(node.value)
        vocabulary = EFFECTS_PLAIN | EFFECTS_WITH_AMOUNT
        reader.error(node.position, f"unknown effect '{node.value}'{known_names(node.value, vocabulary, 'effects')}")
        return None
    if isinstance(node, Mapping) and len(node.entries) == 1:
        ((name, value),) = node.entries.items()
        if isinstance(value, Mapping) and name in EFFECT_SETTINGS:
            return _read_effect_settings(reader, name, value)
        if name not in EFFECTS_WITH_AMOUNT:
            reader.error(
                node.keys[name], f"unknown effect '{name}' with an amount{known_names(name, EFFECTS_WITH_AMOUNT, 'effects with an amount')}"
            )
            return None
        amount = reader.number(value, name, 1)
        return Effect(name, amount) if amount is not None else None
    reader.error(node.position, "an effect is a name, or one name with an amount (e.g. {next-player-draws: 2})")
    return None


def _read_effect_settings(reader: NodeReader, name: str, node: Mapping) -> Effect | None:
    """``{flip: {draw-pile: keep}}`` or ``{next-player-draws: {count: 5, into: discard-pile}}``."""
    allowed = EFFECT_SETTINGS[name]
    keys = set(allowed) | ({"count"} if name in EFFECTS_WITH_AMOUNT else set())
    reader.keys(node, keys, {"count"} if name in EFFECTS_WITH_AMOUNT else set(), f"effect '{name}'")
    amount = reader.number(node.entries.get("count"), "count", 1) if name in EFFECTS_WITH_AMOUNT else None
    settings = []
    for key, choices in allowed.items():
        value = reader.text(node.entries.get(key), key)
        if value is None:
            continue
        if value not in choices:
            reader.error(node.entries[key].position, f"{key} is one of {', '.join(choices)}, not '{value}'")
            continue
        settings.append((key, value))
    return Effect(name, amount, tuple(settings))
