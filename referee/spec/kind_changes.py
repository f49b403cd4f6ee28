"""Kinds removed and renamed by a house spec (``kinds-removed``, ``kinds-renamed``), applied to the tree it extends.

A house spec states only what it changes, so it cannot restate the kinds, the deck and the options of the spec it
extends just to drop or rename one kind. These two keys change that tree before the house spec's own entries merge
over it:

- ``kinds-removed: [KIND, ...]``: the kind's entry goes, and with it every card of the deck that has a face of it
  (with two sides the card's other face goes too, so the other side's composition changes: restate the ``deck``),
  and every mention of it in the options that name kinds (``stacking``, ``jump-in``);
- ``kinds-renamed: {OLD: NEW}``: the kind is the same card under a new name: its entry, the deck's faces and the
  options name NEW; a log may still write the old name (it becomes a spelling of the renamed kind), and the
  rulebook's claims about OLD speak of NEW (``rename_in_claims``), so a renamed kind whose effects change is
  refuted claim by claim until the spec restates what it changes.

Only the trees change here; the reader checks the result as any spec.
"""

from __future__ import annotations

from referee.errors import Position, SpecError
from referee.spec.nodes import Mapping, Node, Scalar, Sequence
from referee.spec.vocabulary import NAME_FORM

REMOVED = "kinds-removed"
RENAMED = "kinds-renamed"
KEYS = (REMOVED, RENAMED)


def read_changes(child: Mapping) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The kinds a house spec removes and renames (``(OLD, NEW)`` pairs, in the order written)."""
    problems: list[tuple[Position, str]] = []
    removed: list[str] = []
    renamed: list[tuple[str, str]] = []
    node = child.entries.get(REMOVED)
    if node is not None:
        if not isinstance(node, Sequence) or not all(isinstance(item, Scalar) for item in node.items):
            problems.append((node.position, f"{REMOVED} is a list of kinds: [KIND, ...]"))
        else:
            removed = [item.value for item in node.items if isinstance(item, Scalar)]
    node = child.entries.get(RENAMED)
    if node is not None:
        if not isinstance(node, Mapping) or not all(isinstance(value, Scalar) for value in node.entries.values()):
            problems.append((node.position, f"{RENAMED} is a mapping {{OLD-KIND: NEW-KIND}}"))
        else:
            renamed = [(old, new.value) for old, new in node.entries.items() if isinstance(new, Scalar)]
    for name in [*removed, *(name for pair in renamed for name in pair)]:
        if not NAME_FORM.fullmatch(name):
            problems.append((child.position, f"'{name}' is not a kind's name (lower-case words with hyphens)"))
    if problems:
        raise SpecError(problems)
    return tuple(removed), tuple(renamed)


def apply_changes(base: Mapping, child: Mapping) -> Mapping:
    """The tree ``child`` extends, with the kinds it removes and renames changed (an unknown kind is an error)."""
    removed, renamed = read_changes(child)
    if not removed and not renamed:
        return base
    kinds = base.entries.get("kinds")
    known = set(kinds.entries) if isinstance(kinds, Mapping) else set()
    problems = [
        (child.keys.get(key, child.position), f"{key}: the spec it extends has no kind '{name}'")
        for key, names in ((REMOVED, removed), (RENAMED, tuple(old for old, _ in renamed)))
        for name in names
        if name not in known
    ]
    problems += [(child.keys[RENAMED], f"{RENAMED}: the spec already has a kind '{new}'") for _, new in renamed if new in known]
    if problems:
        raise SpecError(problems)
    colours = _colours(base)
    tree = base
    for name in removed:
        tree = _remove(tree, name, colours)
    for old, new in renamed:
        tree = _rename(tree, old, new, colours)
    return tree


def _colours(tree: Mapping) -> frozenset[str]:
    sides = tree.entries.get("sides")
    found: set[str] = set()
    for side in sides.entries.values() if isinstance(sides, Mapping) else ():
        listed = side.entries.get("colours") if isinstance(side, Mapping) else None
        found.update(item.value for item in (listed.items if isinstance(listed, Sequence) else ()) if isinstance(item, Scalar))
    return frozenset(found)


def face_of_kind(token: str, kind: str, colours: frozenset[str]) -> bool:
    """Whether a face token (``wild``, ``red-skip``) is a face of ``kind``."""
    if token == kind:
        return True
    colour, _, rest = token.partition("-")
    return rest == kind and colour in colours


def _renamed_face(token: str, old: str, new: str, colours: frozenset[str]) -> str:
    if not face_of_kind(token, old, colours):
        return token
    return new if token == old else token.partition("-")[0] + "-" + new


def _with(tree: Mapping, key: str, node: Node | None) -> Mapping:
    entries = dict(tree.entries)
    if node is None:
        entries.pop(key, None)
    else:
        entries[key] = node
    return Mapping(entries, tree.keys, tree.position)


def _remove(tree: Mapping, kind: str, colours: frozenset[str]) -> Mapping:
    kinds = tree.entries["kinds"]
    assert isinstance(kinds, Mapping)
    tree = _with(tree, "kinds", Mapping({k: v for k, v in kinds.entries.items() if k != kind}, kinds.keys, kinds.position))
    deck = tree.entries.get("deck")
    if isinstance(deck, Sequence):
        kept = tuple(
            item
            for item in deck.items
            if not (isinstance(item, Scalar) and any(face_of_kind(face, kind, colours) for face in item.value.lower().split("/")))
        )
        tree = _with(tree, "deck", Sequence(kept, deck.position))
    return _with(tree, "options", _options(tree.entries.get("options"), lambda name: None if name == kind else name))


def _rename(tree: Mapping, old: str, new: str, colours: frozenset[str]) -> Mapping:
    kinds = tree.entries["kinds"]
    assert isinstance(kinds, Mapping)
    entries: dict[str, Node] = {}
    for name, entry in kinds.entries.items():
        if name == old and isinstance(entry, Mapping):
            spelt = entry.entries.get("spellings")
            spellings = (Scalar(old, entry.position), *(spelt.items if isinstance(spelt, Sequence) else ()))
            entry = Mapping({**entry.entries, "spellings": Sequence(spellings, entry.position)}, entry.keys, entry.position)
        entries[new if name == old else name] = entry
    keys = {new if name == old else name: position for name, position in kinds.keys.items()}
    tree = _with(tree, "kinds", Mapping(entries, keys, kinds.position))
    deck = tree.entries.get("deck")
    if isinstance(deck, Sequence):
        items = tuple(
            Scalar("/".join(_renamed_face(face, old, new, colours) for face in item.value.lower().split("/")), item.position)
            if isinstance(item, Scalar)
            else item
            for item in deck.items
        )
        tree = _with(tree, "deck", Sequence(items, deck.position))
    return _with(tree, "options", _options(tree.entries.get("options"), lambda name: new if name == old else name))


def _options(options: Node | None, change: object) -> Node | None:
    """The options that name kinds (``stacking``, ``jump-in``) with each name changed (``change``: None drops it)."""
    if not isinstance(options, Mapping):
        return options
    entries = dict(options.entries)
    for name in ("stacking", "jump-in"):
        entry = entries.get(name)
        value = entry.entries.get("value") if isinstance(entry, Mapping) else None
        if isinstance(entry, Mapping) and value is not None:
            entries[name] = Mapping({**entry.entries, "value": _names(value, change)}, entry.keys, entry.position)
    return Mapping(entries, options.keys, options.position)


def _names(node: Node, change: object) -> Node:
    """A list of kinds or a table of them ``{KIND: [KINDS]}``, each name changed."""
    assert callable(change)
    if isinstance(node, Sequence):
        items = [_names(item, change) for item in node.items]
        return Sequence(tuple(item for item in items if not (isinstance(item, Scalar) and item.value == "")), node.position)
    if isinstance(node, Mapping):
        entries = {change(key): _names(value, change) for key, value in node.entries.items() if change(key) is not None}
        keys = {change(key): position for key, position in node.keys.items() if change(key) is not None}
        return Mapping(entries, keys, node.position)
    if isinstance(node, Scalar):
        return Scalar(change(node.value) or "", node.position)
    return node


def rename_in_claims(tree: Mapping, renamed: tuple[tuple[str, str], ...], colours: frozenset[str]) -> Mapping:
    """A claims file's tree with each renamed kind named as the spec names it: the kind a ``play``, ``start`` or
    ``stack`` claim is about, the kinds of ``points`` and of a ``deck`` claim's sides, the faces of its pairing and
    the kinds of an ``option`` claim's stacking or jump-in."""
    result: Node = tree
    for old, new in renamed:
        result = _renamed_claims(result, old, new, colours)
    assert isinstance(result, Mapping)
    return result


def _renamed_claims(node: Node, old: str, new: str, colours: frozenset[str]) -> Node:
    """The claims of a claims file's tree, each with ``old`` renamed where its form names kinds."""
    if not isinstance(node, Mapping) or not isinstance(node.entries.get("claims"), Sequence):
        return node
    claims = node.entries["claims"]
    assert isinstance(claims, Sequence)
    items = tuple(_renamed_claim(item, old, new, colours) for item in claims.items)
    return _with(node, "claims", Sequence(items, claims.position))


_KIND_OPTIONS = ("stacking", "jump-in")  # the options whose values name kinds
# The forms whose whole value may name kinds (a kind, a points table, a deck's sides and pairing).
_NAMING_FORMS = ("play", "start", "stack", "points", "deck")


def _renamed_claim(item: Node, old: str, new: str, colours: frozenset[str]) -> Node:
    if not isinstance(item, Mapping):
        return item
    entries = dict(item.entries)
    for form in _NAMING_FORMS:
        if form in entries:
            entries[form] = _renamed_kinds(entries[form], old, new, colours)
    option = entries.get("option")
    if isinstance(option, Mapping):  # only the options whose values are kinds
        change = {
            name: _renamed_kinds(value, old, new, colours) for name, value in option.entries.items() if name in ("stacking", "jump-in")
        }
        entries["option"] = Mapping({**option.entries, **change}, option.keys, option.position)
    return Mapping(entries, item.keys, item.position)


def _renamed_kinds(node: Node, old: str, new: str, colours: frozenset[str]) -> Node:
    """Every mapping key and every scalar that names ``old`` (or a face of it, or a card with such a face)."""
    if isinstance(node, Mapping):
        entries = {(new if key == old else key): _renamed_kinds(value, old, new, colours) for key, value in node.entries.items()}
        keys = {(new if key == old else key): position for key, position in node.keys.items()}
        return Mapping(entries, keys, node.position)
    if isinstance(node, Sequence):
        return Sequence(tuple(_renamed_kinds(item, old, new, colours) for item in node.items), node.position)
    if isinstance(node, Scalar):
        return Scalar("/".join(_renamed_face(face, old, new, colours) for face in node.value.split("/")), node.position)
    return node
