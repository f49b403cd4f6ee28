"""Spec loading and validation: positions on every error, all errors at once, a closed vocabulary."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from referee.errors import SpecError
from referee.rules.compiler import compile_spec, load_rules
from referee.spec.extends import load_spec, shipped_spec_names

from helpers import HANDS_2P, check_text, codes, write_spec

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

SPECS = Path(__file__).resolve().parent.parent / "specs"
OFFICIAL = (SPECS / "uno-flip.yaml").read_text(encoding="utf-8")


def _problems(tmp_path: Path, text: str, name: str = "bad.yaml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    return [f"{position.line}:{position.column}: {message}" for position, message in caught.value.problems]


def test_every_shipped_spec_loads() -> None:
    names = shipped_spec_names()
    assert {"uno-flip", "house-stacking", "house-dealer-chooses", "house-short-game"} <= set(names)
    for name in names:
        rules = load_rules(SPECS / f"{name}.yaml")
        assert len(rules.deck) == (112 if name == "uno-2018" else {"uno": 108}.get(rules.spec.game, 112))  # 2018: 108 + 4 wilds
        assert set(rules.check_rules) == set(rules.spec.rules[0].checks) | {c for r in rules.spec.rules for c in r.checks}


def test_official_values() -> None:
    rules = load_rules(SPECS / "uno-flip.yaml")
    points = {face_rules.face.token: face_rules.points for face_rules in rules.faces.values()}
    assert points["red-7"] == 7 and points["red-draw-one"] == 10 and points["pink-draw-five"] == 20
    assert points["teal-skip-everyone"] == 30 and points["wild-draw-two"] == 50 and points["wild-draw-color"] == 60
    assert rules.target == 500 and rules.catch_penalty == 2 and rules.innocent_extra == 2
    every_rule = rules.spec.rules
    assert all(rule.citation.key and rule.citation.section and rule.summary for rule in every_rule)


def test_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    text = OFFICIAL.replace("title: UNO Flip, official rules (Mattel instruction sheet)\n", "title: a\ntitle: b\n", 1)
    problems = _problems(tmp_path, text)
    line = OFFICIAL.split("\n").index("title: UNO Flip, official rules (Mattel instruction sheet)") + 1
    assert any(f"duplicate key 'title' (first at line {line})" in p for p in problems), problems


def test_anchor_alias_and_tag_are_rejected(tmp_path: Path) -> None:
    text = OFFICIAL.replace("hand-size: 7", "hand-size: &h 7\n  extra: *h", 1)
    problems = _problems(tmp_path, text)
    assert any("anchors" in p for p in problems) and any("aliases" in p for p in problems)
    problems = _problems(tmp_path, OFFICIAL.replace("hand-size: 7", "hand-size: !!int 7", 1))
    assert any("explicit tags" in p for p in problems)


def test_unknown_keys_and_effects_suggest(tmp_path: Path) -> None:
    text = OFFICIAL.replace("    effects: [{next-player-draws: 1}]", "    effect: [{next-player-draw: 1}]", 1)
    text = text.replace("effects: [reverse]", "effects: [reverze]", 1)
    problems = _problems(tmp_path, text)
    assert any("unknown key 'effect' in kind 'draw-one' (did you mean 'effects'?)" in p for p in problems)
    assert any("unknown effect 'reverze' (did you mean 'reverse'?)" in p for p in problems)


def test_an_unknown_name_with_no_close_one_lists_the_names_the_place_takes(tmp_path: Path) -> None:
    """Issue 43: a load error names the good keys, not only the bad one (no near miss: every key or effect there)."""
    options = write_spec(tmp_path, "a", "extends: uno\noptions:\n  must-play-drawn:\n    value: true\n", title="a")
    with pytest.raises(SpecError) as caught:
        load_spec(options)
    (message,) = [message for _, message in caught.value.problems]
    assert message.startswith("unknown key 'must-play-drawn' in options (the keys of options are challenge-innocent-extra,")
    assert "forced-play" in message and "zero-rotates)" in message
    effect = write_spec(tmp_path, "b", "extends: uno\nkinds:\n  skip:\n    effects: [jumps]\n", title="b")
    with pytest.raises(SpecError) as caught:
        load_spec(effect)
    assert any(
        message.startswith("unknown effect 'jumps' (the effects are challengeable, choose-colour,") and "shuffle-hands" in message
        for _, message in caught.value.problems
    )
    jump_in = write_spec(tmp_path, "c", "extends: uno\noptions:\n  jump-in:\n    value: {skip: skip}\n", title="c")
    with pytest.raises(SpecError) as caught:
        load_spec(jump_in)
    assert [message for _, message in caught.value.problems] == [
        "jump-in is true, false or a list of the kinds it is limited to (jump-in: {value: [skip]})"
    ]


def test_every_error_has_a_position_and_all_are_reported(tmp_path: Path) -> None:
    text = OFFICIAL.replace("min-players: 2", "min-players: two").replace("value: 500", "value: lots")
    problems = _problems(tmp_path, text)
    assert len(problems) >= 2
    assert all(p.split(":")[0].isdigit() and int(p.split(":")[0]) > 0 for p in problems)


def test_yaml_11_booleans_and_octals_are_just_strings(tmp_path: Path) -> None:
    problems = _problems(tmp_path, OFFICIAL.replace("same-colour: true", "same-colour: yes").replace("hand-size: 7", "hand-size: 07"))
    assert any("must be true or false, not 'yes'" in p for p in problems)
    assert any("not '07'" in p for p in problems)


def test_wrong_deck_composition(tmp_path: Path) -> None:
    text = OFFICIAL.replace("  - yellow-1/wild\n", "  - yellow-2/wild\n", 1)
    problems = _problems(tmp_path, text)
    assert any("light side does not have the official composition" in p for p in problems)


def test_a_check_without_a_rule(tmp_path: Path) -> None:
    text = OFFICIAL.replace("    checks: [call, uncaught]", "    checks: [call]")
    assert any("no rule governs the check 'uncaught'" in p for p in _problems(tmp_path, text))


def test_not_yaml_and_not_a_mapping_and_deep(tmp_path: Path) -> None:
    assert any("not valid YAML" in p for p in _problems(tmp_path, "name: x\na: [\n"))
    assert any("must be a mapping" in p for p in _problems(tmp_path, "[\nname: x\n]\n"))
    assert any("not a spec file" in p for p in _problems(tmp_path, "- a\n- b\n"))
    assert any("nesting deeper" in p for p in _problems(tmp_path, "name: x\na: " + "[" * 500 + "]" * 500 + "\n"))
    assert any("second" in p for p in _problems(tmp_path, "name: x\na: 1\n---\nb: 2\n"))


def test_oversized_spec(tmp_path: Path) -> None:
    assert any("larger than" in p for p in _problems(tmp_path, "a: " + "x" * (1024 * 1024 + 10) + "\n"))


def test_a_house_rule_changes_behaviour_without_code(tmp_path: Path) -> None:
    write_spec(tmp_path, "mine", "extends: uno-flip\nkinds:\n  draw-one:\n    effects: [{next-player-draws: 3}]\n")
    log = HANDS_2P + "Ann plays red-draw-one\nBob draws yellow-1/wild yellow-2/teal-8 yellow-3/purple-1\nAnn plays red-1\n"
    assert codes(check_text(log)) == [(8, "bad-penalty")]
    assert check_text(log, spec=tmp_path / "mine.yaml").valid
    assert check_text("spec mine.yaml\n" + log, base=tmp_path).valid


def test_a_log_naming_a_missing_spec_is_an_input_error(tmp_path: Path) -> None:
    verdict = check_text("spec nowhere\n" + HANDS_2P, base=tmp_path)
    assert verdict.input_error is not None and "test.log:1" in verdict.input_error and "no spec 'nowhere'" in verdict.input_error


def test_compile_is_pure_data() -> None:
    rules = compile_spec(load_spec(SPECS / "house-short-game.yaml"))
    assert rules.target == 200
    assert {f.face.token: f.draw for f in rules.faces.values()}["teal-draw-five"] == 4


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ("reverse: {effects: [reverse, {skip: 1}]}", "effects 'reverse' and 'skip' cannot be combined"),
        ("skip-everyone: {effects: [skip-everyone, {skip: 2}]}", "effects 'skip' and 'skip-everyone' cannot be combined"),
        ("skip: {effects: [{skip: 1}, {skip: 1}]}", "effect 'skip' is listed twice"),
        (
            "wild-draw-two: {effects: [choose-colour, {next-player-draws: 2}, only-without-colour-in-play, challengeable, {skip: 1}]}",
            "'next-player-draws' already makes the next player lose the turn; 'skip' beside it would be ignored",
        ),
        (
            "wild-draw-color: {effects: [choose-colour, {next-player-draws: 2}, next-player-draws-until-colour, challengeable]}",
            "cannot be combined (one penalty per card)",
        ),
        ("draw-one: {at-start: [apply-effects, dealer-first]}", "'dealer-first' beside 'apply-effects' would be ignored"),
        ("reverse: {at-start: [reverse, apply-effects]}", "turns the direction twice"),
        ("skip: {at-start: [apply-effects, apply-effects]}", "start action 'apply-effects' is listed twice"),
    ],
)
def test_effects_that_would_hide_one_another_are_errors(tmp_path: Path, kinds: str, expected: str) -> None:
    """A slip that would change nothing in play (one effect silently winning) is a loader error with a position."""
    problems = _problems(tmp_path, f"format: referee-spec/1\nname: slip\nextends: uno-flip\nkinds:\n  {kinds}\n")
    assert any(expected in problem and problem.startswith("5:") for problem in problems), problems


def test_a_flip_that_also_skips_is_a_combination_that_loads(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "flip-skips", "extends: uno-flip\nkinds:\n  flip: {effects: [flip, {skip: 1}]}\n")
    assert load_spec(path).name == "flip-skips"


@pytest.mark.parametrize(
    ("disputes", "expected"),
    [
        ("challenge-guilty: {draws: nobody}", "challenge-guilty draws is one of player, challenger, not 'nobody'"),
        ("challenge-innocent: {then: skip}", "challenge-innocent then is one of challenger-loses-turn, challenger-plays, not 'skip'"),
        ("catch: {draws: everyone}", "catch draws is one of caught, catcher, not 'everyone'"),
        ("catch: {cards: 4}", "unknown key 'cards' in disputes: catch"),
        ("challenge-guilt: {draws: player}", "unknown key 'challenge-guilt' in disputes (did you mean 'challenge-guilty'?)"),
        ("catch: caught", "disputes: catch must be a mapping, written like {draws: caught}"),
    ],
)
def test_a_disputes_setting_outside_its_values_is_an_error_with_a_position(tmp_path: Path, disputes: str, expected: str) -> None:
    problems = _problems(tmp_path, f"format: referee-spec/1\nname: slip\nextends: uno-flip\ndisputes:\n  {disputes}\n")
    assert any(expected in problem and problem.startswith("5:") for problem in problems), problems


def test_a_spec_without_disputes_keeps_the_meaning_of_version_1(tmp_path: Path) -> None:
    """Specs written before the section existed rule on challenges and catches as the rulebook does."""
    from referee.spec.model import DEFAULT_DISPUTES

    official = load_spec(SPECS / "uno-flip.yaml").disputes
    assert dataclasses.replace(official.guilty, rule="") == DEFAULT_DISPUTES.guilty  # the spec also names the rules cited
    assert dataclasses.replace(official.innocent, rule="") == DEFAULT_DISPUTES.innocent
    assert (official.guilty.rule, official.innocent.rule) == ("challenge.guilty", "challenge.innocent")
    house = write_spec(tmp_path, "catcher", "extends: uno-flip\ndisputes:\n  catch: {draws: catcher}\n")
    disputes = load_spec(house).disputes
    assert disputes.catcher_draws and disputes.guilty == official.guilty and disputes.innocent == official.innocent


def _house(tmp_path: Path, disputes: str) -> Path:
    return write_spec(tmp_path, "house", f"extends: uno-flip\ndisputes:\n  {disputes}\n")


def test_the_disputes_section_changes_what_a_ruling_costs(tmp_path: Path) -> None:
    """The scenario's guilty challenge (Bob draws two, Ann plays) checks clean under the rulebook; under a house spec
    where the challenger draws anyway, Bob's draw is the error, and Ann's two cards are what is owed."""
    log = (SCENARIOS / "disputes" / "challenge-guilty-wild-draw-two.log").read_text(encoding="utf-8")
    assert check_text(log).valid
    house = _house(tmp_path, "challenge-guilty: {draws: challenger}")
    verdict = check_text(log, spec=house)
    assert [(d.line, d.code, d.message) for d in verdict.errors][:1] == [(11, "bad-penalty", "Ann owes 2 cards, not Bob")]
    fixed = log.replace("Bob draws yellow-1/wild yellow-2/teal-8", "Ann draws yellow-1/wild yellow-2/teal-8")
    assert check_text(fixed, spec=house).valid


def test_the_disputes_section_says_who_draws_after_a_catch(tmp_path: Path) -> None:
    log = (SCENARIOS / "disputes" / "catch-valid.log").read_text(encoding="utf-8")
    assert check_text(log).valid
    house = _house(tmp_path, "catch: {draws: catcher}")
    assert not check_text(log, spec=house).valid
    assert check_text(log.replace("Ann draws yellow-1/wild", "Bob draws yellow-1/wild"), spec=house).valid


def test_the_typed_options_are_the_declared_options() -> None:
    """``Spec.settings`` (a typed record) has one field per option of the vocabulary, and reads the spec's values."""
    from referee.spec.model import OPTIONS, Options

    assert {item.name.replace("_", "-") for item in dataclasses.fields(Options)} == set(OPTIONS)
    house = load_spec(SPECS / "house-stacking.yaml").settings
    assert (
        house.stacking == (("draw-one", ("draw-one",)), ("draw-five", ("draw-five",)))
        and house.target == 500
        and house.reshuffle == "keep-top"
    )
