"""The spec reader: positioned YAML nodes -> a validated ``Spec`` (``referee.spec.model``'s records).

The vocabulary is closed (``referee.spec.vocabulary``): every key, effect,
start action and option value is listed there, and anything else is an error
with its position and, where a near name exists, a "did you mean". Every
problem of a spec is collected (up to ``MAX_PROBLEMS``) and raised together as
one ``SpecError``.
"""

from __future__ import annotations

import re
from collections import Counter

from referee.cards import FaceClass, face_token
from referee.errors import Position, SpecError, did_you_mean, escape
from referee.spec import kind_changes
from referee.spec.catalogue import Catalogue
from referee.spec.kinds import check_deck_size, read_kinds
from referee.spec.model import (
    DEFAULT_DISPUTES,
    Citation,
    Disputes,
    Kind,
    Matching,
    Outcome,
    Rule,
    Source,
    Spec,
    replace_spec,
)
from referee.spec.node_reader import NodeReader
from referee.spec.nodes import Mapping, Node, Scalar, Sequence
from referee.spec.vocabulary import (
    CHECKS,
    CHECKS_ONLY_UNDER,
    CHECKS_ONLY_WITH,
    CITATION_KEYS,
    DISPUTE_SETTINGS,
    DISPUTES_FORM,
    MATCHING_KEYS,
    MAX_SIDES,
    NAME_FORM,
    OPTION_ENTRY_KEYS,
    OPTION_EXAMPLES,
    OPTION_FLAGS,
    OPTION_KIND_LIMITS,
    OPTION_WORD,
    OPTIONS,
    PLACEHOLDER,
    REQUIRED_OPTIONS,
    RULE_KEYS,
    SIDE_NAMES,
    SOURCE_KEYS,
    SPEC_FORMAT,
    STACKING_BY_VALUE,
    TABLE_KEYS,
    TOP_KEYS,
    OptionDomain,
    OptionWord,
)


def build_spec(tree: Mapping, path: str) -> Spec:
    """Validate a (merged) node tree and build the ``Spec``; raises ``SpecError`` with every problem. The parts are
    read in the order of the language's reference, so the problems are reported in that order."""
    reader = NodeReader()
    reader.keys(tree, TOP_KEYS, {"format", "name", "sides", "kinds", "rules", "deck", "table", "matching"}, "the spec")
    name, title = _read_header(reader, tree)
    sources = _read_sources(reader, tree.entries.get("sources"))
    side_names, colours = _read_sides(reader, tree.entries.get("sides"))
    min_players, max_players, hand_size, start_side = _read_table(reader, tree.entries.get("table"), side_names)
    matching = _read_matching(reader, tree.entries.get("matching"))
    disputes = _read_disputes(reader, tree.entries.get("disputes"))
    kinds = read_kinds(reader, tree.entries.get("kinds"), side_names)
    check_deck_size(reader, tree.entries.get("kinds"), kinds, side_names, colours, path)
    options, option_rules = _read_options(reader, tree.entries.get("options"), kinds)
    rules = _fill_summaries(reader, _read_rules(reader, tree.entries.get("rules"), sources), options)
    _check_citations(reader, path, kinds, disputes, option_rules, rules)
    _check_coverage(reader, path, kinds, options, rules)
    _check_stacking(reader, path, kinds, options)
    _check_kind_limits(reader, path, kinds, options)
    claims_node = tree.entries.get("claims")
    if claims_node is not None and not isinstance(claims_node, Sequence):
        reader.error(claims_node.position, "claims must be a list of claims (see docs/spec-language.md)")
        claims_node = None
    deck_node = tree.entries.get("deck")
    deck_tokens = [token for node in reader.sequence(deck_node, "deck") if (token := reader.text(node, "a deck card")) is not None]
    kinds_removed, kinds_renamed = kind_changes.read_changes(tree)
    if reader.problems:
        raise SpecError(reader.problems)
    spec = Spec(
        name=name,
        title=title,
        path=path,
        sources=sources,
        min_players=min_players,
        max_players=max_players,
        hand_size=hand_size,
        start_side=start_side,
        colours=tuple(colours),
        side_names=side_names,
        matching=matching,
        kinds=kinds,
        options=options,
        option_rules=option_rules,
        rules=rules,
        deck=tuple(token.lower() for token in deck_tokens),
        game=name,
        claims=claims_node,
        disputes=disputes,
        kinds_removed=kinds_removed,
        kinds_renamed=kinds_renamed,
    )
    return _checked_deck(reader, spec, tree, deck_node, deck_tokens)


def _read_header(reader: NodeReader, tree: Mapping) -> tuple[str, str]:
    """``format``, ``name``, ``game`` and ``title``: the spec's name and title."""
    fmt = reader.text(tree.entries.get("format"), "format")
    if fmt is not None and fmt != SPEC_FORMAT:
        reader.error(tree.entries["format"].position, f"format must be '{SPEC_FORMAT}', not '{fmt}'")
    name = reader.name(tree.entries.get("name"), "name") or "?"
    if "game" in tree.entries:
        reader.name(tree.entries.get("game"), "game")
    return name, reader.text(tree.entries.get("title"), "title") or name


def _read_sources(reader: NodeReader, node: Node | None) -> dict[str, Source]:
    sources: dict[str, Source] = {}
    source_node = reader.mapping(node, "sources", "{manual: {title: TITLE, publisher: PUBLISHER}}")
    if source_node:
        for key, entry_node in source_node.entries.items():
            entry = reader.mapping(entry_node, f"source '{key}'", "{title: TITLE, publisher: PUBLISHER}")
            if entry:
                reader.keys(entry, SOURCE_KEYS, {"title", "publisher"}, f"source '{key}'")
                sources[key] = Source(
                    key,
                    reader.text(entry.entries.get("title"), "title") or "",
                    reader.text(entry.entries.get("publisher"), "publisher") or "",
                )
    return sources


def _read_table(reader: NodeReader, node: Node | None, side_names: tuple[str, ...]) -> tuple[int, int, int, int]:
    """``table``: the players (least and most), the hand size and the side a round starts on."""
    table = reader.mapping(node, "table", "{min-players: 2, max-players: 10, hand-size: 7, start-side: light}")
    min_players = max_players = hand_size = 0
    start_side = 0
    if table:
        reader.keys(table, TABLE_KEYS, TABLE_KEYS, "table")
        min_players = reader.number(table.entries.get("min-players"), "min-players", 2) or 2
        max_players = reader.number(table.entries.get("max-players"), "max-players", 2) or 2
        hand_size = reader.number(table.entries.get("hand-size"), "hand-size", 1) or 1
        if min_players > max_players:
            reader.error(table.position, "min-players is more than max-players")
        side_name = reader.text(table.entries.get("start-side"), "start-side")
        if side_name is not None and side_name not in side_names:
            shown = " or ".join(side_names) if side_names else "a side of 'sides'"
            reader.error(table.entries["start-side"].position, f"start-side must be {shown}, not '{side_name}'")
        start_side = side_names.index(side_name) if side_name in side_names else 0
    return min_players, max_players, hand_size, start_side


def _read_matching(reader: NodeReader, node: Node | None) -> Matching:
    matching_node = reader.mapping(node, "matching", "{same-colour: true, same-number: true, same-action-kind: true, wild-always: true}")
    if not matching_node:
        return Matching(True, True, True, True)
    reader.keys(matching_node, set(MATCHING_KEYS), set(MATCHING_KEYS), "matching")
    values = [reader.flag(matching_node.entries.get(key), key) for key in MATCHING_KEYS]
    return Matching(*(bool(value) for value in values))


def _check_citations(
    reader: NodeReader, path: str, kinds: tuple[Kind, ...], disputes: Disputes, option_rules: dict[str, str], rules: tuple[Rule, ...]
) -> None:
    """Every rule a kind, a dispute or an option cites is defined; every option a rule names exists."""
    rule_ids = {rule.id for rule in rules}
    for kind in kinds:
        for rule_id in (kind.rule, kind.start_rule):
            if rule_id and rule_id not in rule_ids:
                reader.error(
                    Position(path),
                    f"kind '{kind.name}' cites rule '{rule_id}', which the spec does not define{did_you_mean(rule_id, rule_ids)}",
                )
    for outcome in (disputes.guilty, disputes.innocent):
        if outcome.rule and outcome.rule not in rule_ids:
            reader.error(Position(path), f"disputes cite rule '{outcome.rule}', which the spec does not define")
    for option, rule_id in option_rules.items():
        if rule_id not in rule_ids:
            reader.error(Position(path), f"option '{option}' cites rule '{rule_id}', which the spec does not define")
    for rule in rules:
        for option in rule.options:
            if option not in OPTIONS:
                reader.error(rule.position, f"rule '{rule.id}' names unknown option '{option}'{did_you_mean(option, OPTIONS)}")


def _check_coverage(reader: NodeReader, path: str, kinds: tuple[Kind, ...], options: dict[str, object], rules: tuple[Rule, ...]) -> None:
    """Exactly one rule governs each check the spec's cards and options can give rise to."""
    covered: Counter[str] = Counter(check for rule in rules for check in rule.checks)
    effects_used = {effect.name for kind in kinds for effect in kind.effects} | {action for kind in kinds for action in kind.at_start}
    arises = {check for check, effect in CHECKS_ONLY_WITH.items() if effect in effects_used}
    arises |= {check for check, option in CHECKS_ONLY_UNDER.items() if options.get(option)}
    needless = (set(CHECKS_ONLY_WITH) | set(CHECKS_ONLY_UNDER)) - arises  # a check arises by its effect or its option
    for check in sorted(CHECKS - set(covered) - needless):
        reader.error(Position(path), f"no rule governs the check '{check}': add it to one rule's checks")
    for check, count in sorted(covered.items()):
        if count > 1:
            reader.error(Position(path), f"the check '{check}' is governed by {count} rules; it needs exactly one")


def _check_stacking(reader: NodeReader, path: str, kinds: tuple[Kind, ...], options: dict[str, object]) -> None:
    """The stacking table names kinds of the spec, each of which gives a penalty to stack on."""
    kind_names = {kind.name for kind in kinds}
    stacking = options.get("stacking", ())
    named: set[str] = set()  # each unknown kind reported once, however often the table names it
    for owed, allowed in stacking:  # type: ignore[attr-defined]
        for kind_name in (owed, *allowed):
            if kind_name not in kind_names and kind_name not in named:
                named.add(kind_name)
                reader.error(Position(path), f"option stacking names unknown kind '{kind_name}'{did_you_mean(kind_name, kind_names)}")
        if owed in kind_names and not any(
            effect.name.startswith("next-player-draws") for kind in kinds if kind.name == owed for effect in kind.effects
        ):
            reader.error(Position(path), f"option stacking: '{owed}' gives no penalty to stack on")


def _check_kind_limits(reader: NodeReader, path: str, kinds: tuple[Kind, ...], options: dict[str, object]) -> None:
    """A switch limited to kinds (``jump-in: [skip]``) names kinds of the spec, none a wild (a wild on top is never
    matched out of turn)."""
    by_name = {kind.name: kind for kind in kinds}
    for name in sorted(OPTION_KIND_LIMITS):
        limited = options.get(name)
        for kind_name in limited if isinstance(limited, tuple) else ():
            kind = by_name.get(kind_name)
            if kind is None:
                reader.error(Position(path), f"option {name} names unknown kind '{kind_name}'{did_you_mean(kind_name, set(by_name))}")
            elif kind.face_class is FaceClass.WILD:
                reader.error(Position(path), f"option {name}: '{kind_name}' is a wild, which nobody may jump in on")


def _checked_deck(reader: NodeReader, spec: Spec, tree: Mapping, deck_node: Node | None, deck_tokens: list[str]) -> Spec:
    """The deck: physical cards of the spec's faces, the rulebook's composition unless ``deck-composition:
    unchecked``, enough cards to deal, and points a log can state."""
    path = spec.path
    catalogue = Catalogue(spec)
    problems: list[tuple[Position, str]] = []
    for node, token in zip(reader.sequence(deck_node, "deck"), deck_tokens, strict=False):
        if catalogue.card(token.lower()) is None:
            problems.append((node.position, f"'{token}' is not a physical card of this spec's faces"))
    composition = reader.text(tree.entries.get("deck-composition"), "deck-composition") or "official"
    if composition not in ("official", "unchecked"):
        problems.append((tree.entries["deck-composition"].position, f"deck-composition is official or unchecked, not '{composition}'"))
    if composition == "unchecked":
        spec = replace_spec(spec, deck_official=False)
    elif not problems:
        for message in catalogue.composition_problems(list(spec.deck)):
            problems.append((deck_node.position if deck_node else Position(path), message))
    if not problems:
        problems.extend(_playability_problems(spec, catalogue, tree, path))
    if problems:
        raise SpecError(problems)
    return spec


# The log format writes numbers with at most six digits (``round``, ``target``, ``scores``).
MAX_LOG_NUMBER = 999_999


def _playability_problems(spec: Spec, catalogue: Catalogue, tree: Mapping, path: str) -> list[tuple[Position, str]]:
    """A spec that loads must be playable, and whatever its games produce must fit the log format."""
    problems: list[tuple[Position, str]] = []
    table = tree.entries.get("table")
    table_position = table.position if table is not None else Position(path)
    needed = spec.max_players * spec.hand_size + 1
    if needed > len(spec.deck):
        problems.append(
            (
                table_position,
                f"{spec.max_players} players with {spec.hand_size} cards each and a start card need {needed} cards; "
                f"the deck has {len(spec.deck)} (lower max-players or hand-size)",
            )
        )
    points: dict[str, int] = {}
    for kind in spec.kinds:
        for side in kind.sides:
            for colour in (None,) if kind.face_class is FaceClass.WILD else spec.colours[side]:
                for number in kind.numbers or (None,):
                    value = kind.points if kind.points is not None else (number or 0)
                    points[face_token(colour, kind.name, number)] = abs(value)
    most = 0
    for token in spec.deck:
        card = catalogue.card(token)
        if card is not None:
            most += max(points.get(face.token, 0) for face in card.faces)
    if most > MAX_LOG_NUMBER:
        kinds = tree.entries.get("kinds")
        problems.append(
            (
                kinds.position if kinds is not None else Position(path),
                f"the points of the deck's cards add up to {most}, more than a log's score ({MAX_LOG_NUMBER}) can state: "
                "lower the kinds' points",
            )
        )
    return problems


def _read_sides(reader: NodeReader, node: Node | None) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """``sides``: one or two named sides, each with its colours. A card has one face per side; a spec with one side
    writes a card as its face. The two sides of version 1, ``light`` and ``dark``, keep that order however written."""
    sides = reader.mapping(node, "sides", "{light: {colours: [red, ...]}, dark: {colours: [pink, ...]}}")
    if not sides:
        return SIDE_NAMES, [(), ()]
    names = tuple(sides.entries)
    if set(names) == set(SIDE_NAMES):
        names = SIDE_NAMES
    if not 1 <= len(names) <= MAX_SIDES:
        reader.error(sides.position, f"a spec has one or two sides, not {len(names)}")
    colours: list[tuple[str, ...]] = []
    seen_colours: set[str] = set()
    for side_name in names:
        if not NAME_FORM.fullmatch(side_name):
            reader.error(sides.keys[side_name], f"a side is named by a lower-case name, not '{escape(side_name)}'")
        side = reader.mapping(sides.entries.get(side_name), f"side '{side_name}'", "{colours: [red, yellow, ...]}")
        side_colours: list[str] = []
        if side:
            reader.keys(side, {"colours"}, {"colours"}, f"side '{side_name}'")
            for colour_node in reader.sequence(side.entries.get("colours"), "colours"):
                colour = reader.name(colour_node, "a colour")
                if colour is None:
                    continue
                if colour in seen_colours:
                    reader.error(colour_node.position, f"colour '{colour}' is named twice")
                seen_colours.add(colour)
                side_colours.append(colour)
            if not side_colours:
                reader.error(side.position, f"side '{side_name}' needs at least one colour")
        colours.append(tuple(side_colours))
    return names, colours


def _read_options(reader: NodeReader, node: Node | None, kinds: tuple[Kind, ...]) -> tuple[dict[str, object], dict[str, str]]:
    options: dict[str, object] = {}
    option_rules: dict[str, str] = {}
    options_node = reader.mapping(node, "options", "{target: {value: 500, rule: game.end}, ...}")
    if not options_node:
        reader.error(node.position if node else Position("?"), "the spec needs its options")
        return options, option_rules
    reader.keys(options_node, OPTIONS, set(REQUIRED_OPTIONS), "options")
    for name, entry_node in options_node.entries.items():
        if name not in OPTIONS:
            continue
        entry = reader.mapping(entry_node, f"option '{name}'", f"{{value: {OPTION_EXAMPLES[name]}, rule: RULE-ID}}")
        if not entry:
            continue
        reader.keys(entry, OPTION_ENTRY_KEYS, OPTION_ENTRY_KEYS, f"option '{name}'")
        option_rules[name] = reader.text(entry.entries.get("rule"), "rule") or ""
        options[name] = _read_option_value(reader, OPTION_WORD[name], entry.entries.get("value"), kinds)
    for name in sorted(OPTION_FLAGS):
        options.setdefault(name, False)  # off unless the spec turns it on: the rulebooks have none of them
    return options, option_rules


def _read_option_value(reader: NodeReader, word: OptionWord, node: Node | None, kinds: tuple[Kind, ...]) -> object:
    """An option's value, read by its domain (``OptionWord``)."""
    name = word.name
    if word.domain is OptionDomain.CHOICE:
        value = reader.text(node, name)
        if value is not None and value not in word.choice_values:
            choices = ", ".join(sorted(word.choice_values))
            reader.error(node.position, f"option {name} is one of {choices}, not '{value}'")  # type: ignore[union-attr]
        return value
    if word.domain is OptionDomain.NUMBER:
        return reader.number(node, name, word.minimum)
    if word.domain is OptionDomain.SWITCH:
        if word.by_kind and isinstance(node, Sequence):
            return tuple(sorted({reader.name(item, "a kind") or "" for item in node.items})) or False
        if word.by_kind and isinstance(node, Mapping):
            reader.error(node.position, f"{name} is true, false or a list of the kinds it is limited to ({name}: {{value: [skip]}})")
            return None
        return reader.flag(node, name)
    if isinstance(node, Scalar) and node.value == STACKING_BY_VALUE:
        return stacking_by_value(kinds)
    return _read_stacking(reader, node)


def _read_stacking(reader: NodeReader, node: Node | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Option stacking: which kinds may be played on a draw penalty not yet drawn, passing it on with their own added.
    A list of kinds means each on its own kind (``[draw-one]``); a mapping names, for the kind of the penalty owed,
    the kinds that may go on it (``{draw-two: [draw-two, wild-draw-four], wild-draw-four: [wild-draw-four]}``)."""
    if isinstance(node, Mapping):
        pairs = []
        for owed, allowed_node in node.entries.items():
            if not NAME_FORM.fullmatch(owed):
                reader.error(node.position, f"stacking must name kinds like 'draw-two', not '{owed}'")
                continue
            allowed = tuple(reader.name(item, "a kind") or "" for item in reader.sequence(allowed_node, f"stacking on {owed}"))
            pairs.append((owed, allowed))
        return tuple(pairs)
    kinds = tuple(reader.name(item, "a kind") or "" for item in reader.sequence(node, "stacking"))
    return tuple((kind, (kind,)) for kind in kinds)


def stacking_by_value(kinds: tuple[Kind, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Option stacking ``by-value`` (Show 'Em No Mercy): on the penalty of any draw card, a draw card of equal or
    higher value (its ``next-player-draws`` count), as the table of kinds the engine and the Z3 model read."""
    values = {
        kind.name: effect.amount
        for kind in kinds
        for effect in kind.effects
        if effect.name == "next-player-draws" and effect.amount is not None and effect.setting("into", "hand") == "hand"
    }
    return tuple(
        (owed, tuple(sorted(kind for kind, value in values.items() if value >= owed_value))) for owed, owed_value in sorted(values.items())
    )


def stacking_text(stacking: object) -> str:
    """Option stacking in words, for summaries: ``draw-two or wild-draw-four on draw-two; ...``, or ``none``."""
    pairs = stacking if isinstance(stacking, tuple) else ()
    return "; ".join(f"{' or '.join(allowed)} on {owed}" for owed, allowed in pairs) or "none"


def _read_disputes(reader: NodeReader, node: Node | None) -> Disputes:
    """The ``disputes`` section; a setting left out keeps its first value (see ``DISPUTE_SETTINGS``)."""
    section = reader.mapping(node, "disputes", DISPUTES_FORM)
    if section is None:
        return DEFAULT_DISPUTES
    reader.keys(section, set(DISPUTE_SETTINGS), set(), "disputes")
    chosen: dict[str, dict[str, str]] = {}
    rule_ids: dict[str, str] = {}
    for name, settings in DISPUTE_SETTINGS.items():
        values = {key: choices[0] for key, choices in settings.items()}
        form = "{" + ", ".join(f"{key}: {choices[0]}" for key, choices in settings.items()) + "}"
        entry = reader.mapping(section.entries.get(name), f"disputes: {name}", form)
        if entry is not None:
            named = {"rule"} if name.startswith("challenge-") else set()
            reader.keys(entry, set(settings) | named, set(), f"disputes: {name}")
            if named and "rule" in entry.entries:
                rule_ids[name] = reader.text(entry.entries["rule"], f"{name} rule") or ""
            for key, choices in settings.items():
                value_node = entry.entries.get(key)
                value = reader.text(value_node, f"{name} {key}")
                if value is None:
                    continue
                if value not in choices:
                    assert value_node is not None
                    reader.error(value_node.position, f"{name} {key} is one of {', '.join(choices)}, not '{value}'")
                    continue
                values[key] = value
        chosen[name] = values
    guilty, innocent = (Outcome(**chosen[name], rule=rule_ids.get(name, "")) for name in ("challenge-guilty", "challenge-innocent"))
    return Disputes(guilty, innocent, chosen["catch"]["draws"])


def _fill_summaries(reader: NodeReader, rules: tuple[Rule, ...], options: dict[str, object]) -> tuple[Rule, ...]:
    """Put the option values in force into summaries: ``{target}`` becomes the spec's target."""
    import dataclasses

    filled = []
    for rule in rules:

        def value(match: re.Match[str], rule: Rule = rule) -> str:
            name = match.group(1)
            if name in OPTIONS and name not in options:  # the option itself has an error, reported already
                return match.group(0)
            if name not in options:
                hint = did_you_mean(name, OPTIONS)
                reader.error(rule.position, f"rule '{rule.id}' summary names '{{{name}}}', which is not an option{hint}")
                return match.group(0)
            shown = options[name]
            if name == "stacking":
                return stacking_text(shown)
            if isinstance(shown, bool):
                return "on" if shown else "off"
            if isinstance(shown, tuple):  # a switch limited to kinds
                return "on for " + ", ".join(shown)
            return str(shown)

        filled.append(dataclasses.replace(rule, summary=PLACEHOLDER.sub(value, rule.summary)))
    return tuple(filled)


def _read_rules(reader: NodeReader, node: Node | None, sources: dict[str, Source]) -> tuple[Rule, ...]:
    rules = []
    seen: dict[str, Position] = {}
    for item in reader.sequence(node, "rules"):
        entry = reader.mapping(item, "a rule", "{id: RULE-ID, summary: ..., source: {key: KEY, section: ...}, checks: []}")
        if not entry:
            continue
        reader.keys(entry, RULE_KEYS, {"id", "summary", "source", "checks"}, "a rule")
        rule_id = reader.text(entry.entries.get("id"), "id") or "?"
        if not re.fullmatch(r"[a-z][a-z0-9-]*(\.[a-z0-9-]+)*", rule_id):
            reader.error(entry.position, f"rule id '{rule_id}' must be dotted lower-case words")
        if rule_id in seen:
            reader.error(entry.position, f"rule id '{rule_id}' is defined twice (first at line {seen[rule_id].line})")
        seen[rule_id] = entry.position
        citation = Citation("", "")
        source = reader.mapping(entry.entries.get("source"), "source", "{key: SOURCE-KEY, section: SECTION}")
        if source:
            reader.keys(source, CITATION_KEYS, CITATION_KEYS, "a rule's source")
            key = reader.text(source.entries.get("key"), "key") or ""
            if key and key not in sources:
                reader.error(
                    source.position,
                    f"rule '{rule_id}' cites unknown source '{key}'{did_you_mean(key, set(sources))} "
                    f"(sources: {', '.join(sorted(sources))})",
                )
            citation = Citation(key, reader.text(source.entries.get("section"), "section") or "")
        ruling = reader.number(entry.entries.get("ruling"), "ruling", 1) if "ruling" in entry.entries else None
        options = tuple(reader.text(o, "an option") or "" for o in reader.sequence(entry.entries.get("options"), "options"))
        checks = []
        for check_node in reader.sequence(entry.entries.get("checks"), "checks"):
            check = reader.text(check_node, "a check")
            if check not in CHECKS:
                reader.error(check_node.position, f"unknown check '{check}'{did_you_mean(check or '', CHECKS)}")
            else:
                checks.append(check)
        rules.append(
            Rule(
                rule_id,
                reader.text(entry.entries.get("summary"), "summary") or "",
                citation,
                ruling,
                options,
                tuple(checks),
                entry.position,
            )
        )
    return tuple(rules)
