"""The house rules of docs/log-format.md ("House rules") through the library and the commands: the moves listed,
the messages written from the spec's own outcomes under every ``disputes`` setting, and the library's game."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import referee
from referee.spec.vocabulary import DISPUTE_SETTINGS

from helpers import run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "scenarios" / "house-rules"
HEADER = """players Ann Bob Cat
spec {spec}
round 1
dealer Cat
hand Ann red-7 red-0 red-5 blue-3 green-4 yellow-9 red-draw-two
hand Bob red-2 blue-5 green-7 yellow-4 red-skip blue-draw-two wild-draw-four
hand Cat red-3 blue-7 green-1 yellow-2 red-5 wild red-draw-two
start red-9
"""


def _game(spec: str, *lines: str) -> referee.Game:
    return referee.Game.from_log(HEADER.format(spec=spec) + "".join(line + "\n" for line in lines))


def test_legal_moves_list_a_jump_in_for_every_player_who_may_make_one() -> None:
    game = _game("uno-jump-in", "Ann plays red-5")
    moves = {str(move) for move in game.legal_moves()}
    assert "Cat plays red-5" in moves  # Cat's twin of the top card, out of turn
    assert "Bob plays red-2" in moves and "Cat plays red-3" not in moves  # Cat's other cards wait for her turn
    official = _game("uno", "Ann plays red-5")
    assert "Cat plays red-5" not in {str(move) for move in official.legal_moves()}
    for move in game.legal_moves():
        assert game.is_legal(move).legal, move
    game.push("Cat plays red-5")
    assert game.turn == "Ann"


def test_after_a_seven_the_moves_are_the_call_and_the_swaps() -> None:
    game = _game("uno-seven-zero", "Ann plays red-7")
    assert game.turn == "Ann"
    assert sorted(str(move) for move in game.legal_moves()) == ["Ann swaps Bob", "Ann swaps Cat"]
    before = {name: sorted(str(card) for card in game.hand(name)) for name in game.players}
    copy = game.copy()
    game.push("Ann swaps Cat")
    after = {name: sorted(str(card) for card in game.hand(name)) for name in game.players}
    assert after["Ann"] == before["Cat"] and after["Cat"] == before["Ann"] and after["Bob"] == before["Bob"]
    assert game.turn == "Bob" and copy.turn == "Ann"  # the copy is untouched
    assert game.pop() is not None and game == copy
    bad = game.is_legal("Bob plays red-2")
    assert bad.code == "swap-missing" and bad.rule == "house.seven-swaps" and "Ann swaps Bob" in bad.allowed


def test_a_zero_passes_every_hand_on_in_the_direction_of_play() -> None:
    game = _game("uno-seven-zero")
    before = {name: sorted(str(card) for card in game.hand(name)) for name in game.players}
    game.push("Ann plays red-0")
    ann_left = sorted(card for card in before["Ann"] if card != "red-0")
    assert sorted(str(card) for card in game.hand("Bob")) == ann_left
    assert sorted(str(card) for card in game.hand("Cat")) == before["Bob"]
    assert sorted(str(card) for card in game.hand("Ann")) == before["Cat"]


def test_while_the_draw_goes_on_only_the_drawer_draws() -> None:
    game = _game("uno-draw-to-match", "Ann draws blue-1")
    moves = game.legal_moves()
    assert moves and all(str(move).startswith("Ann draws ") for move in moves)
    assert game.is_legal("Ann passes").code == "draw-too-few"
    game.push("Ann draws red-3")
    assert {str(move) for move in game.legal_moves()} >= {"Ann plays red-3", "Ann passes"}
    assert game.is_legal("Ann draws green-2").code == "draw-too-many"


def test_a_stack_is_listed_and_adds_up() -> None:
    game = _game("uno-progressive", "Ann plays red-draw-two")
    moves = {str(move) for move in game.legal_moves()}
    assert "Bob plays blue-draw-two" in moves and any(move.startswith("Bob plays wild-draw-four") for move in moves)
    game.push("Bob plays blue-draw-two")
    assert game.state()["penalties"][0]["player"] == "Cat" and game.state()["penalties"][0]["cards"] == 4


def _variants() -> list[tuple[str, str, str]]:
    """Each setting of each challenge outcome changed alone (and the defaults): (outcome, setting, value)."""
    found = [("challenge-guilty", "draws", "player")]
    for outcome in ("challenge-guilty", "challenge-innocent"):
        for key, values in DISPUTE_SETTINGS[outcome].items():
            found += [(outcome, key, value) for value in values[1:]]
    return found


@pytest.mark.parametrize(("outcome", "key", "value"), _variants(), ids=lambda item: str(item))
@pytest.mark.parametrize("guilty", [True, False], ids=["guilty", "innocent"])
def test_a_ruling_says_who_draws_how_many_and_who_plays_as_the_spec_says(
    tmp_path: Path, outcome: str, key: str, value: str, guilty: bool
) -> None:
    """adjudicate's message and JSON follow the spec's disputes section, under every setting: who draws (the card's
    player or the challenger), how many (the penalty, or with the extra cards), who plays once they are drawn."""
    write_spec(tmp_path, "variant", f"extends: uno\ndisputes:\n  {outcome}: {{{key}: {value}}}\n", file="disputes.yaml")
    # Bob holds red when he plays the Wild Draw Four on red (guilty); later on green, which he lacks (innocent).
    lines = ["Ann plays red-5", "Bob plays wild-draw-four blue", "Cat challenges Bob"]
    if not guilty:
        lines = ["Ann plays red-5", "Bob plays red-2", "Cat plays red-3", "Ann plays red-7", "Bob plays green-7", "Cat plays green-1"]
        lines += ["Ann plays green-4", "Bob plays wild-draw-four yellow", "Cat challenges Bob"]
    log = tmp_path / "game.log"
    log.write_text(HEADER.format(spec="disputes.yaml") + "\n".join(lines) + "\n", encoding="utf-8")
    completed = run_referee("adjudicate", "--format", "json", str(log), text=True, timeout=60)
    (dispute,) = json.loads(completed.stdout)["files"][0]["disputes"]
    assert dispute["ruling"] == ("guilty" if guilty else "innocent"), dispute
    settings = {k: v[0] for k, v in DISPUTE_SETTINGS["challenge-guilty" if guilty else "challenge-innocent"].items()}
    if outcome == ("challenge-guilty" if guilty else "challenge-innocent"):
        settings[key] = value
    drawer = "Bob" if settings["draws"] == "player" else "Cat"
    cards_extra = 2 if settings["cards"] == "penalty-and-extra" else 0
    then = "Cat" if settings["then"] == "challenger-plays" else "Ann"
    penalty = dispute["penalty"]
    assert (penalty["player"], penalty["cards"] + penalty["extra"], penalty["then"]) == (drawer, 4 + cards_extra, then)
    assert penalty["loses_turn"] == (drawer == "Cat" and then == "Ann")
    text = run_referee("adjudicate", str(log), text=True, timeout=60).stdout
    turn = " and loses the turn" if penalty["loses_turn"] else ""
    assert f"penalty: {drawer} draws {4 + cards_extra} cards{turn}; then {then} plays" in text, text
    # and the engine agrees: once the cards are drawn, `then` plays and nobody else may
    drawn = " ".join(itertools.islice(("blue-1", "blue-2", "blue-4", "blue-6", "blue-8", "blue-9"), 4 + cards_extra))
    other = "Ann" if then == "Cat" else "Cat"
    after = tmp_path / "after.log"
    after.write_text(log.read_text(encoding="utf-8") + f"{drawer} draws {drawn}\n{other} passes\n", encoding="utf-8")
    verdict = referee.check(after)
    assert verdict.errors and verdict.errors[0].code == "out-of-turn" and then in verdict.errors[0].message, verdict.errors


def test_every_house_scenario_folder_has_both_modes_and_both_table_sizes() -> None:
    observed = sorted(HOUSE.glob("*.log")) + sorted((HOUSE / "two").glob("*.log")) + sorted((HOUSE / "ten").glob("*.log"))
    for log in observed:
        assert (log.parent / "full" / log.name).is_file(), log
    assert {len(log.read_text(encoding="utf-8").split("\nplayers ")[1].split("\n")[0].split()) for log in observed} == {2, 3, 10}
    specs = {log.read_text(encoding="utf-8").split("\nspec ")[1].split("\n")[0] for log in observed}
    assert {"uno-seven-zero", "uno-jump-in", "uno-draw-to-match", "uno-progressive", "uno-party"} <= specs


def test_a_restricted_face_nobody_can_challenge_is_a_bluff_at_once(tmp_path: Path) -> None:
    """Issue 19, point 5: every face with only-without-colour-in-play played while holding the colour in play is a
    bluff (warning unchallenged-bluff), also one that is not challengeable: then it is warned on its own line at once."""
    write_spec(
        tmp_path,
        "unchallengeable",
        "extends: uno\nkinds:\n  wild-draw-four: {effects: [choose-colour, {next-player-draws: 4}, only-without-colour-in-play]}\n",
    )
    log = tmp_path / "bluff.log"
    log.write_text(HEADER.format(spec="unchallengeable.yaml") + "Ann plays red-5\nBob plays wild-draw-four green\n", encoding="utf-8")
    report = referee.check(log)
    assert report.valid and [(w.line, w.code) for w in report.warnings] == [(10, "unchallenged-bluff")]
    assert "Bob played wild-draw-four while holding red, and it cannot be challenged" in report.warnings[0].message
    honest = tmp_path / "honest.log"
    lines = "Ann plays red-5\nBob plays red-2\nCat plays red-3\nAnn plays red-7\nBob plays green-7\nCat plays green-1\nAnn plays green-4\n"
    honest.write_text(HEADER.format(spec="unchallengeable.yaml") + lines + "Bob plays wild-draw-four yellow\n", encoding="utf-8")
    assert referee.check(honest).warnings == []


@pytest.mark.parametrize("draws", ["caught", "catcher"])
def test_a_catch_ruling_says_who_draws_as_the_spec_says(tmp_path: Path, draws: str) -> None:
    """The catch setting of ``disputes``: who draws the catch penalty, in adjudicate's JSON and text; the turn does not
    move (no ``then``)."""
    write_spec(tmp_path, "catch", f"extends: uno\ndisputes:\n  catch: {{draws: {draws}}}\n")
    hands = HEADER.format(spec="catch.yaml").replace(
        "hand Ann red-7 red-0 red-5 blue-3 green-4 yellow-9 red-draw-two",
        "hand Ann red-skip red-skip red-reverse red-reverse red-5 red-7 blue-3",
    )
    hands = hands.replace("players Ann Bob Cat\n", "players Ann Bob\n").replace("dealer Cat\n", "dealer Bob\n")
    hands = hands.replace("yellow-4 red-skip blue-draw-two", "yellow-4 blue-skip blue-draw-two")  # Ann holds both red Skips
    hands = "\n".join(line for line in hands.split("\n") if not line.startswith("hand Cat")) + "\n"
    lines = ["Ann plays red-skip", "Ann plays red-skip", "Ann plays red-reverse", "Ann plays red-reverse", "Ann plays red-5"]
    lines += ["Bob plays red-2", "Ann plays red-7", "Bob catches Ann"]
    log = tmp_path / "catch.log"
    log.write_text(hands + "\n".join(lines) + "\n", encoding="utf-8")
    completed = run_referee("adjudicate", "--format", "json", str(log), text=True, timeout=60)
    (dispute,) = json.loads(completed.stdout)["files"][0]["disputes"]
    drawer = "Ann" if draws == "caught" else "Bob"
    assert dispute["ruling"] == "valid" and dispute["penalty"]["player"] == drawer and dispute["penalty"]["cards"] == 2
    assert dispute["penalty"]["then"] is None and dispute["penalty"]["loses_turn"] is False
    text = run_referee("adjudicate", str(log), text=True, timeout=60).stdout
    assert f"penalty: {drawer} draws 2 cards; applied" in text or f"penalty: {drawer} draws 2 cards; not yet applied" in text, text


def test_under_forced_play_a_playable_card_drawn_is_the_only_move() -> None:
    """Ruling 26: after drawing a card that can be played, its play is every legal move (no pass, nobody else), and
    both ways of ending the turn without it are must-play-drawn; a card that cannot be played is kept as before."""
    game = _game("house-forced-play", "Ann draws red-3")
    assert {str(move) for move in game.legal_moves()} == {"Ann plays red-3"}
    for line in ("Ann passes", "Bob plays red-2", "Bob draws blue-1"):
        verdict = game.is_legal(line)
        assert verdict.code == "must-play-drawn" and verdict.rule == "house.forced-play" and verdict.allowed == ("red-3",), line
    official = _game("uno", "Ann draws red-3")
    assert {"Ann plays red-3", "Ann passes", "Bob plays red-2"} <= {str(move) for move in official.legal_moves()}
    kept = _game("house-forced-play", "Ann draws blue-1")
    assert {"Ann passes", "Bob plays red-2"} <= {str(move) for move in kept.legal_moves()}
    kept.push("Ann passes")
    assert kept.turn == "Bob"


def test_forced_play_with_draw_until_playable_forces_the_last_card_drawn(tmp_path: Path) -> None:
    """Show 'Em No Mercy's turn: draw until a playable card comes, then play it."""
    spec = write_spec(
        tmp_path, "draw-then-play", "extends: uno\noptions:\n  draw-until-playable: {value: true}\n  forced-play: {value: true}\n"
    )
    game = referee.Game.from_log(HEADER.format(spec="uno") + "Ann draws blue-1 red-3\n", spec=spec)
    assert {str(move) for move in game.legal_moves()} == {"Ann plays red-3"}
    assert game.is_legal("Ann passes").code == "must-play-drawn"


def test_a_public_round_under_forced_play_follows_both_readings_of_a_hidden_draw(tmp_path: Path) -> None:
    """A hidden card drawn and kept is one that could not be played (a fact for the solver, never must-play-drawn by
    itself); a hidden card drawn and played must match like any other; a simulated public game's witness, an observed
    log with every card named, is valid under forced play."""
    header = "players Ann Bob Cat\nspec house-forced-play\nround 1\ndealer Cat\npublic\nstart red-9\n"
    kept = tmp_path / "kept.log"
    kept.write_text(header + "Ann draws 1\nAnn passes\nBob draws 1\nBob plays red-2\nCat draws 1\nAnn draws 1\n")
    report = json.loads(run_referee("check", "--format", "json", str(kept), text=True, timeout=60).stdout)["files"][0]
    assert report["valid"] and report["consistency"] == "consistent"
    wrong = tmp_path / "wrong.log"
    wrong.write_text(header + "Ann draws 1\nAnn plays blue-2\n")
    report = json.loads(run_referee("check", "--format", "json", str(wrong), text=True, timeout=60).stdout)["files"][0]
    assert [(error["line"], error["code"]) for error in report["errors"]] == [(8, "illegal-play")]
    games = tmp_path / "games"
    run_referee(
        "simulate", "--spec", "house-forced-play", "--mode", "public", "--players", "3", "--games", "3", "--out", str(games), timeout=300
    )
    for log in sorted(games.glob("*.log")):
        witness = tmp_path / f"witness-{log.name}"
        assert run_referee("check", "--witness", str(witness), str(log), timeout=300).returncode == 0
        checked = run_referee("check", "--spec", "house-forced-play", str(witness), text=True, timeout=60)
        assert checked.returncode == 0, checked.stdout


def test_a_jump_in_limited_to_kinds_lists_and_allows_only_those(tmp_path: Path) -> None:
    """jump-in: [skip] (tests/variant_specs/skip-on-skip.yaml): a Skip on the identical Skip, no other jump-in."""
    spec = ROOT / "tests" / "variant_specs" / "skip-on-skip.yaml"
    header = HEADER.format(spec="uno").replace("yellow-9 red-draw-two", "yellow-9 red-skip")
    game = referee.Game.from_log(header + "Ann plays red-skip\n", spec=spec)
    assert "Bob plays red-skip" in {str(move) for move in game.legal_moves()}  # Bob, skipped, jumps in
    game.push("Bob plays red-skip")
    assert game.turn == "Ann"  # Bob's Skip skips Cat
    numbers = referee.Game.from_log(header + "Ann plays red-5\n", spec=spec)
    assert "Cat plays red-5" not in {str(move) for move in numbers.legal_moves()}
    assert numbers.is_legal("Cat plays red-5").code == "out-of-turn"
    anything = referee.Game.from_log(header + "Ann plays red-5\n", spec="uno-jump-in")
    assert anything.is_legal("Cat plays red-5").legal


@pytest.mark.parametrize(
    ("value", "message"),
    [("[skipp]", "option jump-in names unknown kind 'skipp' (did you mean 'skip'?)"), ("[wild]", "'wild' is a wild")],
)
def test_a_jump_in_limited_to_kinds_names_kinds_that_can_be_jumped_on(tmp_path: Path, value: str, message: str) -> None:
    spec = write_spec(tmp_path, "limited", f"extends: uno\noptions:\n  jump-in: {{value: {value}}}\n")
    completed = run_referee("rules", "--spec", str(spec), text=True, timeout=60)
    assert completed.returncode == 2 and message in completed.stderr, completed.stderr


def test_stacking_by_value_is_the_table_of_the_spec_s_draw_cards(tmp_path: Path) -> None:
    """stacking: by-value (Show 'Em No Mercy): on any draw card's penalty, a draw card of equal or higher value."""
    from referee.spec.extends import load_spec

    flip = load_spec(write_spec(tmp_path, "flip-by-value", "extends: uno-flip\noptions:\n  stacking: {value: by-value}\n"))
    assert dict(flip.options["stacking"]) == {
        "draw-one": ("draw-five", "draw-one", "wild-draw-two"),
        "wild-draw-two": ("draw-five", "wild-draw-two"),
        "draw-five": ("draw-five",),
    }  # the Wild Draw Color draws no count: nothing goes on it, and it goes on nothing
    classic = load_spec(ROOT / "tests" / "variant_specs" / "stack-by-value.yaml")
    assert classic.options["stacking"] == load_spec(ROOT / "specs" / "uno-progressive.yaml").options["stacking"]


def _swap_hands_spec(folder: Path) -> Path:
    """Classic UNO with one Wild Swap Hands (a wild whose player names whom to swap hands with)."""
    from referee.spec.extends import load_spec

    deck = "".join(f"  - {token}\n" for token in (*load_spec(ROOT / "specs" / "uno.yaml").deck, "wild-swap-hands"))
    return write_spec(
        folder,
        "swap-hands",
        "extends: uno\nkinds:\n  wild-swap-hands:\n    class: wild\n    sides: [light]\n    copies: 1\n    points: 40\n"
        "    effects: [choose-colour, swap-hands]\n    rule: card.wild-swap-hands\n    start-rule: start.wild\n"
        "    at-start: [choose-colour]\n"
        "rules:\n  - id: card.wild-swap-hands\n    summary: The Wild Swap Hands names the colour; its player swaps hands with another.\n"
        "    source: {key: classic, section: Cards (a Wild Swap Hands added)}\n    checks: [swap]\n"
        f"deck:\n{deck}",
    )


def test_a_card_that_swaps_hands_is_followed_by_its_player_s_swap(tmp_path: Path) -> None:
    """The effect swap-hands on a kind (a Wild Swap Hands) is seven swaps' swap: 'P swaps Q' comes next."""
    spec = _swap_hands_spec(tmp_path)
    header = HEADER.format(spec="uno").replace("yellow-9 red-draw-two", "yellow-9 wild-swap-hands")
    game = referee.Game.from_log(header + "Ann plays wild-swap-hands blue\n", spec=spec)
    assert sorted(str(move) for move in game.legal_moves()) == ["Ann swaps Bob", "Ann swaps Cat"]
    missing = game.is_legal("Bob plays blue-5")
    assert missing.code == "swap-missing" and "Ann played wild-swap-hands and must first swap" in missing.message
    bob = sorted(str(card) for card in game.hand("Bob"))
    game.push("Ann swaps Bob")
    assert sorted(str(card) for card in game.hand("Ann")) == bob and game.turn == "Bob"
    official = referee.Game.from_log(header.replace("wild-swap-hands", "wild") + "Ann plays wild blue\n", spec=spec)
    assert official.is_legal("Ann swaps Bob").code == "out-of-turn"  # a plain wild moves no hand


def test_a_card_that_passes_hands_passes_every_hand_on(tmp_path: Path) -> None:
    """The effect pass-hands on a kind is zero rotates' rotation, on that kind's faces only."""
    spec = write_spec(tmp_path, "reverse-passes", "extends: uno\nkinds:\n  reverse:\n    effects: [reverse, pass-hands]\n")
    header = HEADER.format(spec="uno").replace("yellow-9 red-draw-two", "yellow-9 red-reverse")
    before = referee.Game.from_log(header, spec=spec)
    hands = {name: sorted(str(card) for card in before.hand(name)) for name in before.players}
    game = referee.Game.from_log(header + "Ann plays red-reverse\n", spec=spec)
    assert sorted(str(card) for card in game.hand("Cat")) == sorted(card for card in hands["Ann"] if card != "red-reverse")
    assert sorted(str(card) for card in game.hand("Ann")) == hands["Bob"]  # play goes right after a Reverse: hands too


def test_under_forced_play_nobody_jumps_in_before_the_card_drawn_is_played(tmp_path: Path) -> None:
    """Forced play with jump-in: a jump-in would end the drawer's turn too, so it waits for the drawn card's play."""
    spec = write_spec(tmp_path, "forced-jump", "extends: uno\noptions:\n  jump-in: {value: true}\n  forced-play: {value: true}\n")
    game = referee.Game.from_log(HEADER.format(spec="uno") + "Ann plays red-5\nBob draws red-4\n", spec=spec)
    assert game.is_legal("Cat plays red-5").code == "must-play-drawn"  # Cat's twin of the top card, out of turn
    assert {str(move) for move in game.legal_moves()} == {"Bob plays red-4"}
    kept = referee.Game.from_log(HEADER.format(spec="uno") + "Ann plays red-5\nBob draws blue-1\n", spec=spec)
    assert kept.is_legal("Cat plays red-5").legal  # a card that cannot be played is kept: the jump-in may come
