"""What a user meets first: the loader doing what the docs promise (house switches in the short form), errors that
teach (did-you-mean, where a count belongs, what is left of a replaced rule), --version and completion, and the
folders simulate and play write checking from anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.commands.cli import execute as run

from helpers import REFEREE, check_text, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
BOTS = ROOT / "examples" / "bots"


@pytest.mark.parametrize("switch", ["seven-swaps", "zero-rotates", "jump-in", "draw-until-playable"])
def test_a_house_switch_in_the_short_form_cites_the_shipped_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str], switch: str) -> None:
    """Point 10: {value: true} alone, as docs/spec-language.md says a house spec may write it."""
    spec = write_spec(tmp_path, "short", f"extends: uno\noptions:\n  {switch}: {{value: true}}\n")
    assert run(["rules", "--spec", str(spec), f"house.{switch}", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"house.{switch}: House rule - ")
    assert "source: House rules that real tables play (the referee's design page)" in out
    assert f"option {switch}: true" in out


def test_a_short_form_switch_proves_once_declared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "seven", "extends: uno\noptions:\n  seven-swaps: {value: true}\n")
    assert run(["prove", "--spec", str(spec), "--declare", "--no-cache", "--players", "3"]) == 1
    block = "\n".join(line for line in capsys.readouterr().out.splitlines() if not line.startswith("#"))
    assert "option: {seven-swaps: true}" in block
    spec.write_text(spec.read_text(encoding="utf-8") + block + "\n", encoding="utf-8")
    assert run(["prove", "--spec", str(spec), "--no-cache", "--players", "3"]) == 0


def test_a_short_form_switch_keeps_a_rule_the_spec_defines_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = (
        "extends: uno\noptions:\n  jump-in: {value: true}\nrules:\n  - id: house.jump-in\n    summary: Our own words.\n"
        "    source: {key: classic, section: Rulings (playing)}\n    options: [jump-in]\n    checks: [jump-in]\n"
    )
    spec = write_spec(tmp_path, "own", body)
    assert run(["rules", "--spec", str(spec), "house.jump-in", "--no-cache"]) == 0
    assert capsys.readouterr().out.startswith("house.jump-in: Our own words.")


def test_an_unknown_stacking_kind_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "typo", "extends: uno\noptions:\n  stacking: {value: [draw-too]}\n")
    assert run(["rules", "--spec", str(spec), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("unknown kind 'draw-too'") == 1 and "(did you mean 'draw-two'?)" in err


def test_a_rule_replaced_without_its_checks_says_which_check_is_left(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = (
        "extends: uno\nrules:\n  - id: penalty.no-stacking\n    summary: No stacking.\n"
        "    source: {key: classic, section: Rulings (playing)}\n    checks: []\n"
    )
    assert run(["rules", "--spec", str(write_spec(tmp_path, "bare", body)), "--no-cache"]) == 2
    assert "no rule governs the check 'penalty-owed': add it to one rule's checks" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["prove", "--spec", "uno", "--invariant", "play.skp"], "no invariant or claim 'play.skp' (did you mean 'play.skip'?)"),
        (["prove", "--spec", "uno", "--claim", "play.skp"], "claims: 'referee rules --claims --spec SPEC'"),
        (["check", "--spec", "uno-flp", "x.log"], "no spec 'uno-flp' (did you mean 'uno-flip'?)"),
        (["rules", "--claims", "--spec", "uno", "play.skp"], "spec uno has no claim 'play.skp' (did you mean 'play.skip'?)"),
    ],
)
def test_errors_that_teach(capsys: pytest.CaptureFixture[str], arguments: list[str], says: str) -> None:
    assert run(arguments) == 2
    assert says in capsys.readouterr().err


def test_an_unknown_source_key_lists_the_known_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = (
        "extends: uno\nrules:\n  - id: penalty.no-stacking\n    summary: x.\n"
        "    source: {key: clasic, section: Rulings}\n    checks: [penalty-owed]\n"
    )
    assert run(["rules", "--spec", str(write_spec(tmp_path, "src", body)), "--no-cache"]) == 2
    assert "cites unknown source 'clasic' (did you mean 'classic'?) (sources: classic, log-format, rulings)" in capsys.readouterr().err


def test_the_claims_of_a_spec_can_be_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "--claims", "--spec", "uno-progressive"]) == 0
    out = capsys.readouterr().out
    assert "play.skip " in out and "stack.draw-two" in out and "(restated by the spec)" in out
    assert run(["rules", "--claims", "--spec", "uno", "--format", "json", "uno.catch"]) == 0
    (claim,) = json.loads(capsys.readouterr().out)["claims"]
    assert claim["form"] == "catch" and claim["figures"] == {"draws": "caught", "cards": 2} and claim["withdrawn"] is None


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("player Ann Bob", "unknown line 'player' (did you mean 'players'?)"),
        ("players Ann Bob\nrond 1", "unknown line 'rond' (did you mean 'round'?)"),
        ("players Ann Bob\nAnn plsys red-1", "unknown verb 'plsys' (did you mean 'plays'?)"),
        ("players Ann Bob\nAnn says uno", "unknown verb 'says' (did you mean 'calls'?)"),  # not 'swaps' (issue 43 item 6)
        ("players Ann Bob\nAnn takes red-1", "unknown verb 'takes' (did you mean 'draws'?)"),
    ],
)
def test_a_mistyped_keyword_gets_did_you_mean(line: str, says: str) -> None:
    verdict = check_text(line + "\n")
    assert verdict.errors[0].code == "syntax" and says in verdict.errors[0].message


@pytest.mark.parametrize("game", ["codes", "classic"])
def test_a_count_outside_a_public_round_says_where_counts_belong(game: str) -> None:
    """In UNO Flip a count is not a physical card (syntax); in classic UNO not a face (unknown-card): both say why."""
    text = (SCENARIOS / game / "illegal-play.log").read_text(encoding="utf-8").rstrip("\n").rsplit("\n", 1)[0]
    verdict = check_text(text + "\nAnn draws 6\n")
    assert "a count of cards ('draws 6') is written only in a public round" in verdict.errors[0].message


def test_a_one_card_shuffle_says_so_in_good_english() -> None:
    verdict = check_text("players Ann Bob\nspec uno\nround 1\ndealer Ann\nshuffle red-1\n")
    message = verdict.errors[0].message
    assert message.startswith("the shuffle is not the deck (1 card; missing blue-0, blue-1,") and message.endswith("and 95 more)")


def test_explain_before_any_deal_says_no_hand_is_dealt(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["explain", str(SCENARIOS / "codes" / "illegal-play.log") + ":1"]) == 0
    assert "  hands: none dealt yet; draw pile 0, discard pile 0" in capsys.readouterr().out


def test_a_ruling_about_card_values_speaks_of_the_spec_s_own_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "--spec", "uno", "score.values"]) == 0
    out = capsys.readouterr().out
    assert "Wild and Wild Draw Four 50" in out and "Draw Five" not in out
    assert run(["rules", "--spec", "uno-flip", "score.values"]) == 0
    assert "Wild Draw Color 60" in capsys.readouterr().out


def test_version_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["-V"]) == 0
    assert capsys.readouterr().out.startswith("referee, version ")


def _complete(words: str, cwd: Path) -> list[str]:
    environment = {**os.environ, "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1), "_REFEREE_COMPLETE": "bash_complete"}
    done = subprocess.run([*REFEREE], cwd=cwd, env=environment, capture_output=True, text=True, timeout=60)
    return done.stdout.split()


@pytest.mark.slow  # two interpreters started: the behaviour, not the speed, is what the quick tier needs
def test_bash_completion_completes_files_and_spec_names() -> None:
    """Point 13: 'referee check cod<TAB>' hands file names to the shell; '--spec uno-f<TAB>' offers the shipped names."""
    assert _complete("referee check cod", SCENARIOS) == ["file,cod"]
    assert _complete("referee check --spec uno-f", SCENARIOS) == ["file,uno-f", "plain,uno-flip", "plain,uno-flip-party"]


def test_simulate_and_play_write_a_folder_that_checks_from_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point 12: a spec file (extending another of its folder) is copied beside the games; the logs name the copy."""
    house = tmp_path / "house" / "sub"
    house.mkdir(parents=True)
    write_spec(house, "base", "extends: uno\noptions:\n  target: {value: 100}\n")
    top = write_spec(house, "top", "extends: base.yaml\n")
    games = tmp_path / "games"
    assert run(["simulate", "--spec", str(top), "--players", "3", "--games", "2", "--out", str(games)]) == 0
    assert sorted(path.name for path in (games / "specs").iterdir()) == ["base.yaml", "top.yaml"]
    match = tmp_path / "match"
    bot = f"{sys.executable} {BOTS / 'random_bot.py'}"
    assert run(["play", "--spec", str(top), "--games", "1", "--out", str(match), bot, bot]) == 0
    capsys.readouterr()
    for folder in (games, match):
        moved = tmp_path / "elsewhere" / folder.name
        moved.parent.mkdir(exist_ok=True)
        folder.rename(moved)
        assert "\nspec specs/top.yaml\n" in next(moved.glob("game-*.log")).read_text(encoding="utf-8")
        assert run(["check", str(moved)]) == 0, capsys.readouterr()


def test_a_bot_that_cannot_start_is_an_error_before_the_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point 13 (and issue 28, point 5): a missing script is exit 2 with what the bot said, not a match it loses."""
    bot = f"{sys.executable} {BOTS / 'random_bot.py'}"
    code = run(["play", "--games", "1", "--out", str(tmp_path / "m"), f"{sys.executable} {tmp_path / 'missing.py'}", bot])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: bot missing could not start: ") and "exited with status 2 before its first answer" in err
    assert "can't open file" in err and err.count("\n") == 1
    assert not (tmp_path / "m" / "results.json").exists()
