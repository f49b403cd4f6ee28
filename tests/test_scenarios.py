"""Every scenario under scenarios/ through the real CLI: its golden report and its author's inline expectations."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from referee.spec import model as spec_model

from helpers import run_referee
from scenario_tools import SCENARIOS, inline_expectations, run_check, scenario_logs

LOGS = scenario_logs()


def _id(log: Path) -> str:
    return str(log.relative_to(SCENARIOS))


def test_there_are_scenarios_for_every_code_and_ruling() -> None:
    from referee.verdicts import ERROR_CODES, WARNING_CODES

    expected_codes: set[str] = set()
    for log in LOGS:
        errors, warnings = inline_expectations(log)
        expected_codes.update(code for _, code in errors + warnings)
    assert set(ERROR_CODES) | set(WARNING_CODES) <= expected_codes
    rulings = {int(log.name[1:3]) for log in (SCENARIOS / "rulings").glob("r*.log")}
    assert set(spec_model.rulings()) <= rulings


@functools.cache
def _folder_reports(folder: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    """One real ``referee check --format json`` over every scenario of a folder, from that folder (a process per log
    cost the quick tier 20 s): each log's entry, by name."""
    names = sorted(path.name for path in folder.glob("*.log"))
    completed = run_referee("check", "--format", "json", *names, cwd=folder, text=True, timeout=300)
    assert completed.returncode in (0, 1), completed.stderr
    return {entry["path"]: entry for entry in json.loads(completed.stdout)["files"]}


@pytest.mark.parametrize("log", LOGS, ids=_id)
def test_scenario(log: Path) -> None:
    report = {"files": [_folder_reports(log.parent)[log.name]]}
    expected = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
    assert report == expected, (
        "report differs from the golden file; if the change is deliberate, run tests/regenerate_scenarios.py and review"
    )
    (verdict,) = report["files"]
    assert "input_error" not in verdict
    if "games" in log.parts:  # whole games: scenarios/games and scenarios/classic/games
        assert verdict["valid"] and verdict["game_winner"] is not None
        assert len(verdict["rounds"]) >= 2 and all(result["finished"] for result in verdict["rounds"])
        assert max(verdict["rounds"][-1]["totals"].values()) >= 500
        return
    errors, warnings = inline_expectations(log)
    assert [(e["line"], e["code"]) for e in verdict["errors"]] == errors
    assert [(w["line"], w["code"]) for w in verdict["warnings"]] == warnings


@pytest.mark.parametrize("name", ["codes/illegal-play.log", "rulings/r04-start-number.log", "classic/illegal-play.log"])
def test_a_scenario_alone_exits_by_its_verdict(name: str) -> None:
    """Each scenario checked alone, as a user runs it: exit 0 when valid, 1 when not, and the golden report."""
    log = SCENARIOS / name
    code, report = run_check(log)
    assert report == json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
    assert code == (0 if report["files"][0]["valid"] else 1)


@pytest.mark.parametrize("pair", ["stacking", "dealer-chooses", "short-draw-five", "short-target", "lowest-score"])
def test_house_rules_change_the_verdict(pair: str) -> None:
    _, official = run_check(SCENARIOS / "house" / f"{pair}-official.log")
    _, house = run_check(SCENARIOS / "house" / f"{pair}-house.log")
    assert official["files"][0]["errors"] != house["files"][0]["errors"]


def test_every_family_of_public_inconsistency_has_a_scenario() -> None:
    """The design page's list of what makes a public record inconsistent, one scenario (at least) each."""
    names = {log.stem for log in (SCENARIOS / "public").glob("*.log")}
    families = {
        "overplayed-face",
        "innocent-then-colour",
        "guilty-on-last-card",
        "shown-count",
        "shown-face-gone",
        "drawn-card-unavailable",
    }
    assert families <= names
    for name in families:
        errors, _ = inline_expectations(SCENARIOS / "public" / f"{name}.log")
        assert [code for _, code in errors] == ["inconsistent"]


def test_complete_games_in_both_modes() -> None:
    games = sorted((SCENARIOS / "games").glob("*.log"))
    modes = {"full": 0, "observed": 0}
    for game in games:
        text = game.read_text(encoding="utf-8")
        modes["full" if "\nshuffle " in text else "observed"] += 1
    assert modes["full"] >= 3 and modes["observed"] >= 3


def test_classic_uno_has_a_scenario_for_every_code_and_ruling_that_can_arise() -> None:
    """Classic UNO (scenarios/classic/, `spec uno`): every diagnostic code but ambiguous-card (identical cards are one
    card), the house rules' codes (scenarios/house-rules/) and the 2018 deck's (scenarios/uno-2018/), and every ruling
    but 10 and 16 (there is no Flip)."""
    from referee.verdicts import EDITION_ERROR_CODES, ERROR_CODES, HOUSE_ERROR_CODES, PUBLIC_ERROR_CODES, WARNING_CODES

    classic = [log for log in LOGS if "classic" in log.parts]
    assert all("\nspec uno\n" in log.read_text(encoding="utf-8") for log in classic)
    expected_codes: set[str] = set()
    for log in classic:
        errors, warnings = inline_expectations(log)
        expected_codes.update(code for _, code in errors + warnings)
    assert (set(ERROR_CODES) | set(WARNING_CODES)) - {
        "ambiguous-card",
        *HOUSE_ERROR_CODES,
        *PUBLIC_ERROR_CODES,
        *EDITION_ERROR_CODES,
    } <= expected_codes
    rulings = {int(log.name[1:3]) for log in (SCENARIOS / "classic").glob("r*.log")}
    assert set(range(1, 26)) - {10, 16} <= rulings
