"""`referee explain`, `referee rules` and `referee adjudicate` against expected outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scenario_tools import (
    EXPLAIN_CASES,
    SCENARIOS,
    dispute_expectations,
    dispute_logs,
    explain_golden,
    run_adjudicate,
    run_cli,
    run_explain,
)

RULE_IDS = {rule["id"] for rule in json.loads(run_cli("rules", "--format", "json", cwd=SCENARIOS)[1])["rules"]}


@pytest.mark.parametrize("log", dispute_logs(), ids=lambda log: log.name)
def test_dispute_scenario(log: Path) -> None:
    code, report = run_adjudicate(log)
    assert report == json.loads(log.with_suffix(".adjudicate.json").read_text(encoding="utf-8"))
    (result,) = report["files"]
    rulings, pending = dispute_expectations(log)
    assert [(d["line"], d["ruling"]) for d in result["disputes"]] == rulings
    assert [item["kind"] for item in result["pending"]] == pending
    for dispute in result["disputes"]:
        assert dispute["rule"] in RULE_IDS
        if dispute["ruling"] in ("guilty", "innocent", "valid"):
            assert dispute["penalty"] is not None
        last_line = len(log.read_text(encoding="utf-8").rstrip("\n").split("\n"))
        if dispute["ruling"] != "invalid" and dispute["line"] < last_line and "pending" not in log.name:
            assert dispute["applied"] is True
    for item in result["pending"]:
        assert item["rule"] in RULE_IDS and item["who"]
        full_mode = "full" in log.name
        for outcome in item["outcomes"]:
            assert (outcome["cards_drawn"] is not None) == full_mode
    assert code == (1 if any(d["applied"] is False for d in result["disputes"]) or result["log_error"] is not None else 0)


def test_guilty_evidence_and_innocent_costs() -> None:
    _, report = run_adjudicate(SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log")
    (dispute,) = report["files"][0]["disputes"]
    assert dispute["evidence"] == ["red-2/orange-reverse", "red-skip/wild"]
    assert dispute["penalty"] == {"player": "Bob", "cards": 2, "until_colour": None, "extra": 0, "loses_turn": False, "then": "Ann"}
    _, report = run_adjudicate(SCENARIOS / "disputes" / "challenge-innocent-wild-draw-color.log")
    (dispute,) = report["files"][0]["disputes"]
    assert dispute["penalty"] == {"player": "Ann", "cards": None, "until_colour": "teal", "extra": 2, "loses_turn": True, "then": "Bob"}


def test_pending_names_the_exact_cards_in_full_mode() -> None:
    _, report = run_adjudicate(SCENARIOS / "disputes" / "pending-wild-draw-two-full.log")
    (item,) = report["files"][0]["pending"]
    challenged, not_challenged = item["outcomes"]
    assert challenged["ruling"] == "guilty" and challenged["penalty"]["player"] == "Bob"
    assert challenged["cards_drawn"] == not_challenged["cards_drawn"] == ["yellow-1/wild", "yellow-2/teal-8"]
    assert not_challenged["penalty"]["player"] == "Ann" and not_challenged["penalty"]["loses_turn"] is True


def test_a_log_that_applies_a_catch_wrongly() -> None:
    text = (SCENARIOS / "disputes" / "catch-after-call.log").read_text(encoding="utf-8") + "Ann draws yellow-1/wild yellow-2/teal-8\n"
    path = SCENARIOS / "disputes" / "catch-after-call.log"
    tmp = path.with_name("tmp-wrongly-applied.txt")
    try:
        tmp.write_text(text, encoding="utf-8")
        code, out = run_cli("adjudicate", "--format", "json", tmp.name, cwd=tmp.parent)
    finally:
        tmp.unlink()
    (result,) = json.loads(out)["files"]
    assert result["disputes"][0]["ruling"] == "invalid" and result["disputes"][0]["applied"] is False
    assert code == 1


@pytest.mark.parametrize("index", range(len(EXPLAIN_CASES)))
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_explain_golden(index: int, output_format: str) -> None:
    log, line, extra = EXPLAIN_CASES[index]
    code, out = run_explain(log, line, extra, output_format)
    assert out == explain_golden(index, output_format).read_text(encoding="utf-8")
    if output_format == "json":
        result = json.loads(out)
        assert result["rule"]["id"] in RULE_IDS
        assert code == (0 if result["legal"] else 1)


def test_explain_illegal_play_lists_alternatives_and_reasons() -> None:
    _, out = run_explain("rulings/r11-matching.log", "17", (), "json")
    result = json.loads(out)
    assert result["legal"] is False and result["code"] == "illegal-play" and result["rule"]["id"] == "play.match"
    assert result["rule"]["source"].startswith("UNO Flip! instruction sheet, the official rules (Mattel)")
    assert result["rule"]["ruling"]["number"] == 11 and result["rule"]["ruling"]["text"]
    playable = {card["showing"] for card in result["hand"] if card["playable"]}
    assert playable == {"red-1", "red-7", "red-draw-one"}
    assert "Ann plays red-1/pink-3" in result["alternatives"]
    assert result["state"]["top_card"]["face"] == "red-skip" and result["state"]["colour_in_play"] == "red"


def test_explain_bad_line_arguments() -> None:
    code, _ = run_cli("explain", "r11-matching.log", cwd=SCENARIOS / "rulings")
    assert code == 2
    code, _ = run_cli("explain", "r11-matching.log:9", "--move", "Ann jumps", cwd=SCENARIOS / "rulings")
    assert code == 2


def test_rules_lists_and_shows() -> None:
    code, out = run_cli("rules", cwd=SCENARIOS)
    assert code == 0 and len(out.strip().split("\n")) == len(RULE_IDS)
    code, out = run_cli("rules", "penalty.no-stacking", "--spec", "house-stacking", cwd=SCENARIOS)
    assert code == 0 and 'option stacking: {"draw-one": ["draw-one"], "draw-five": ["draw-five"]}' in out
    code, _ = run_cli("rules", "play.matchh", cwd=SCENARIOS)
    assert code == 2


@pytest.mark.parametrize("command", ["explain", "adjudicate", "rules"])
def test_help_has_examples(command: str) -> None:
    code, out = run_cli(command, "--help", cwd=SCENARIOS)
    assert code == 0 and "Examples:" in out


def test_explain_a_move_before_the_deal() -> None:
    code, out = run_cli("explain", "r04-start-number.log:3", "--move", "Ann plays red-1", "--format", "json", cwd=SCENARIOS / "rulings")
    result = json.loads(out)
    assert code == 1 and result["legal"] is False and result["code"] == "out-of-turn"
    assert "not dealt" in result["message"]


def test_explain_around_a_guilty_challenge_says_why_and_who_must_act(tmp_path: Path) -> None:
    """Issue 43 item 6: a wrong drawer after a guilty challenge is told the challenge's rule, and who must act."""
    lines = (SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log").read_text(encoding="utf-8").splitlines()[:10]
    log = tmp_path / "wrong-drawer.log"
    log.write_text("\n".join([*lines, "Ann draws yellow-1/wild yellow-2/teal-8"]) + "\n", encoding="utf-8")
    code, out = run_explain(str(log), "11", (), "text")
    assert code == 1
    assert "Ann's turn, once Bob has acted" in out and "penalty: Bob owes 2 cards, under rule challenge.guilty" in out
    assert "  the penalty owed [challenge.guilty]: " in out
    assert "allowed instead: nothing for Ann: Bob must act first (Bob draws CARD" in out
    _, data = run_explain(str(log), "11", (), "json")
    result = json.loads(data)
    assert result["penalty_rule"]["id"] == "challenge.guilty" and result["must_act"]["player"] == "Bob"
    assert result["state"]["acting"] == "Bob" and result["state"]["penalties"][0]["rule"] == "challenge.guilty"


@pytest.mark.parametrize(
    ("log", "keep", "move", "moved_by"),
    [
        (SCENARIOS / "disputes" / "challenge-innocent-wild-draw-two.log", 11, "Ann plays red-5", "challenge.innocent"),
        (SCENARIOS / "rulings" / "r11-matching.log", 16, "Cat plays red-3", "card.skip"),
        (SCENARIOS / "rulings" / "r11-matching.log", 13, "Cat plays red-3", "card.reverse"),
    ],
)
def test_explain_out_of_turn_says_what_gave_the_turn(tmp_path: Path, log: Path, keep: int, move: str, moved_by: str) -> None:
    """Issue 43 item 6: a line out of turn after a ruling or a Skip cites what gave the turn, not only the seating."""
    lines = log.read_text(encoding="utf-8").splitlines()[:keep]
    wrong = tmp_path / "out-of-turn.log"
    wrong.write_text("\n".join([*lines, move]) + "\n", encoding="utf-8")
    code, out = run_explain(str(wrong), str(keep + 1), (), "text")
    assert code == 1 and "not legal: out-of-turn [turn.order]" in out
    assert f"'s turn [{moved_by}]: " in out
    _, data = run_explain(str(wrong), str(keep + 1), (), "json")
    assert json.loads(data)["turn_rule"]["id"] == moved_by


def test_explain_out_of_turn_in_plain_order_cites_only_the_order(tmp_path: Path) -> None:
    """After a plain number card the seating order alone gave the turn: no 'why it is' line."""
    lines = (SCENARIOS / "rulings" / "r11-matching.log").read_text(encoding="utf-8").splitlines()[:9]
    wrong = tmp_path / "plain.log"
    wrong.write_text("\n".join([*lines, "Cat plays red-3"]) + "\n", encoding="utf-8")
    code, out = run_explain(str(wrong), "10", (), "text")
    assert code == 1 and "out-of-turn" in out and "why it is" not in out
