"""Where specs come from: the shipped specs, names and paths resolved, and ``extends`` chains merged into one node
tree (then ``referee.spec.reader.build_spec`` reads it)."""

from __future__ import annotations

import os
from pathlib import Path

from referee.errors import Position, SpecError, did_you_mean, escape
from referee.spec import kind_changes
from referee.spec.model import Spec, replace_spec
from referee.spec.nodes import Mapping, Scalar, Sequence
from referee.spec.paths import SPECS, default_spec_name, shipped_spec_names, shipped_spec_path
from referee.spec.vocabulary import MERGED_BY_ENTRY, NAME_FORM, OPTION_FLAG_ORDER

__all__ = [
    "READ",
    "SPECS",
    "SPEC_MARKERS",
    "default_spec_name",
    "inside",
    "load_spec",
    "resolve_spec",
    "shipped_spec_names",
    "shipped_spec_path",
]


SPEC_MARKERS = ("format", "name", "extends")  # a spec file has one of these top-level keys; another file is "not a spec file"
READ: list[Path] | None = None  # when a list, every spec file ``load_spec`` reads is added to it (the rules cache)


def inside(path: Path | str, folder: Path | str) -> bool:
    """Whether ``path``, links and ``..`` resolved, is ``folder`` or below it (``folder`` resolved too)."""
    real = os.path.realpath(path)
    top = os.path.realpath(folder)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def resolve_spec(name: str, relative_to: Path | None, roots: tuple[Path, ...] = (), *, confined: bool = False) -> Path:
    """A spec named in a log or on the command line: a shipped name, else a path.

    ``confined`` is for names a file chose (a log's ``spec`` line, a spec's
    ``extends``): the path must lie, links and ``..`` resolved, inside the
    folder tree of ``relative_to`` or of one of ``roots`` (``--spec-path``),
    or be a shipped spec file; an absolute path only inside ``roots`` or
    the shipped specs. A log must not decide which of the machine's files
    are read. The user's own ``--spec`` is not confined.
    """
    shipped = shipped_spec_path(name) if NAME_FORM.fullmatch(name) else None
    if shipped is not None:
        return shipped
    if confined:
        return _confined(name, relative_to, roots)
    path = Path(name)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    try:
        found = path.exists() and not path.is_dir()  # a pipe or a device is found, and refused when read
    except OSError as error:  # a folder on the way that may not be searched
        raise SpecError([(Position(escape(name)), f"cannot read spec: {error.strerror or error}")]) from None
    if not found:
        names = shipped_spec_names()
        hint = did_you_mean(name, list(names))
        raise SpecError(
            [(Position(escape(name)), f"no spec '{escape(name)}'{escape(hint)}: not a shipped spec ({', '.join(names)}) nor a file")]
        )
    return path


def _confined(name: str, relative_to: Path | None, roots: tuple[Path, ...]) -> Path:
    """A file a log or spec names: the first place it is found inside a trusted folder, else ``SpecError``.

    A relative name is looked up beside the file that names it, then in each
    root; it is taken where it lies (links and ``..`` resolved) inside the
    naming file's folder, a root or the shipped specs. An absolute name only
    inside a root or the shipped specs.
    """
    given = Path(name)
    trusted = [*roots, SPECS]
    if given.is_absolute():
        candidates = [given]
    else:
        candidates = ([relative_to / given] if relative_to is not None else []) + [root / given for root in roots]
        if relative_to is not None:
            trusted.insert(0, relative_to)
    for candidate in candidates:
        try:
            if os.path.exists(candidate) and not os.path.isdir(candidate) and any(inside(candidate, folder) for folder in trusted):
                return Path(os.path.realpath(candidate))
        except (OSError, ValueError):
            continue
    shown = escape(name)
    where = "its own folder" if relative_to is None else "the folder tree of the file that names it"
    raise SpecError(
        [
            (
                Position(shown),
                f"no spec '{shown}' here: a log or spec may name a shipped spec ({', '.join(shipped_spec_names())}) or a spec file "
                f"in {where}; give --spec FILE, or --spec-path DIR to allow the folder it is in",
            )
        ]
    )


def _merge(base: Mapping, child: Mapping) -> Mapping:
    """A house-rule spec over its base: mappings merge entry by entry, rules by id, the rest replaces; the kinds the
    child removes and renames first change the base (``referee.spec.kind_changes``), and are kept, added up, for the
    readers that follow a kind by its name (the rulebook's claims, ``diff``)."""
    base = kind_changes.apply_changes(base, child)
    entries = dict(base.entries)
    keys = dict(base.keys)
    for key, node in child.entries.items():
        if key == "extends":
            continue
        old = entries.get(key)
        if key in kind_changes.KEYS and isinstance(old, Mapping) and isinstance(node, Mapping):
            entries[key] = Mapping({**old.entries, **node.entries}, {**old.keys, **node.keys}, node.position)
        elif key in kind_changes.KEYS and isinstance(old, Sequence) and isinstance(node, Sequence):
            entries[key] = Sequence((*old.items, *node.items), node.position)
        elif key in MERGED_BY_ENTRY and isinstance(old, Mapping) and isinstance(node, Mapping):
            entries[key] = _merge_by_entry(old, node)
        elif key in ("rules", "claims") and isinstance(old, Sequence) and isinstance(node, Sequence):
            entries[key] = _merge_by_id(key, old, node)
        else:
            entries[key] = node
        keys[key] = child.keys[key]
    return Mapping(entries, keys, child.position)


def _merge_by_entry(old: Mapping, node: Mapping) -> Mapping:
    """A section merged entry by entry, each entry's own mapping merged one level down (a kind's keys)."""
    merged_entries = dict(old.entries)
    merged_keys = dict(old.keys)
    for sub_key, sub_node in node.entries.items():
        old_sub = merged_entries.get(sub_key)
        if isinstance(old_sub, Mapping) and isinstance(sub_node, Mapping):
            merged_entries[sub_key] = Mapping({**old_sub.entries, **sub_node.entries}, {**old_sub.keys, **sub_node.keys}, sub_node.position)
        else:
            merged_entries[sub_key] = sub_node
        merged_keys[sub_key] = node.keys[sub_key]
    return Mapping(merged_entries, merged_keys, node.position)


def _merge_by_id(key: str, old: Sequence, node: Sequence) -> Sequence:
    """Rules and claims merge by id: a child's item replaces the base's of its id (a withdrawn claim keeps the base's
    figures), any other is added."""
    by_id: dict[str, int] = {}
    items = list(old.items)
    for index, item in enumerate(items):
        if isinstance(item, Mapping) and isinstance(item.entries.get("id"), Scalar):
            by_id[item.entries["id"].value] = index  # type: ignore[union-attr]
    for item in node.items:
        rule_id = item.entries.get("id") if isinstance(item, Mapping) else None
        if isinstance(rule_id, Scalar) and rule_id.value in by_id:
            old_item = items[by_id[rule_id.value]]
            if key == "claims" and isinstance(item, Mapping) and "withdrawn" in item.entries and isinstance(old_item, Mapping):
                # a withdrawal keeps the claim it withdraws: prove asks whether what it speaks of still arises
                item = Mapping({**old_item.entries, "withdrawn": item.entries["withdrawn"]}, {**old_item.keys, **item.keys}, item.position)
            items[by_id[rule_id.value]] = item
        else:
            items.append(item)
    return Sequence(tuple(items), node.position)


def load_spec(path: Path, roots: tuple[Path, ...] = ()) -> Spec:
    """Load, merge (``extends``) and validate a spec file; ``extends`` may name files below the spec's folder or ``roots``."""
    tree, game, stated = _merged_tree(path, 0, roots)
    from referee.spec.reader import build_spec  # reading a spec's text: a check whose rules are cached never does

    spec = build_spec(_with_switch_rules(tree), str(path))
    return replace_spec(spec, game=game, game_stated=stated) if game else spec


def spec_tree(path: Path, roots: tuple[Path, ...] = ()) -> Mapping:
    """A spec's node tree merged over the specs it extends, as ``load_spec`` reads it: where each item is set."""
    return _with_switch_rules(_merged_tree(path, 0, roots)[0])


def spec_files(path: Path) -> list[Path]:
    """The files a spec is read from that are not shipped: the spec itself and the files its ``extends`` chain names
    below its folder (what a copy of the spec needs beside it)."""
    global READ
    read: list[Path] = []
    READ = read
    try:
        load_spec(path)
    finally:
        READ = None
    shipped = SPECS.resolve()
    return [file for file in dict.fromkeys(read) if not file.resolve().is_relative_to(shipped)]


def _with_switch_rules(tree: Mapping) -> Mapping:
    """A house switch turned on in the short form (``{value: true}``, no ``rule``) cites the shipped rule for it
    (``specs/house-switches.yml``), which is added to the spec with the ``house`` source unless the spec has them."""
    options = tree.entries.get("options")
    if not isinstance(options, Mapping):
        return tree
    entries_of = {name: entry.entries for name, entry in options.entries.items() if isinstance(entry, Mapping)}
    short = [name for name in OPTION_FLAG_ORDER if name in entries_of and "rule" not in entries_of[name]]
    if not short:
        return tree
    from referee.spec.loader import load_file

    shipped = load_file(SPECS / "house-switches.yml")
    shipped_rules = shipped.entries["rules"]
    assert isinstance(shipped_rules, Sequence)
    defaults = {_rule_id(item): item for item in shipped_rules.items}
    entries, keys = dict(tree.entries), dict(tree.keys)
    rules = entries.get("rules")
    items = list(rules.items) if isinstance(rules, Sequence) else []
    known = {_rule_id(item) for item in items}
    option_entries = dict(options.entries)
    for name in short:
        entry = option_entries[name]
        assert isinstance(entry, Mapping)
        rule_id = f"house.{name}"
        option_entries[name] = Mapping(
            {**entry.entries, "rule": Scalar(rule_id, entry.position)}, {**entry.keys, "rule": entry.position}, entry.position
        )
        if rule_id not in known:
            items.append(defaults[rule_id])
    entries["options"] = Mapping(option_entries, dict(options.keys), options.position)
    entries["rules"] = Sequence(tuple(items), rules.position if rules is not None else tree.position)
    keys.setdefault("rules", tree.position)
    documents = shipped.entries["sources"]
    assert isinstance(documents, Mapping)
    cited = ["house", *(_source_key(defaults[f"house.{name}"]) for name in short)]  # the house document, as always
    sources = entries.get("sources")
    if isinstance(sources, Mapping):
        entries["sources"] = _with_sources(sources, documents, cited)
    return Mapping(entries, keys, tree.position)


def _with_sources(sources: Mapping, documents: Mapping, cited: list[str]) -> Mapping:
    """A spec's sources with the shipped documents its added rules cite, where it lacks them."""
    added = [key for key in dict.fromkeys(cited) if key in documents.entries and key not in sources.entries]
    if not added:
        return sources
    return Mapping(
        {**sources.entries, **{key: documents.entries[key] for key in added}},
        {**sources.keys, **{key: documents.position for key in added}},
        sources.position,
    )


def _source_key(item: object) -> str:
    """The source key a shipped rule cites."""
    source = item.entries.get("source") if isinstance(item, Mapping) else None
    key = source.entries.get("key") if isinstance(source, Mapping) else None
    return key.value if isinstance(key, Scalar) else ""


def _rule_id(item: object) -> str:
    rule_id = item.entries.get("id") if isinstance(item, Mapping) else None
    return rule_id.value if isinstance(rule_id, Scalar) else ""


def _merged_tree(path: Path, depth: int, roots: tuple[Path, ...]) -> tuple[Mapping, str, bool]:
    """A spec's node tree over the trees of the specs it extends, at most four deep; the game of the root spec
    (its 'game' line, else its name), and whether the root stated it."""
    from referee.spec.loader import load_file  # PyYAML only when a spec is read, not for cached rules

    tree = load_file(path, SPEC_MARKERS)
    if READ is not None:
        READ.append(path)
    extends = tree.entries.get("extends")
    game = tree.entries.get("game")
    if extends is None:
        for key in kind_changes.KEYS:
            if key in tree.entries:
                raise SpecError([(tree.keys[key], f"'{key}' changes the spec this one extends: it needs an 'extends' line")])
        name = tree.entries.get("name")
        if isinstance(game, Scalar):  # a copy of a game's spec under another name still states that game
            return tree, game.value, True
        return tree, name.value if isinstance(name, Scalar) else "", False
    if game is not None:
        raise SpecError([(tree.keys.get("game", game.position), "'game' is inherited from the spec this one extends")])
    if depth >= 4:
        raise SpecError([(extends.position, "'extends' nests more than 4 specs deep")])
    if not isinstance(extends, Scalar):
        raise SpecError([(extends.position, "'extends' must name a spec")])
    try:
        base_path = resolve_spec(extends.value, path.parent, roots, confined=True)
    except SpecError as error:
        raise SpecError([(extends.position, error.message)]) from None
    base, root_game, stated = _merged_tree(base_path, depth + 1, roots)
    return _merge(base, tree), root_game, stated
