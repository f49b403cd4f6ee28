"""Issue 32, point 3: the JSON Schema of the spec language (``referee schema``) and the loader cannot drift. Every
shipped spec validates; each structural mistake the loader names is also rejected by the schema; the schema shipped
in the package is the one the command prints."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from referee.commands.cli import execute as run
from referee.errors import SpecError
from referee.proof import claims
from referee.rules.compiler import load_rules
from referee.spec.schema import CLAIM_FORMS, CLAIM_KEYS, schema_text, spec_schema

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(path for path in (ROOT / "specs").glob("*.y*ml") if path.name not in ("invariants.yml", "rulings.yml", "house-switches.yml"))
VALIDATOR = jsonschema.Draft202012Validator(spec_schema())


def _json(node: Any) -> Any:
    """A YAML document as an editor's language server hands it to the schema: mapping keys are strings."""
    if isinstance(node, dict):
        return {str(key): _json(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_json(value) for value in node]
    return node


def _problems(document: dict[str, Any]) -> list[str]:
    return [f"{list(error.absolute_path)}: {error.message}" for error in VALIDATOR.iter_errors(_json(document))]


def test_the_schema_is_a_valid_draft_2020_12_schema_and_the_shipped_copy_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema.Draft202012Validator.check_schema(spec_schema())
    shipped = (ROOT / "referee" / "spec" / "spec.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(), "regenerate it: referee schema > referee/spec/spec.schema.json"
    assert run(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == spec_schema()


def test_the_claim_vocabulary_is_the_prover_s() -> None:
    assert CLAIM_FORMS == claims.FORMS and set(claims.FORMS_BY_NAME) == set(CLAIM_FORMS)  # each form the schema names is defined
    assert set(CLAIM_FORMS) < set(CLAIM_KEYS)  # a claim's form is one of its keys


@pytest.mark.parametrize("path", SPECS, ids=lambda path: path.name)
def test_every_shipped_spec_validates(path: Path) -> None:
    assert _problems(yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mistake: the value at ``path`` (keys joined by '/', list indexes as numbers) replaced or added."""

    def mistake(document: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return mistake


def _rename(path: str, new: str) -> Callable[[dict[str, Any]], None]:
    """A mistake: the key at ``path`` misspelt as ``new``."""

    def mistake(document: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[new] = node.pop(last)

    return mistake


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def mistake(document: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[int(last) if isinstance(node, list) else last]

    return mistake


MISTAKES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    # name: (the spec it is made in, the mistake)
    "an unknown top-level key": ("uno", _set("colour", "red")),
    "a misspelt top-level key": ("uno", _rename("matching", "matchng")),
    "a misspelt option": ("uno", _rename("options/target", "targett")),
    "a missing required option": ("uno", _drop("options/reshuffle")),
    "an option choice not in the vocabulary": ("uno", _set("options/reshuffle/value", "keep-bottom")),
    "an option number that is a word": ("uno", _set("options/target/value", "five hundred")),
    "an option entry with an unknown key": ("uno", _set("options/target/default", 500)),
    "a house switch that is not a flag": ("uno", _set("options/jump-in", {"value": "sometimes"})),
    "a wrong format": ("uno", _set("format", "referee-spec/2")),
    "a name that is not lower case": ("uno", _set("name", "Classic UNO")),
    "a table that is a list": ("uno", _set("table", [2, 10, 7])),
    "a hand size that is a word": ("uno", _set("table/hand-size", "seven")),
    "a misspelt table key": ("uno", _rename("table/hand-size", "hand_size")),
    "matching that is not a flag": ("uno", _set("matching/same-colour", "sometimes")),
    "kinds that are a list": ("uno", _set("kinds", ["number"])),
    "a misspelt kind key": ("uno", _rename("kinds/skip/copies", "copys")),
    "a class not in the vocabulary": ("uno", _set("kinds/skip/class", "numbr")),
    "an unknown effect": ("uno", _set("kinds/skip/effects", [{"skipp": 1}])),
    "an unknown plain effect": ("uno", _set("kinds/reverse/effects", ["reverse-twice"])),
    "an effect setting not in the vocabulary": ("uno-flip", _set("kinds/flip/effects", [{"flip": {"draw-pile": "shuffle"}}])),
    "an unknown start action": ("uno", _set("kinds/skip/at-start", ["skip-dealer"])),
    "a kind without its class": ("uno", _drop("kinds/skip/class")),
    "rules that are a mapping": ("uno", _set("rules", {"log.syntax": "x"})),
    "a rule without its summary": ("uno", _drop("rules/0/summary")),
    "a misspelt rule key": ("uno", _rename("rules/0/checks", "check")),
    "an unknown check": ("uno", _set("rules/0/checks", ["syntax", "spelling"])),
    "a rule naming an unknown option": ("uno", _set("rules/1/options", ["targett"])),
    "a citation with an unknown key": ("uno", _set("rules/0/source/page", 3)),
    "a source without its publisher": ("uno", _drop("sources/classic/publisher")),
    "a dispute setting not in the vocabulary": ("uno", _set("disputes/catch/draws", "everyone")),
    "an unknown dispute": ("uno", _set("disputes/bluff", {"draws": "player"})),
    "a deck composition not in the vocabulary": ("uno", _set("deck-composition", "custom")),
    "claims that are a mapping": ("house-stacking", _set("claims", {"id": "x"})),
    "a claim with an unknown key": ("house-stacking", _set("claims/0/figure", 2)),
    "a claim without a form": ("house-stacking", _drop("claims/0/option")),
    "a claim with two forms": ("house-stacking", _set("claims/1/option", {"stacking": ["draw-one"]})),
    "a claim of an unknown option": ("house-stacking", _set("claims/0/option", {"stackng": ["draw-one"]})),
    "a misspelt option in a house spec": ("house-stacking", _rename("options/stacking", "stackin")),
    "a misspelt top-level key in a house spec": ("house-stacking", _rename("claims", "claim")),
    "a misspelt kind key in a house spec": ("house-stacking", _set("kinds", {"draw-one": {"point": 30}})),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_structural_mistake_is_refused_by_the_loader_and_by_the_schema(mistake: str, tmp_path: Path) -> None:
    spec, make = MISTAKES[mistake]
    document = copy.deepcopy(yaml.safe_load((ROOT / "specs" / f"{spec}.yaml").read_text(encoding="utf-8")))
    make(document)
    path = tmp_path / "mistaken.yaml"
    if "extends" in document:
        document["extends"] = str(ROOT / "specs" / f"{document['extends']}.yaml")
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    with pytest.raises(SpecError):  # the spec's loader, then the prover's reader of its claims
        claims.game_claims(load_rules(path, roots=(ROOT / "specs",)))
    assert _problems(document), f"the schema accepts {mistake}"
