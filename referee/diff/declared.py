"""Declared differences: two specs compared item by item, each difference with both values and the spec lines that
set them.

A spec is read into sections (the table, the matching, the options, the deck, the kinds, the disputes, the rules, the
claims). Each section is one object that says what its items are worth in a spec, how to write a value, where in the
merged YAML tree an item is set, and whether the engine reads it. The engine is compiled from exactly the items that
are marked ``behaviour``: two specs whose behaviour items are all equal have engines that decide every line alike, and accept the same
games (``tests/test_diff.py`` keeps the list of what the engine reads complete). The rest is wording: rule summaries
and sources, rule ids, claims.

A section can also ``transplant`` one item: the first spec with that item taken from the second. ``referee diff``
searches a game for each difference under such a spec, so that the game it shows is the work of that difference
alone.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from referee.errors import Position
from referee.records import dataclass
from referee.spec.catalogue import Catalogue
from referee.spec.kind_changes import face_of_kind
from referee.spec.model import Effect, Kind, Spec, replace_spec
from referee.spec.nodes import Mapping, Node, Scalar, Sequence

ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class Difference:
    """One item the two specs set differently: its name, both values as text, where each spec sets it (None: not
    written in that spec's files), and whether the engine reads it."""

    item: str
    a: str
    b: str
    a_at: Position | None
    b_at: Position | None
    behaviour: bool

    @property
    def section(self) -> str:
        return self.item.split(".", 1)[0]


@dataclass(frozen=True, slots=True)
class SpecSide:
    """One of the two specs: the validated spec and its merged node tree (for the lines items are set on)."""

    spec: Spec
    tree: Mapping


def _text(value: object) -> str:
    """A value as a reader of the spec writes it."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list, frozenset)):
        return "[" + ", ".join(_text(item) for item in value) + "]"
    return str(getattr(value, "value", value))


def _entry(tree: Mapping, *keys: str, partial: bool = False) -> Position | None:
    """The position of ``keys`` in the tree; None when the spec's files do not write it (a default). With
    ``partial``, the deepest one written (a kind's line for a field the kind leaves to its default)."""
    found: Position | None = None
    node: Node = tree
    for key in keys:
        if not isinstance(node, Mapping) or key not in node.entries:
            return found if partial else None
        found = node.keys.get(key, found)
        node = node.entries[key]
    return found


def _item_node(tree: Mapping, section: str, item_id: str) -> Position | None:
    """The position of the rule or claim with this id."""
    items = tree.entries.get(section)
    for item in items.items if isinstance(items, Sequence) else ():
        if _id_of(item) == item_id:
            return item.position
    return None


def _id_of(item: Node) -> str | None:
    """The ``id`` of a rule or claim node."""
    found = item.entries.get("id") if isinstance(item, Mapping) else None
    return found.value if isinstance(found, Scalar) else None


class Section:
    """A part of a spec, item by item. ``values`` gives each item's value (equal values: the same item); ``at``
    where a spec's files set it; ``transplant`` the first spec with the item taken from the second (None: the item
    cannot be moved alone, for example a kind and the deck that holds it)."""

    name = ""
    behaviour = True

    def values(self, spec: Spec) -> dict[str, object]:
        raise NotImplementedError

    def text(self, value: object) -> str:
        return _text(value)

    def missing(self, key: str) -> str:
        """What a spec without the item has instead."""
        return ABSENT

    def detail(self, key: str, a: Spec, b: Spec) -> str:
        """More about how the two values differ, after the second (the deck: which cards), or nothing."""
        return ""

    def at(self, tree: Mapping, key: str) -> Position | None:
        return _entry(tree, self.name, key)

    def in_play(self, key: str, a: Spec, b: Spec) -> bool:
        """Whether the engine of either spec reads the item (``behaviour``, unless no card of either could use it)."""
        return self.behaviour

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        return None


class TableSection(Section):
    """Players, hand size, the side turned up first, the sides and their colours."""

    name = "table"

    def values(self, spec: Spec) -> dict[str, object]:
        found: dict[str, object] = {
            "min-players": spec.min_players,
            "max-players": spec.max_players,
            "hand-size": spec.hand_size,
            "start-side": spec.side_names[spec.start_side] if spec.start_side < spec.sides else spec.start_side,
            "sides": spec.side_names,
        }
        for side, colours in zip(spec.side_names, spec.colours, strict=False):
            found[f"colours.{side}"] = tuple(sorted(colours))  # the order colours are listed in changes no rule
        return found

    def at(self, tree: Mapping, key: str) -> Position | None:
        if key == "sides":
            return _entry(tree, "sides")
        if key.startswith("colours."):
            return _entry(tree, "sides", key.split(".", 1)[1])
        return _entry(tree, "table", key)

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        if key == "min-players":
            return replace_spec(a, min_players=b.min_players)
        if key == "max-players":
            return replace_spec(a, max_players=b.max_players)
        if key == "hand-size":
            return replace_spec(a, hand_size=b.hand_size)
        if key == "start-side" and a.side_names == b.side_names:
            return replace_spec(a, start_side=b.start_side)
        return None  # sides and colours change the cards themselves


class MatchingSection(Section):
    """What a played face must share with the top of the discard pile."""

    name = "matching"
    _FIELDS = {
        "same-colour": "same_colour",
        "same-number": "same_number",
        "same-action-kind": "same_action_kind",
        "wild-always": "wild_always",
    }

    def values(self, spec: Spec) -> dict[str, object]:
        return {key: getattr(spec.matching, field) for key, field in self._FIELDS.items()}

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        import dataclasses

        field = self._FIELDS[key]
        return replace_spec(a, matching=dataclasses.replace(a.matching, **{field: getattr(b.matching, field)}))


class OptionsSection(Section):
    """The options a house rule changes; stacking item by item (which kind may go on which penalty owed)."""

    name = "options"

    def values(self, spec: Spec) -> dict[str, object]:
        found: dict[str, object] = {name: value for name, value in spec.options.items() if name != "stacking"}
        for owed, allowed in spec.options.get("stacking", ()):  # type: ignore[attr-defined]
            for kind in allowed:
                found[f"stacking.{kind}-on-{owed}"] = "allowed"
        return found

    # An option the engine reads only when a card has this effect: who names the colour after a Flip, what an
    # innocent challenge adds (a challenge is ruled only on a challengeable card's penalty).
    _ONLY_WITH_EFFECT = {"flip-colour-chooser": "flip", "challenge-innocent-extra": "challengeable"}

    def missing(self, key: str) -> str:
        return "not allowed" if key.startswith("stacking.") else ABSENT

    def in_play(self, key: str, a: Spec, b: Spec) -> bool:
        effect = self._ONLY_WITH_EFFECT.get(key)
        return effect is None or any(item.name == effect for spec in (a, b) for kind in spec.kinds for item in kind.effects)

    def at(self, tree: Mapping, key: str) -> Position | None:
        return _entry(tree, "options", key.split(".", 1)[0])

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        options = dict(a.options)
        if not key.startswith("stacking."):
            options[key] = b.options[key]
            return replace_spec(a, options=options)
        pairs = {(owed, kind) for owed, allowed in a.options.get("stacking", ()) for kind in allowed}  # type: ignore[attr-defined]
        pair = next((owed, kind) for owed, allowed in _stacking(a, b) for kind in allowed if key == f"stacking.{kind}-on-{owed}")
        pairs ^= {pair}
        table: dict[str, list[str]] = {}
        for owed, kind in sorted(pairs):
            table.setdefault(owed, []).append(kind)
        options["stacking"] = tuple((owed, tuple(kinds)) for owed, kinds in table.items())
        return replace_spec(a, options=options)


def _stacking(a: Spec, b: Spec) -> Iterator[tuple[str, tuple[str, ...]]]:
    yield from a.options.get("stacking", ())  # type: ignore[misc]
    yield from b.options.get("stacking", ())  # type: ignore[misc]


class KindsSection(Section):
    """Each kind of face: its class, sides, numbers, copies, points, effects, what it does at the start, and how a
    log may spell it. A kind's presence and its copies change the deck too, so they move with the deck."""

    name = "kinds"
    _MOVABLE = {"points": "points", "effects": "effects", "at-start": "at_start"}

    def values(self, spec: Spec) -> dict[str, object]:
        """Each kind under the name the root of its ``extends`` chain gives it, so that a kind renamed by a house spec
        (``kinds-renamed``) is compared with itself: its new name is an item (``KIND.name``), and the old names it
        may still be written by are not spellings of its own."""
        found: dict[str, object] = {}
        earlier = spec.earlier_names
        for kind in spec.kinds:
            key = spec.root_name(kind.name)
            found[key] = "defined"
            if kind.name != key:
                found[f"{key}.name"] = kind.name
            found[f"{key}.class"] = kind.face_class.value
            found[f"{key}.sides"] = tuple(spec.side_names[side] for side in sorted(kind.sides))
            found[f"{key}.numbers"] = tuple(sorted(kind.numbers))
            of_numbers = ", ".join(f"{number}: {copies}" for number, copies in sorted(kind.number_copies))
            found[f"{key}.copies"] = f"{kind.copies}" + (f" ({of_numbers})" if of_numbers else "")
            found[f"{key}.points"] = "face-value" if kind.points is None else kind.points
            found[f"{key}.effects"] = tuple(sorted(_effect_text(effect) for effect in kind.effects))
            found[f"{key}.at-start"] = tuple(sorted(kind.at_start))
            found[f"{key}.spellings"] = tuple(sorted(set(kind.spellings) - set(earlier.get(kind.name, ()))))
        return found

    def missing(self, key: str) -> str:
        return key.partition(".")[0] if key.endswith(".name") else ABSENT  # a kind never renamed has its first name

    def at(self, tree: Mapping, key: str) -> Position | None:
        name, _, field = key.partition(".")
        if field == "name":
            return _entry(tree, "kinds-renamed", name) or _entry(tree, "kinds", name)
        return _entry(tree, "kinds", name, *([field] if field else []), partial=True)

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        name, _, field = key.partition(".")
        attribute = self._MOVABLE.get(field)
        mine = next((kind for kind in a.kinds if a.root_name(kind.name) == name), None)
        theirs = next((kind for kind in b.kinds if b.root_name(kind.name) == name), None)
        if attribute is None or mine is None or theirs is None:
            return None
        import dataclasses

        moved: Kind = dataclasses.replace(mine, **{attribute: getattr(theirs, attribute)})
        return replace_spec(a, kinds=tuple(moved if kind is mine else kind for kind in a.kinds))


def _effect_text(effect: Effect) -> str:
    """An effect as one word, its amount and its settings (``next-player-draws 2 into=discard-pile``)."""
    text = effect.name if effect.amount is None else f"{effect.name} {effect.amount}"
    return text + "".join(f" {key}={value}" for key, value in effect.settings)


class DeckSection(Section):
    """The default physical deck: how many of each card (for two sides, which faces are paired), and whether a
    deck line must hold the official counts."""

    name = "deck"

    def values(self, spec: Spec) -> dict[str, object]:
        return {"cards": _cards(spec), "official": spec.deck_official}

    def text(self, value: object) -> str:
        if isinstance(value, Counter):
            return f"{sum(value.values())} cards"
        return _text(value)

    def detail(self, key: str, a: Spec, b: Spec) -> str:
        return f" ({deck_change(a, b)})" if key == "cards" else ""

    def at(self, tree: Mapping, key: str) -> Position | None:
        return _entry(tree, "deck-composition" if key == "official" else "deck")

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        if key == "official":
            return replace_spec(a, deck_official=b.deck_official)
        if {kind.name for kind in a.kinds} != {kind.name for kind in b.kinds}:
            return None
        return replace_spec(a, deck=b.deck, kinds=b.kinds, kinds_renamed=b.kinds_renamed)


def _cards(spec: Spec) -> Counter[str]:
    """How many of each physical card the deck holds, each card by its usual name (a spelling is the same card), each
    face of a renamed kind by its first name (``KindsSection``: the rename is an item of its own)."""
    catalogue = Catalogue(spec)
    cards = Counter(str(catalogue.card(token.lower()) or token) for token in spec.deck)
    if not spec.kinds_renamed:
        return cards
    colours = frozenset(colour for side in spec.colours for colour in side)
    first = {kind: names[0] for kind, names in spec.earlier_names.items()}
    named: Counter[str] = Counter()
    for card, count in cards.items():
        named["/".join(_first_face(face, first, colours) for face in card.split("/"))] += count
    return named


def _first_face(token: str, first: dict[str, str], colours: frozenset[str]) -> str:
    for kind, name in first.items():
        if face_of_kind(token, kind, colours):
            return name if token == kind else token.partition("-")[0] + "-" + name
    return token


def deck_change(a: Spec, b: Spec) -> str:
    """The cards one deck has more of than the other, a few of them, for the text of a deck difference."""
    mine, theirs = _cards(a), _cards(b)
    more = [f"+{count} {card}" for card, count in sorted((theirs - mine).items())]
    fewer = [f"-{count} {card}" for card, count in sorted((mine - theirs).items())]
    changes = more + fewer
    shown = ", ".join(changes[:4]) + (f", and {len(changes) - 4} more" if len(changes) > 4 else "")
    return shown


class DisputesSection(Section):
    """What a guilty and an innocent challenge cost and who draws for a catch (the rule each cites is wording)."""

    name = "disputes"

    def values(self, spec: Spec) -> dict[str, object]:
        disputes = spec.disputes
        return {
            "challenge-guilty": f"{disputes.guilty.draws} draws {disputes.guilty.cards}, then {disputes.guilty.then}",
            "challenge-innocent": f"{disputes.innocent.draws} draws {disputes.innocent.cards}, then {disputes.innocent.then}",
            "catch": f"{disputes.catch_draws} draws",
        }

    def transplant(self, a: Spec, b: Spec, key: str) -> Spec | None:
        import dataclasses

        field = {"challenge-guilty": "guilty", "challenge-innocent": "innocent", "catch": "catch_draws"}[key]
        return replace_spec(a, disputes=dataclasses.replace(a.disputes, **{field: getattr(b.disputes, field)}))


class RulesSection(Section):
    """The rules by id: what each says and cites, which options it reads, which checks report under its id. Wording:
    a check finds the same violations whatever rule id it reports them under."""

    name = "rules"
    behaviour = False

    def values(self, spec: Spec) -> dict[str, object]:
        found: dict[str, object] = {}
        for rule in spec.rules:
            found[rule.id] = "defined"
            found[f"{rule.id}.summary"] = rule.summary
            found[f"{rule.id}.source"] = f"{rule.citation.key}, {rule.citation.section}"
            found[f"{rule.id}.ruling"] = rule.ruling
            found[f"{rule.id}.options"] = rule.options
            found[f"{rule.id}.checks"] = rule.checks
        for name, rule_id in spec.option_rules.items():
            found[f"of-option.{name}"] = rule_id
        for kind in spec.kinds:
            found[f"of-kind.{spec.root_name(kind.name)}"] = f"{kind.rule}, at the start {kind.start_rule}"
        return found

    def at(self, tree: Mapping, key: str) -> Position | None:
        if key.startswith("of-option."):
            return _entry(tree, "options", key.split(".", 1)[1])
        if key.startswith("of-kind."):
            return _entry(tree, "kinds", key.split(".", 1)[1])
        rule_id = next((candidate for candidate in _ids(tree, "rules") if key == candidate or key.startswith(candidate + ".")), key)
        return _item_node(tree, "rules", rule_id)


def _ids(tree: Mapping, section: str) -> list[str]:
    items = tree.entries.get(section)
    ids = [found for found in map(_id_of, items.items if isinstance(items, Sequence) else ()) if found is not None]
    return sorted(ids, key=len, reverse=True)  # the longest first: 'a.b' before 'a'


class ClaimsSection(Section):
    """The claims a spec restates or withdraws (a game's own claims file is the same for both of a pair)."""

    name = "claims"
    behaviour = False

    def values(self, spec: Spec) -> dict[str, object]:
        found: dict[str, object] = {}
        for item in getattr(spec.claims, "items", ()):
            plain = _plain(item)
            if isinstance(plain, dict) and isinstance(plain.get("id"), str):
                found[plain["id"]] = json.dumps({key: value for key, value in plain.items() if key != "id"}, sort_keys=True)
        return found

    def text(self, value: object) -> str:
        return ABSENT if value is None else "stated"

    def at(self, tree: Mapping, key: str) -> Position | None:
        return _item_node(tree, "claims", key)


def _plain(node: Node) -> object:
    """A node as plain values, positions dropped (what a reworded or reordered copy keeps)."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Sequence):
        return [_plain(item) for item in node.items]
    return {key: _plain(value) for key, value in node.entries.items()}


# Items that change the physical cards: a game under one spec then parts from the other at its deal already.
CARDS_ITEMS = ("deck.cards", "table.sides")

SECTIONS: tuple[Section, ...] = (
    TableSection(),
    MatchingSection(),
    OptionsSection(),
    DeckSection(),
    KindsSection(),
    DisputesSection(),
    RulesSection(),
    ClaimsSection(),
)
SECTIONS_BY_NAME = {section.name: section for section in SECTIONS}


def differences(a: SpecSide, b: SpecSide) -> list[Difference]:
    """Every item the two specs set differently, section by section, items in a stable order."""
    found: list[Difference] = []
    for section in SECTIONS:
        mine, theirs = section.values(a.spec), section.values(b.spec)
        gone: set[str] = set()
        for key in sorted(mine.keys() | theirs.keys()):
            value_a, value_b = mine.get(key), theirs.get(key)
            if value_a == value_b or any(key.startswith(parent + ".") for parent in gone):
                continue
            if (value_a is None) != (value_b is None) and "defined" in (value_a, value_b):
                gone.add(key)  # a kind or rule only one spec has: its fields are not listed one by one
            a_text = section.missing(key) if value_a is None else section.text(value_a)
            b_text = (section.missing(key) if value_b is None else section.text(value_b)) + section.detail(key, a.spec, b.spec)
            at_a = section.at(a.tree, key) if value_a is not None else None
            at_b = section.at(b.tree, key) if value_b is not None else None
            found.append(Difference(f"{section.name}.{key}", a_text, b_text, at_a, at_b, section.in_play(key, a.spec, b.spec)))
    return found


def transplant(a: Spec, b: Spec, difference: Difference) -> Spec | None:
    """The first spec with this one item as the second sets it (None: it moves only with others)."""
    section, _, key = difference.item.partition(".")
    if not difference.behaviour:
        return None
    moved = SECTIONS_BY_NAME[section].transplant(a, b, key)
    if moved is None:
        return None
    checks = {check for rule in a.rules for check in rule.checks}
    extra = tuple(rule for rule in b.rules if set(rule.checks) - checks)  # a check the moved item brings reports somewhere
    return replace_spec(moved, rules=a.rules + extra) if extra else moved
