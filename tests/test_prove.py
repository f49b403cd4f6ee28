"""`referee prove`: shipped specs are proved, broken specs are refuted with counterexample logs that replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from referee.proof import queries
from referee.proof.invariants import load_invariants
from referee.proof.prove import prove_spec
from referee.rules.compiler import load_rules

from helpers import run_referee

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_specs"
INVARIANTS = load_invariants()


def test_invariants_are_declared_with_ids_and_summaries() -> None:
    ids = [invariant.id for invariant in INVARIANTS.invariants]
    assert len(ids) == len(set(ids)) >= 7
    from referee.proof.prove import deck_size
    from referee.rules.compiler import load_rules

    specs = ROOT / "specs"
    assert deck_size(load_rules(specs / "uno-flip.yaml"), INVARIANTS) == 112  # the rulebook's deck, from the claims
    assert deck_size(load_rules(specs / "uno.yaml"), INVARIANTS) == 108
    assert all(invariant.summary for invariant in INVARIANTS.invariants)
    assert {gap.ruling for gap in INVARIANTS.gaps} == {16}


@pytest.mark.parametrize(
    "spec",
    [
        spec if spec.stem == "uno" else pytest.param(spec, marks=pytest.mark.slow)  # .ci/run proves them all too
        for spec in sorted((ROOT / "specs").glob("*.yaml"))
    ],
    ids=lambda p: p.stem,
)
def test_shipped_specs_are_proved(spec: Path) -> None:
    result = prove_spec(spec, INVARIANTS)
    assert {outcome.id: outcome.status for outcome in result.invariants} == {i.id: "proved" for i in INVARIANTS.invariants}
    assert all(outcome.players == list(range(2, 11)) for outcome in result.invariants)
    assert result.gaps and all(gap.closed for gap in result.gaps)
    has_flip = any(face.flip for face in load_rules(spec).faces.values())
    assert all(gap.reachable == gap.needs_ruling == has_flip for gap in result.gaps)  # classic UNO has no Flip


def test_open_gap_is_reported() -> None:
    """The official spec's gap is closed (test_shipped_specs_are_proved); a spec without its ruling leaves it open."""
    from referee.proof.gaps import gaps

    found = gaps(load_rules(BROKEN / "flip-no-chooser.yaml"), INVARIANTS.gaps)
    assert {gap.id: (gap.closed, gap.needs_ruling, gap.reachable) for gap in found} == {"gap.flip-uncovers-wild": (False, True, True)}


@pytest.mark.slow
def test_unknown_is_never_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *assumptions: z3.unknown)  # every question, in every module
    queries.CONTEXTS.clear()
    queries.ANSWERS.clear()
    result = prove_spec(ROOT / "specs" / "uno-flip.yaml", INVARIANTS, counterexamples=False)
    finite = {"faces.playable"}  # answered by enumeration, not by the solver
    assert {outcome.status for outcome in result.invariants if outcome.id not in finite} == {"unknown"}
    symbolic_forms = ("play.", "start.", "table.hand-size", "challenge.", "uno.catch")
    symbolic = [o for o in result.claims if o.id.startswith(symbolic_forms) and o.id != "play.matching"]
    assert symbolic and {o.status for o in symbolic} == {"unknown"}


def test_cli_json_junit_and_exit_codes(tmp_path: Path) -> None:
    junit = tmp_path / "proofs.xml"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "prove",
            "--spec",
            str(BROKEN / "negative-points.yaml"),
            "--spec",
            "uno-flip",
            "--format",
            "json",
            "--junit",
            str(junit),
            "--players",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 1
    report = json.loads(completed.stdout)
    broken, official = report["specs"]
    statuses = {i["id"]: i["status"] for i in broken["invariants"]}
    assert statuses["score.bounds"] == "refuted" and statuses["cards.conservation"] == "proved"
    assert all(i["players"] == [3] and isinstance(i["seconds"], float) for i in official["invariants"])
    assert all(i["status"] == "proved" and i["counterexample"] is None for i in official["invariants"])
    assert {g["id"] for g in official["gaps"]} and all(g["closed"] for g in official["gaps"])
    xml = junit.read_text(encoding="utf-8")
    cases = sum(len(spec["invariants"]) + len(spec["claims"]) + len(spec["gaps"]) for spec in report["specs"])
    assert xml.count("<testcase") == cases and "<failure" in xml


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_cli_text_and_single_invariant() -> None:
    completed = run_referee("prove", "--spec", "uno-flip", "--invariant", "discard.has-top", text=True, timeout=300)
    assert completed.returncode == 0
    assert "discard.has-top" in completed.stdout and "proved" in completed.stdout and "cards.conservation" not in completed.stdout
    bad = run_referee("prove", "--invariant", "no.such", text=True, timeout=60)
    assert bad.returncode == 2


def _changed(value: object) -> object:
    """Another value of the same kind: what a spec could say instead."""
    if isinstance(value, bool):
        return not value
    if value is None:  # an optional limit (jump_in_kinds: None is every kind)
        return frozenset({"other"})
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "-other"
    if isinstance(value, frozenset):
        return value ^ {"other"}  # of the same type: a compiled record checks it
    if isinstance(value, tuple):
        return value[:-1]
    if isinstance(value, dict):  # option stacking's table
        return {**value, "other": frozenset({"other"})}
    raise AssertionError(f"no other value for {value!r}")


def test_the_model_fingerprint_changes_with_everything_the_model_reads() -> None:
    """Specs with equal fingerprints share one model and its answers; a read the fingerprint misses would let a spec
    be proved on another spec's transitions. Every attribute of the rules, the spec and a face that the model's
    source reads is changed in turn, and the fingerprint must change with it."""
    import dataclasses
    import re

    from referee.proof.model import Model
    from referee.spec.model import replace_spec

    source = (ROOT / "referee" / "proof" / "model.py").read_text(encoding="utf-8")
    rules = load_rules(ROOT / "specs" / "uno-flip.yaml")
    base = Model.fingerprint(rules)
    read_of_rules = set(re.findall(r"(?<![.\w])rules\.(\w+)\b(?!\.)", source)) - {"faces", "spec", "deck_counts"}
    read_of_spec = set(re.findall(r"(?<![.\w])rules\.spec\.(\w+)", source)) | set(re.findall(r"(?<![.\w])spec\.(\w+)", source))
    read_of_faces = set(re.findall(r"\bface_rules\.(\w+)\b(?!\()", source)) | set(re.findall(r"\bf\.(\w+)\b", source))
    read_of_faces -= {"face", "gives_penalty"}  # the face itself (side and class are read); a property of draw counts
    assert {"catch_penalty", "innocent_extra"} <= read_of_rules and {"disputes", "colours"} <= read_of_spec
    assert {"challengeable", "stackable", "draw"} <= read_of_faces
    missed = []
    for name in sorted(read_of_rules):
        if name == "deck":
            changed = dataclasses.replace(rules, deck=rules.deck[:-1])
        else:
            changed = dataclasses.replace(rules, **{name: _changed(getattr(rules, name))})
        if Model.fingerprint(changed) == base:
            missed.append(f"rules.{name}")
    for name in sorted(read_of_spec - {"disputes"}):
        if (
            Model.fingerprint(dataclasses.replace(rules, spec=replace_spec(rules.spec, **{name: _changed(getattr(rules.spec, name))})))
            == base
        ):
            missed.append(f"spec.{name}")
    disputes = rules.spec.disputes
    other = dataclasses.replace(disputes, catch_draws="caught" if disputes.catcher_draws else "catcher")
    if Model.fingerprint(dataclasses.replace(rules, spec=replace_spec(rules.spec, disputes=other))) == base:
        missed.append("spec.disputes")
    face, face_rules = next((face, fr) for face, fr in rules.faces.items() if fr.challengeable)
    for name in sorted(read_of_faces):
        faces = dict(rules.faces)
        faces[face] = dataclasses.replace(face_rules, **{name: _changed(getattr(face_rules, name))})
        if Model.fingerprint(dataclasses.replace(rules, faces=faces)) == base:
            missed.append(f"face.{name}")
    assert not missed, missed
