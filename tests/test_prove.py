"""`referee prove`: shipped specs are proved, broken specs are refuted with counterexample logs that replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import Engine
from referee.events import Event
from referee.proof import prove
from referee.proof.prove import _snapshot, load_invariants, prove_spec, violation
from referee.replay import Replay
from referee.verdicts import Diagnostic

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_specs"
INVARIANTS = load_invariants()
EXPECTED = {
    "flip-keeps-draw-pile": {"flip.order"},
    "draw-five-into-discard": {"penalty.into-hand"},
    "reshuffle-takes-top": {"discard.has-top"},
    "negative-points": {"score.bounds"},
    "flip-no-chooser": {"colour.of-side"},
    "deck-111": {"cards.conservation", "deck.composition"},
}


def test_invariants_are_declared_with_ids_and_summaries() -> None:
    ids = [invariant.id for invariant in INVARIANTS.invariants]
    assert len(ids) == len(set(ids)) >= 10 and INVARIANTS.cards == 112
    assert all(invariant.summary for invariant in INVARIANTS.invariants)
    assert {gap.ruling for gap in INVARIANTS.gaps} == {16, 17}


@pytest.mark.parametrize("spec", sorted((ROOT / "specs").glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_specs_are_proved(spec: Path) -> None:
    result = prove_spec(spec, INVARIANTS)
    assert {outcome.id: outcome.status for outcome in result["invariants"]} == {i.id: "proved" for i in INVARIANTS.invariants}
    assert all(outcome.players == list(range(2, 11)) for outcome in result["invariants"])
    assert result["gaps"] and all(gap["closed"] and gap["reachable"] and gap["needs_ruling"] for gap in result["gaps"])


def _replay_to_violation(log: Path, spec: Path, invariant_id: str) -> tuple[list[str], bool]:
    found: list[str] = []
    before: list[object] = [None]

    def remember(engine: Engine, event: Event) -> None:
        before[0] = _snapshot(engine) if engine.state.hands else None

    def check(engine: Engine, event: Event, diagnostic: Diagnostic | None) -> None:
        problem = violation(invariant_id, INVARIANTS.cards, before[0], engine, event)  # type: ignore[arg-type]
        if problem:
            found.append(problem)

    replay = Replay(str(log), log.parent, spec, on_event=remember, after_event=check)
    with log.open("rb") as stream:
        verdict = replay.run(stream)
    return found, verdict.valid


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_spec_is_refuted_with_a_replaying_counterexample(name: str, tmp_path: Path) -> None:
    spec = BROKEN / f"{name}.yaml"
    result = prove_spec(spec, INVARIANTS)
    refuted = {outcome.id for outcome in result["invariants"] if outcome.status == "refuted"}
    assert refuted == EXPECTED[name]
    for outcome in result["invariants"]:
        if outcome.status != "refuted":
            continue
        assert outcome.counterexample is not None
        log = tmp_path / f"{outcome.id}.log"
        log.write_text(outcome.counterexample, encoding="utf-8")
        checked = subprocess.run(
            [sys.executable, "-m", "referee", "check", "--spec", str(spec), str(log)], capture_output=True, text=True, timeout=120
        )
        assert checked.returncode == 0, checked.stdout
        violations, valid = _replay_to_violation(log, spec, outcome.id)
        assert valid and violations, f"{outcome.id}: the counterexample does not reach a violating state"


def test_open_gap_is_reported() -> None:
    result = prove_spec(BROKEN / "flip-no-chooser.yaml", INVARIANTS, counterexamples=False)
    gaps = {gap["id"]: gap["closed"] for gap in result["gaps"]}
    assert gaps["gap.flip-uncovers-wild"] is False and gaps["gap.draw-with-nothing-left"] is True


def test_unknown_is_never_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prove, "_answer", lambda check: "unknown")
    prove._CONTEXTS.clear()
    prove._ANSWERS.clear()
    result = prove_spec(ROOT / "specs" / "uno-flip.yaml", INVARIANTS, counterexamples=False)
    assert {outcome.status for outcome in result["invariants"]} == {"unknown"}


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
    assert xml.count("<testcase") == 2 * (len(INVARIANTS.invariants) + len(INVARIANTS.gaps)) and "<failure" in xml


def test_cli_text_and_single_invariant() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "referee", "prove", "--spec", "uno-flip", "--invariant", "turn.valid"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0
    assert "turn.valid" in completed.stdout and "proved" in completed.stdout and "cards.conservation" not in completed.stdout
    bad = subprocess.run([sys.executable, "-m", "referee", "prove", "--invariant", "no.such"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
