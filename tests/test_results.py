"""explain, adjudicate and prove return typed results (dataclasses with ``to_json``), as ``check`` returns a FileVerdict;
the JSON each writes is ``to_json`` of the result, key for key and in order (docs/json.md)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.checking.adjudicate import Adjudication, adjudicate
from referee.checking.explain import Explanation, JumpIn, explain
from referee.proof.gaps import GapResult
from referee.proof.invariants import load_invariants
from referee.proof.prove import ProofResult, SpecProof, prove_spec
from referee.verdicts import LogError

from helpers import run_referee

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def _cli_json(*args: str) -> dict:
    completed = run_referee(*args, text=True, timeout=300)
    return json.loads(completed.stdout)


def test_explain_returns_an_explanation_whose_json_is_the_command_s() -> None:
    log = SCENARIOS / "codes" / "illegal-play.log"
    result = explain(log, 7)
    assert isinstance(result, Explanation) and result.legal is False and result.code == "illegal-play"
    assert result.log_error is None and result.rule is not None and result.alternatives
    assert list(result.to_json()) == list(_cli_json("explain", "--format", "json", f"{log}:7"))
    assert result.to_json() == _cli_json("explain", "--format", "json", f"{log}:7")


def test_an_explanation_of_a_line_after_an_error_carries_a_log_error_record(tmp_path: Path) -> None:
    log = tmp_path / "after.log"
    log.write_text((SCENARIOS / "codes" / "illegal-play.log").read_text(encoding="utf-8") + "Bob plays red-2/orange-reverse\n")
    result = explain(log, 8)
    assert isinstance(result.log_error, LogError) and result.log_error.line == 7 and result.log_error.code == "illegal-play"
    assert result.to_json()["log_error"] == {"line": 7, "code": "illegal-play", "message": result.log_error.message, "rule": "play.match"}


def test_a_jump_in_is_a_record_too() -> None:
    jump = JumpIn("red-5", "Ann", "Cat")
    assert jump.to_json() == {"matched": "red-5", "played_by": "Ann", "turn_of": "Cat"}


def test_adjudicate_returns_an_adjudication_whose_json_is_the_command_s() -> None:
    log = SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log"
    result = adjudicate(log)
    assert isinstance(result, Adjudication) and result.disputes and result.input_error is None
    assert result.disputes[0].ruling == "guilty" and not result.findings
    (from_cli,) = _cli_json("adjudicate", "--format", "json", str(log))["files"]
    assert list(result.to_json()) == list(from_cli) and result.to_json() == from_cli


def test_prove_returns_a_spec_proof_with_typed_results_and_gaps() -> None:
    result = prove_spec(ROOT / "specs" / "uno.yaml", load_invariants(), players=(2,), counterexamples=False)
    assert isinstance(result, SpecProof) and result.name == "uno" and result.claims_file is True
    assert all(isinstance(outcome, ProofResult) for outcome in result.results) and len(result.results) == len(result.invariants) + len(
        result.claims
    )
    assert all(isinstance(gap, GapResult) for gap in result.gaps)
    assert all(list(gap.to_json()) == ["id", "ruling", "closed", "needs_ruling", "reachable", "summary"] for gap in result.gaps)
