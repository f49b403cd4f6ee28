"""The spec language as a JSON Schema (draft 2020-12), for editors and CI: ``referee schema`` prints it.

Generated from the vocabulary the loader reads (``referee.spec.vocabulary`` and the claim forms), so the two cannot drift:
every key, effect, start action, check, option and setting is taken from the same constants. The schema checks a
spec file's structure as written (keys, types, names from the vocabulary); what needs more than one place at a
time (a rule a kind cites, a check governed twice, effects that cannot be combined) is the loader's alone. A spec
with ``extends`` states only what it changes, so its sections' required keys are not required there.
"""

from __future__ import annotations

import json
from typing import Any

from referee.spec.vocabulary import (
    CHECKS,
    CITATION_KEYS,
    CLAIM_FORMS,
    CLAIM_KEYS,
    DISPUTE_SETTINGS,
    EFFECT_SETTINGS,
    EFFECTS_PLAIN,
    EFFECTS_WITH_AMOUNT,
    KIND_KEYS,
    MATCHING_KEYS,
    NAME_FORM,
    NUMBER_FORM,
    NUMBERS_KEYS,
    OPTION_WORD,
    OPTIONS,
    REQUIRED_OPTIONS,
    RULE_KEYS,
    SOURCE_KEYS,
    SPEC_FORMAT,
    STACKING_BY_VALUE,
    START_ACTIONS,
    TABLE_KEYS,
    TOP_KEYS,
    OptionDomain,
    OptionWord,
)

SCHEMA_ID = "https://referee.invalid/schema/referee-spec-1.json"  # an identifier, not a place to fetch it from
FULL_SPEC_KEYS = ("format", "name", "sides", "kinds", "rules", "deck", "table", "matching")  # what a spec without extends needs

Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def _closed(properties: dict[str, Schema], required: tuple[str, ...] | list[str] = (), what: str = "") -> Schema:
    """An object of these keys only (an unknown or misspelt key is an error, as the loader's)."""
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = sorted(required)
    if what:
        schema["description"] = what
    return schema


def _choice(values: frozenset[str] | tuple[str, ...]) -> Schema:
    return {"enum": sorted(values)}


def _list_of(item: Schema) -> Schema:
    return {"type": "array", "items": item}


def _definitions() -> dict[str, Schema]:
    """The parts a spec is made of, each once."""
    number = {
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 999_999}, {"type": "string", "pattern": f"^(?:{NUMBER_FORM.pattern})$"}]
    }
    return {
        "name": {"type": "string", "pattern": f"^{NAME_FORM.pattern}$", "description": "a lower-case name: red, draw-two"},
        "text": {"type": ["string", "number", "boolean"], "description": "a single value"},
        "number": {**number, "description": "a whole number from 0"},
        "signed": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^-?(?:0|[1-9][0-9]{0,5})$"}]},
        "flag": {"anyOf": [{"type": "boolean"}, {"enum": ["true", "false"]}]},
        "source": _closed({key: _ref("text") for key in sorted(SOURCE_KEYS)}, ("title", "publisher"), "a source the rules cite"),
        "citation": _closed({key: _ref("text") for key in sorted(CITATION_KEYS)}, tuple(CITATION_KEYS), "a rule's source"),
        "side": _closed({"colours": _list_of(_ref("name"))}, ("colours",), "a side: its colours"),
        "effect": _effect(),
        "kind": _kind(),
        "rule": _rule(),
        "claim": _claim(),
    }


def _rule() -> Schema:
    properties = {
        "id": _ref("text"),
        "summary": _ref("text"),
        "source": _ref("citation"),
        "ruling": _ref("number"),
        "options": _list_of(_choice(OPTIONS)),
        "checks": _list_of(_choice(CHECKS)),
    }
    assert set(properties) == RULE_KEYS  # the vocabulary and the schema name the same keys
    return _closed(properties, ("id", "summary", "source", "checks"), "a rule: its id, summary, citation and the checks it governs")


def _effect() -> Schema:
    """A plain effect, one with an amount (``{skip: 1}``), or one with settings (``{flip: {draw-pile: keep}}``)."""
    forms: list[Schema] = [_choice(EFFECTS_PLAIN)]
    for name in sorted(EFFECTS_WITH_AMOUNT | frozenset(EFFECT_SETTINGS)):
        values: list[Schema] = [_ref("number")] if name in EFFECTS_WITH_AMOUNT else []
        if name in EFFECT_SETTINGS:
            settings = {key: _choice(choices) for key, choices in EFFECT_SETTINGS[name].items()}
            if name in EFFECTS_WITH_AMOUNT:
                settings["count"] = _ref("number")
            values.append(_closed(settings, ("count",) if name in EFFECTS_WITH_AMOUNT else ()))
        value = values[0] if len(values) == 1 else {"anyOf": values}
        forms.append(_closed({name: value}, (name,)))
    return {"anyOf": forms, "description": "an effect: a name, or one name with an amount or settings"}


def _kind(required: tuple[str, ...] = ("class", "sides", "copies", "points", "rule", "start-rule", "at-start")) -> Schema:
    copies = {"anyOf": [_ref("number"), {"type": "object", "additionalProperties": _ref("number")}]}
    properties: dict[str, Schema] = {
        "class": _choice(("number", "action", "wild")),
        "sides": _list_of(_ref("name")),
        "numbers": _closed({key: _ref("number") for key in sorted(NUMBERS_KEYS)}, tuple(NUMBERS_KEYS)),
        "copies": copies,
        "points": {"anyOf": [_ref("signed"), {"const": "face-value"}]},
        "effects": _list_of(_ref("effect")),
        "at-start": _list_of(_choice(START_ACTIONS)),
        "rule": _ref("text"),
        "start-rule": _ref("text"),
        "spellings": _list_of(_ref("name")),
    }
    assert set(properties) == KIND_KEYS  # the vocabulary and the schema name the same keys
    return _closed(properties, required, "a kind of face")


def _claim() -> Schema:
    """A claim: its id, statement and source, and exactly one form (the form's figures are the prover's to read);
    or a rulebook claim withdrawn, ``{id: ..., withdrawn: REASON}``."""
    properties: Schema = {key: {"type": "object"} for key in CLAIM_FORMS}
    properties.update(
        {"id": _ref("text"), "statement": _ref("text"), "source": _ref("citation"), "if": {"type": "object"}, "withdrawn": _ref("text")}
    )
    properties["option"] = {"type": "object", "propertyNames": _choice(OPTIONS), "minProperties": 1, "maxProperties": 1}
    assert set(properties) == CLAIM_KEYS  # the vocabulary and the schema name the same keys
    stated = _closed(properties, ("id", "statement", "source"))
    stated["oneOf"] = [{"required": [form]} for form in CLAIM_FORMS]
    withdrawn = _closed({"id": _ref("text"), "withdrawn": _ref("text")}, ("id", "withdrawn"))
    return {"anyOf": [stated, withdrawn], "description": "a claim of the rulebook, restated or withdrawn"}


def _option_value(word: OptionWord) -> Schema:
    """An option's value by its domain (``OptionWord``)."""
    if word.domain is OptionDomain.CHOICE:
        return _choice(word.choice_values)
    if word.domain is OptionDomain.NUMBER:
        return _ref("number")
    if word.domain is OptionDomain.SWITCH:
        return {"anyOf": [_ref("flag"), _list_of(_ref("name"))]} if word.by_kind else _ref("flag")
    stack_table = {"type": "object", "additionalProperties": _list_of(_ref("name"))}
    return {"anyOf": [_list_of(_ref("name")), stack_table, {"const": STACKING_BY_VALUE}]}


def _sections(partial: bool) -> dict[str, Schema]:
    """The top-level keys; ``partial``: as a spec with ``extends`` writes them (only what it changes)."""

    def needs(keys: tuple[str, ...] | frozenset[str] | list[str]) -> tuple[str, ...]:
        return () if partial else tuple(keys)

    options = {
        name: _closed(
            {"value": _option_value(OPTION_WORD[name]), "rule": _ref("text")},
            needs(("value", "rule") if OPTION_WORD[name].required else ("value",)),
        )
        for name in sorted(OPTIONS)  # a house switch may leave out its rule: the loader adds the shipped one
    }
    disputes = {
        name: _closed({**{key: _choice(choices) for key, choices in settings.items()}, "rule": _ref("text")})
        for name, settings in DISPUTE_SETTINGS.items()
    }
    kind = _ref("kind") if not partial else _kind(required=())  # a house spec may change one key of a kind
    sections: dict[str, Schema] = {
        "format": {"const": SPEC_FORMAT},
        "name": _ref("name"),
        "game": _ref("name"),
        "title": _ref("text"),
        "extends": {"type": "string", "description": "the spec this one changes: a shipped name or a file beside it"},
        "sources": {"type": "object", "additionalProperties": _ref("source")},
        "table": _closed(
            {**{key: _ref("number") for key in ("min-players", "max-players", "hand-size")}, "start-side": _ref("name")},
            needs(TABLE_KEYS),
        ),
        "sides": {"type": "object", "propertyNames": _ref("name"), "additionalProperties": _ref("side"), "minProperties": 1},
        "matching": _closed({key: _ref("flag") for key in MATCHING_KEYS}, needs(MATCHING_KEYS)),
        "kinds": {"type": "object", "propertyNames": _ref("name"), "additionalProperties": kind},
        "options": _closed(options, needs(REQUIRED_OPTIONS)),
        "disputes": _closed(disputes),
        "rules": _list_of(_ref("rule")),
        "deck": _list_of(_ref("text")),
        "deck-composition": _choice(("official", "unchecked")),
        "claims": _list_of(_ref("claim")),
        "kinds-removed": _list_of(_ref("name")),
        "kinds-renamed": {"type": "object", "propertyNames": _ref("name"), "additionalProperties": _ref("name")},
    }
    assert set(sections) == TOP_KEYS  # the vocabulary and the schema name the same keys
    if not partial:  # only a spec that extends another removes or renames the kinds it inherits
        del sections["kinds-removed"], sections["kinds-renamed"]
    return sections


def spec_schema() -> Schema:
    """The JSON Schema of a spec file (``referee-spec/1``)."""
    whole = _closed(_sections(partial=False), FULL_SPEC_KEYS)
    house = _closed(_sections(partial=True), ("format", "name", "extends"))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "referee spec (referee-spec/1)",
        "description": "A game's rules as data for the referee (docs/spec-language.md). Generated by 'referee schema'.",
        "if": {"type": "object", "required": ["extends"]},
        "then": house,
        "else": whole,
        "$defs": _definitions(),
    }


def schema_text() -> str:
    """The schema as ``referee schema`` prints it and the package ships it: stable, sorted, one trailing newline."""
    return json.dumps(spec_schema(), indent=2, sort_keys=True) + "\n"
