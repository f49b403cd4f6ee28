"""Issue 27: every verdict as the contract says (shown hands judged at their line, explain agreeing with check on
public rounds, names first, output in line order) and proofs without false alarms (an empty stacking entry, the
source of the value a refutation compares with)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.checking.explain import explain, render_text
from referee.checking.report import render_file_text
from referee.commands.cli import execute as run
from referee.spec.paths import shipped_spec_path

from helpers import check_text, write_spec

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SHOWN = SCENARIOS / "public" / "shown-count.log"


def _shown_log(shows: str) -> str:
    """The scenario shown-count.log with its last line (Ann's hand, one card) replaced."""
    lines = SHOWN.read_text(encoding="utf-8").rstrip("\n").split("\n")
    return "\n".join(lines[:-1] + [shows]) + "\n"


@pytest.mark.parametrize(("shows", "count"), [("shows Ann", 0), ("shows Ann green-1 green-2", 2), ("shows Ann red-1 red-2 red-3", 3)])
def test_a_shown_hand_of_the_wrong_size_is_inconsistent_at_its_own_line(shows: str, count: int) -> None:
    """Point 1: also as the log's last line, with the count in the message and the lines that fix it as reasons."""
    verdict = check_text(_shown_log(shows))
    assert [(error.line, error.code) for error in verdict.errors] == [(23, "inconsistent")]
    error = verdict.errors[0]
    assert error.message == f"Ann holds 1 card (dealt 7, drew 0, played 6); {count} shown"
    assert [line for line, _ in error.reasons] == [6, 9, 11, 13, 15, 17, 20]
    assert error.reasons[0] == (6, "Ann's hand dealt: 7 cards")
    assert verdict.consistency == "inconsistent"


def test_a_shown_hand_of_the_right_size_is_consistent() -> None:
    verdict = check_text(_shown_log("shows Ann green-4"))
    assert verdict.valid and verdict.consistency == "consistent"


def test_the_count_of_a_hand_that_drew_and_swapped_is_told() -> None:
    """A hand's story counts its draws, and follows a hand to whoever holds it after a swap (seven swaps)."""
    text = (SCENARIOS / "public" / "shown-count-flip.log").read_text(encoding="utf-8")
    verdict = check_text(text)
    assert verdict.errors[0].message == "Gus holds 2 cards (dealt 7, drew 20, played 25); 1 shown"
    assert any("Gus draws" in says for _, says in verdict.errors[0].reasons)


def test_the_reasons_of_a_shown_count_are_in_the_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "shown.log"
    log.write_text(_shown_log("shows Ann"), encoding="utf-8")
    assert run(["check", "--format", "json", str(log)]) == 1
    (error,) = json.loads(capsys.readouterr().out)["files"][0]["errors"]
    assert error["reasons"][0] == {"line": 6, "says": "Ann's hand dealt: 7 cards"} and len(error["reasons"]) == 7


@pytest.mark.parametrize("name", ["innocent-then-colour", "overplayed-face", "shown-count", "drawn-card-unavailable"])
def test_explain_on_a_public_round_says_what_check_says(name: str) -> None:
    """Point 3: the line check finds inconsistent is not legal for explain, with the same code and rule; the line
    before it is legal and the log is not wrong before it."""
    log = SCENARIOS / "public" / f"{name}.log"
    verdict = check_text(log.read_text(encoding="utf-8"))
    error = verdict.errors[0]
    result = explain(log, error.line)
    assert result.log_error is None and result.rule is not None
    assert (result.legal, result.code, result.rule["id"]) == (False, error.code, error.rule)
    assert result.message == error.message
    text = "\n".join(render_text(result))
    assert f"not legal: inconsistent [{error.rule}]" in text


def test_a_hypothetical_move_in_a_public_round_is_judged_for_consistency() -> None:
    """A fourth red-7 in classic UNO (two in the deck) cannot be played, whoever's hand it comes from."""
    log = SCENARIOS / "public" / "overplayed-face.log"
    assert explain(log, 10, move="Bob plays red-7").code == "inconsistent"
    assert explain(log, 10, move="Bob plays red-2").legal is True


@pytest.mark.parametrize(
    ("spec", "lines", "line"),
    [
        # after a 7 only the swap may come: a swap with nobody is a name first
        (
            "uno-seven-zero",
            "hand Ann red-7 red-0 red-5 blue-3 green-4 yellow-9 red-draw-two\n"
            "hand Bob red-2 blue-5 green-7 yellow-4 red-skip blue-draw-two wild-draw-four\n"
            "hand Cat red-3 blue-7 green-1 yellow-2 red-5 wild red-draw-two\nstart red-9\nAnn plays red-7\n{bad}\n",
            10,
        ),
        # after a Wild Draw Four turned up: only another start line may come
        (
            "uno",
            "hand Ann red-7 red-0 red-5 blue-3 green-4 yellow-9 red-draw-two\n"
            "hand Bob red-2 blue-5 green-7 yellow-4 red-skip blue-draw-two wild-draw-four\n"
            "hand Cat red-3 blue-7 green-1 yellow-2 red-5 wild red-draw-two\nstart wild-draw-four\n{bad}\n",
            9,
        ),
    ],
)
@pytest.mark.parametrize("bad", ["Ann swaps Zed", "Zed swaps Ann", "Zed plays red-5", "Ann catches Zed", "Zed calls uno", "Zed scores 3"])
def test_a_name_that_is_not_a_player_is_unknown_player_first(spec: str, lines: str, line: int, bad: str) -> None:
    """Point 4: on every line, whatever else the state allows or forbids."""
    text = f"players Ann Bob Cat\nspec {spec}\nround 1\ndealer Cat\n" + lines.format(bad=bad)
    verdict = check_text(text)
    assert [(error.line, error.code) for error in verdict.errors] == [(line, "unknown-player")]


def test_a_name_after_the_game_ended_is_unknown_player() -> None:
    log = (SCENARIOS / "classic" / "games").glob("*.log")
    text = sorted(log)[0].read_text(encoding="utf-8")
    assert check_text(text).valid
    assert [error.code for error in check_text(text + "Zed calls uno\n").errors] == ["unknown-player"]
    assert [error.code for error in check_text(text + "Bob calls uno\n").errors] != ["unknown-player"]


def test_findings_are_printed_in_line_order() -> None:
    """Point 5: a warning at line 108 comes before the error at line 191 (the text, and the CI formats' order)."""
    from referee.checking.ci_report import from_verdict

    log = SCENARIOS / "public" / "shown-count-flip.log"
    verdict = check_text(log.read_text(encoding="utf-8"))
    lines = render_file_text(verdict)
    assert [line.split(":")[1] for line in lines] == ["108", "191"]
    assert [finding.line for finding in from_verdict(verdict).findings] == [108, 191]


def _house_spec(tmp_path: Path, stacking: str) -> Path:
    text = shipped_spec_path("uno-flip-party").read_text(encoding="utf-8")
    old = "value: {draw-one: [draw-one, wild-draw-two], wild-draw-two: [wild-draw-two], draw-five: [draw-five]}"
    assert old in text
    spec = tmp_path / "party.yaml"
    spec.write_text(text.replace(old, f"value: {stacking}"), encoding="utf-8")
    return spec


def test_an_empty_stacking_entry_is_a_missing_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point 6: house-rules.md's 'nothing on a Wild Draw Color' spelt out as an empty list proves as the shipped spec."""
    stacking = "{draw-one: [draw-one, wild-draw-two], wild-draw-two: [wild-draw-two], draw-five: [draw-five], wild-draw-color: []}"
    spec = _house_spec(tmp_path, stacking)
    assert run(["prove", "--spec", str(spec), "--invariant", "option.stacking", "--no-cache"]) == 0
    assert "option.stacking              proved" in capsys.readouterr().out


def test_a_refutation_names_whose_value_it_compares_with(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point 7: the house spec's own restated claim is not 'the rulebook's'."""
    spec = _house_spec(tmp_path, "{draw-one: [draw-one]}")
    assert run(["prove", "--spec", str(spec), "--invariant", "option.stacking", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "the rulebook's" not in out
    assert f"the spec's own claim's ({spec}:" in out and "    the spec: House rules that real tables play" in out
    plain = write_spec(tmp_path, "plain", "extends: uno\noptions:\n  uno-catch-penalty: {value: 4}\n")
    assert run(["prove", "--spec", str(plain), "--invariant", "option.uno-catch-penalty", "--no-cache"]) == 1
    assert "the rulebook's is 2 (a house spec restates this claim)" in capsys.readouterr().out
