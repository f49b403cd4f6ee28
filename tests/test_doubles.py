"""The house rule doubles (option ``doubles``, ruling 29, specs/house-doubles.yaml): identical number cards played
together on one ``plays`` line, on the player's own turn, acting once; in the library, the moves, every mode and the
environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

from helpers import run_referee, write_spec

HEADER = """players Ann Bob Cat
spec {spec}
round 1
dealer Cat
hand Ann red-5 red-5 red-7 red-7 blue-3 green-4 red-skip
hand Bob red-2 blue-5 green-7 yellow-4 red-skip blue-draw-two wild-draw-four
hand Cat red-3 blue-7 green-1 yellow-2 red-0 wild red-draw-two
start red-9
"""


def _game(*lines: str, spec: str = "house-doubles", path: Path | None = None) -> referee.Game:
    return referee.Game.from_log(HEADER.format(spec=spec) + "".join(line + "\n" for line in lines), spec=path)


def test_legal_moves_list_every_pair_and_the_pair_plays_as_one_move() -> None:
    game = _game()
    moves = {str(move) for move in game.legal_moves()}
    assert {"Ann plays red-5 red-5", "Ann plays red-7 red-7", "Ann plays red-5", "Ann plays red-skip"} <= moves
    assert not any(move.startswith("Ann plays red-skip ") for move in moves)  # an action card is played alone
    move = game.parse("Ann plays red-7 red-7")
    assert move.card == "red-7" and move.also == ("red-7",) and str(move) == "Ann plays red-7 red-7"
    game.push(move)
    assert game.turn == "Bob" and len(game.hand("Ann")) == 5 and str(game.top) == "red-7"
    assert str(game.pop()) == "Ann plays red-7 red-7" and len(game.hand("Ann")) == 7


def test_the_official_rules_have_no_doubles_and_a_library_move_of_two_cards_is_refused() -> None:
    official = _game(spec="uno")
    assert not any(move.also for move in official.legal_moves())
    two_cards = _game().parse("Ann plays red-5 red-5")  # as a game under doubles reads the line
    verdict = official.is_legal(two_cards)
    assert verdict.code == "illegal-play" and verdict.rule == "play.match" and "a play is one card" in (verdict.message or "")
    with pytest.raises(ValueError, match="not a colour"):
        official.parse("Ann plays red-5 red-5")


AFTER_DRAW = ("Ann draws blue-1", "Ann passes", "Bob plays red-2", "Cat plays red-3", "Ann draws red-1", "Ann plays red-1 red-1")


@pytest.mark.parametrize(
    ("lines", "code", "rule"),
    [
        (("Ann plays red-5 red-7",), "illegal-play", "house.doubles"),  # not identical
        (("Ann plays red-5 red-5 red-5",), "card-not-in-hand", "play.in-hand"),  # two held, not three
        (("Ann plays red-skip red-skip",), "illegal-play", "house.doubles"),  # an action card, and one held
        (AFTER_DRAW, "illegal-play", "house.doubles"),  # only the card drawn, alone
        (("Ann plays red-5 red-5 blue",), "bad-colour", "wild.colour"),
    ],
)
def test_a_play_of_several_cards_that_breaks_the_rule_is_refused_at_its_line(lines: tuple[str, ...], code: str, rule: str) -> None:
    game = _game(*lines[:-1])
    verdict = game.is_legal(game.parse(lines[-1]))
    assert (verdict.code, verdict.rule) == (code, rule), verdict.message


TWO = """players Ann Bob
spec house-doubles
round 1
dealer Bob
hand Ann {ann}
hand Bob red-2 green-7 blue-4 yellow-4 green-9 red-9 green-1
start red-9
"""


def test_a_pair_to_one_card_opens_the_uno_window_and_a_pair_of_the_last_cards_wins_without_uno() -> None:
    to_one = TWO.format(ann="red-5 red-5 red-7 red-7 blue-7 blue-7 green-4") + (
        "Ann plays red-5 red-5\nBob plays red-2\nAnn plays red-7 red-7\nBob plays green-7\nAnn plays blue-7 blue-7\n"
        "Bob plays blue-4\nAnn plays green-4\n"
    )
    report = referee.check(to_one)
    assert report.valid and [(warning.line, warning.code) for warning in report.warnings] == [(12, "uncaught-uno")]
    out = TWO.format(ann="red-5 red-5 red-7 red-7 green-4 blue-7 blue-7") + (
        "Ann plays red-5 red-5\nBob plays red-2\nAnn plays red-7 red-7\nBob plays green-7\nAnn plays green-4\n"
        "Bob plays blue-4\nAnn plays blue-7 blue-7\n"
    )
    report = referee.check(out)
    assert report.valid and report.warnings == [] and report.to_json()["rounds"][0]["winner"] == "Ann"


def test_simulated_full_games_under_doubles_have_pairs_and_check_valid(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    simulate = ("simulate", "--spec", "house-doubles", "--players", "3", "--games", "3", "--target", "100", "--out", str(folder))
    run_referee(*simulate, timeout=300)
    text = "".join(log.read_text(encoding="utf-8") for log in sorted(folder.glob("*.log")))
    assert any(_is_pair(line) for line in text.splitlines())
    report = json.loads(run_referee("check", "--format", "json", str(folder), text=True, timeout=120).stdout)
    assert all(entry["valid"] for entry in report["files"])


def _is_pair(line: str) -> bool:
    """A line ``P plays CARD CARD``: its fourth word is a card, not a colour."""
    words = line.split()
    return len(words) == 4 and words[1] == "plays" and "-" in words[3]


@pytest.mark.parametrize("mode", ["observed", "public"])
def test_simulated_games_under_doubles_check_valid_in_every_mode(mode: str, tmp_path: Path) -> None:
    folder = tmp_path / mode
    run_referee("simulate", "--spec", "house-doubles", "--mode", mode, "--players", "4", "--games", "2", "--out", str(folder), timeout=300)
    text = "".join(log.read_text(encoding="utf-8") for log in sorted(folder.glob("*.log")))
    assert any(_is_pair(line) for line in text.splitlines()), "no play of two cards in the simulated games"
    checked = run_referee("check", str(folder), text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout


def test_a_pair_of_sevens_swaps_once_under_seven_swaps(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "doubles-seven", "extends: uno-seven-zero\noptions:\n  doubles: {value: true}\n")
    game = _game("Ann plays red-7 red-7", path=spec)
    assert {str(move) for move in game.legal_moves()} >= {"Ann swaps Bob", "Ann swaps Cat"}
    game.push("Ann swaps Cat")
    assert game.turn == "Bob" and len(game.hand("Cat")) == 5 and len(game.hand("Ann")) == 7


def test_a_public_round_counts_each_card_of_a_pair_from_the_hidden_hand(tmp_path: Path) -> None:
    log = tmp_path / "public.log"
    header = "players Ann Bob\nspec house-doubles\nround 1\ndealer Bob\npublic\nstart red-9\n"
    log.write_text(header + "Ann plays red-5 red-5\nBob plays red-2\nAnn plays red-5\n", encoding="utf-8")
    report = json.loads(run_referee("check", "--format", "json", str(log), text=True, timeout=60).stdout)["files"][0]
    assert [(error["line"], error["code"]) for error in report["errors"]] == [(9, "inconsistent")]  # a third red-5
    projected = referee.Game.from_log(HEADER.format(spec="house-doubles") + "Ann plays red-5 red-5\n").log(mode="public")
    assert "Ann plays red-5 red-5\n" in projected


def test_explain_cites_the_house_rule_for_a_pair_and_its_alternatives_list_the_pairs(tmp_path: Path) -> None:
    log = tmp_path / "pair.log"
    log.write_text(HEADER.format(spec="house-doubles") + "Ann plays red-5 red-5\n", encoding="utf-8")
    text = run_referee("explain", f"{log}:9", text=True, timeout=60).stdout
    assert "legal [house.doubles]" in text
    wrong = tmp_path / "wrong.log"
    wrong.write_text(HEADER.format(spec="house-doubles") + "Ann plays red-5 red-7\n", encoding="utf-8")
    text = run_referee("explain", f"{wrong}:9", text=True, timeout=60).stdout
    assert "not legal: illegal-play [house.doubles]" in text and "Ann plays red-5 red-5" in text
