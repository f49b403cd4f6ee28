"""``referee diff``: declared differences item by item, a game for each difference in play, and equal specs proved so."""

from __future__ import annotations

import dataclasses
import json
import os
import random
from functools import partial
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.checking.replay import check_path
from referee.diff.compare import Comparison, Conclusion, compare
from referee.diff.solver import SolverReport
from referee.rules.compiler import load_rules
from referee.spec import model
from referee.spec.extends import resolve_spec
from referee.spec.paths import SPECS, shipped_spec_names
from referee.spec.vocabulary import OPTION_CHOICES

from helpers import run_referee, write_spec

# Each shipped house spec, the game it changes, and the items in play it declares (one game each).
HOUSE_SPECS = {
    "house-stacking": ("uno-flip", {"options.stacking.draw-one-on-draw-one", "options.stacking.draw-five-on-draw-five"}),
    "house-dealer-chooses": ("uno-flip", {"options.start-colour-chooser"}),
    "house-lowest-score": ("uno-flip", {"options.scoring"}),
    "house-short-game": ("uno-flip", {"options.target", "kinds.draw-five.effects"}),
    "house-forced-play": ("uno", {"options.forced-play"}),
    "house-doubles": ("uno", {"options.doubles"}),
    "uno-flip-party": (
        "uno-flip",
        {
            "options.draw-until-playable",
            "options.jump-in",
            "options.seven-swaps",
            "options.stacking.draw-one-on-draw-one",
            "options.stacking.wild-draw-two-on-draw-one",
            "options.stacking.wild-draw-two-on-wild-draw-two",
            "options.stacking.draw-five-on-draw-five",
        },
    ),
    "uno-draw-to-match": ("uno", {"options.draw-until-playable"}),
    "uno-2018": ("uno", {"deck.cards", "kinds.wild-customizable", "kinds.wild-shuffle-hands"}),
    "uno-jump-in": ("uno", {"options.jump-in"}),
    "uno-seven-zero": ("uno", {"options.seven-swaps", "options.zero-rotates"}),
    "uno-progressive": (
        "uno",
        {
            "options.stacking.draw-two-on-draw-two",
            "options.stacking.wild-draw-four-on-draw-two",
            "options.stacking.wild-draw-four-on-wild-draw-four",
        },
    ),
    "uno-party": (
        "uno",
        {
            "options.draw-until-playable",
            "options.jump-in",
            "options.seven-swaps",
            "options.zero-rotates",
            "options.stacking.draw-two-on-draw-two",
            "options.stacking.wild-draw-four-on-draw-two",
            "options.stacking.wild-draw-four-on-wild-draw-four",
        },
    ),
}
QUICK_PAIRS = ("uno-seven-zero",)  # the others in the slow tier (and tests/test_variants.py diffs six more)


def _compare(a: str | Path, b: str | Path, timeout: float = 60) -> Comparison:
    return compare(resolve_spec(str(a), None), resolve_spec(str(b), None), (str(a), str(b)), timeout)


def _assert_games_judged(comparison: Comparison, folder: Path, a: str | Path, b: str | Path) -> None:
    """Each game, written to a file, is valid under one spec and fails at its last line under the other, as
    ``referee check --spec`` says."""
    paths = {comparison.a.name: resolve_spec(str(a), None), comparison.b.name: resolve_spec(str(b), None)}
    for number, shown in enumerate(comparison.games):
        log = folder / f"game-{number}.log"
        log.write_text(shown.log, encoding="utf-8")
        accepted = check_path(log, spec_override=paths[shown.accepted_by.name])
        rejected = check_path(log, spec_override=paths[shown.rejected_by.name])
        assert accepted.valid, (shown.item, accepted.errors)
        assert not rejected.valid and rejected.errors[0].line == shown.line == shown.log.count("\n"), (shown.item, rejected.errors)
        assert rejected.errors[0].code == shown.code


# -- every item the engine reads is compared


def test_the_sections_cover_every_field_the_engine_reads() -> None:
    """A new field of the spec model must be placed: compared in play by a section, or wording. Equal items in play
    prove equal games only while this list is whole."""
    in_play = {
        model.Spec: {"min_players", "max_players", "hand_size", "start_side", "colours", "matching", "kinds", "options", "deck"},
        model.Kind: {"name", "face_class", "sides", "copies", "numbers", "number_copies", "points", "effects", "at_start", "spellings"},
        model.Matching: {"same_colour", "same_number", "same_action_kind", "wild_always"},
        model.Outcome: {"draws", "cards", "then"},
        model.Disputes: {"guilty", "innocent", "catch_draws"},
        model.Effect: {"name", "amount", "settings"},
    }
    wording = {
        model.Spec: {"name", "title", "path", "sources", "option_rules", "rules", "game", "game_stated", "claims"},
        model.Kind: {"rule", "start_rule"},
        model.Outcome: {"rule"},
    }
    # compared too (deck.official, disputes, table.sides; a kind renamed or removed is compared by its first name)
    also = {model.Spec: {"deck_official", "disputes", "side_names", "kinds_removed", "kinds_renamed"}}
    for record, fields in in_play.items():
        names = {field.name for field in dataclasses.fields(record)}
        assert names == fields | wording.get(record, set()) | also.get(record, set()), record
    assert {field.name for field in dataclasses.fields(model.Options)} == {name.replace("-", "_") for name in OPTION_CHOICES} | {
        "target",
        "stacking",
        "challenge_innocent_extra",
        "uno_catch_penalty",
        "seven_swaps",
        "zero_rotates",
        "jump_in",
        "draw_until_playable",
        "forced_play",
        "doubles",
    }


@pytest.mark.parametrize("name", shipped_spec_names())
def test_a_spec_against_itself_is_the_same(name: str) -> None:
    comparison = _compare(name, name)
    assert comparison.status is Conclusion.SAME and comparison.declared == () and comparison.games == ()


# -- copies: reworded, reordered, restated


def _reworded_reordered(source: Path, folder: Path, name: str, seed: int) -> Path:
    """The spec's YAML with every summary reworded, every mapping and list in another order, a new name and title."""
    tree = yaml.safe_load(source.read_text(encoding="utf-8"))
    shuffle = random.Random(seed)

    def reorder(node: object) -> object:
        if isinstance(node, dict):
            items = list(node.items())
            if "light" not in node:  # the order of the sides is which side is which: the rest may go in any order
                shuffle.shuffle(items)
            return {key: reorder(value) for key, value in items}
        if isinstance(node, list):
            items = [reorder(item) for item in node]
            shuffle.shuffle(items)
            return items
        return node

    for rule in tree["rules"]:
        rule["summary"] = "In other words: " + rule["summary"]
    tree["deck"] = [token.replace("wild-draw-color", "wild-draw-colour") for token in tree["deck"]]  # its other spelling
    tree = reorder(tree)
    tree.update(name=name, title=f"A reworded copy of {source.stem}")
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(tree, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("game", ["uno", "uno-flip"])
def test_a_reworded_reordered_copy_accepts_the_same_games(game: str, tmp_path: Path) -> None:
    copy = _reworded_reordered(SPECS / f"{game}.yaml", tmp_path, f"{game}-copy", seed=len(game))
    comparison = _compare(game, copy)
    assert comparison.status is Conclusion.SAME, [d.item for d in comparison.behaviour]
    assert comparison.behaviour == () and comparison.games == ()
    assert any(difference.item.endswith(".summary") for difference in comparison.declared)  # the rewording is listed


def test_a_restated_house_spec_accepts_the_same_games(tmp_path: Path) -> None:
    """Options and a kind written again with the values they already have change nothing in play."""
    restated = write_spec(
        tmp_path,
        "restated",
        title="restated",
        body="extends: uno-flip\n"
        "options:\n  target: {value: 500}\n  two-player-reverse: {value: skip}\n  stacking: {value: []}\n"
        "kinds:\n  draw-five:\n    effects: [{next-player-draws: 5}]\n    points: 20\n"
        "table:\n  hand-size: 7\n",
    )
    comparison = _compare("uno-flip", restated)
    assert comparison.status is Conclusion.SAME and comparison.declared == ()


# -- each house rule shown by a game


def _house_pair(house: str, tmp_path: Path) -> None:
    base, expected = HOUSE_SPECS[house]
    comparison = _compare(base, house)
    assert comparison.status is Conclusion.DIFFERENT
    assert {difference.item for difference in comparison.behaviour} == expected
    shown_items = {item for shown in comparison.games for item in shown.items}  # with the items that move only with one
    assert shown_items == expected and comparison.unshown == ()
    _assert_games_judged(comparison, tmp_path, base, house)


@pytest.mark.parametrize("house", QUICK_PAIRS)
def test_a_house_spec_shows_each_house_rule_by_a_game(house: str, tmp_path: Path) -> None:
    _house_pair(house, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("house", sorted(set(HOUSE_SPECS) - set(QUICK_PAIRS)))
def test_every_shipped_house_spec_shows_each_house_rule_by_a_game(house: str, tmp_path: Path) -> None:
    _house_pair(house, tmp_path)


def test_the_house_specs_are_all_listed() -> None:
    """Every shipped spec that extends another is compared above."""
    extending = {name for name in shipped_spec_names() if "\nextends:" in (SPECS / f"{name}.yaml").read_text(encoding="utf-8")}
    assert extending == set(HOUSE_SPECS)


def test_the_other_way_round_the_other_spec_accepts(tmp_path: Path) -> None:
    backward = _compare("uno-seven-zero", "uno")
    assert backward.a.name == "uno-seven-zero" and backward.status is Conclusion.DIFFERENT
    assert [(d.item, d.a, d.b) for d in backward.behaviour] == [
        ("options.seven-swaps", "true", "false"),
        ("options.zero-rotates", "true", "false"),
    ]
    assert {shown.item for shown in backward.games} == {"options.seven-swaps", "options.zero-rotates"}
    _assert_games_judged(backward, tmp_path, "uno-seven-zero", "uno")


# -- one number changed


def test_one_changed_number_is_one_difference_and_its_game(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        "draw-one-draws-two",
        title="draw-one-draws-two",
        body="extends: uno-flip\nkinds:\n  draw-one:\n    effects: [{next-player-draws: 2}]\n",
    )
    comparison = _compare("uno-flip", spec)
    assert [(d.item, d.a, d.b) for d in comparison.declared] == [
        ("kinds.draw-one.effects", "[next-player-draws 1]", "[next-player-draws 2]")
    ]
    assert comparison.declared[0].b_at is not None and comparison.declared[0].b_at.line == 7
    assert len(comparison.games) == 1 and comparison.status is Conclusion.DIFFERENT
    _assert_games_judged(comparison, tmp_path, "uno-flip", spec)


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("table:\n  hand-size: 5\n", "table.hand-size"),
        ("table:\n  max-players: 12\n", "table.max-players"),
        ("matching:\n  same-number: false\n", "matching.same-number"),
        ("disputes:\n  catch: {draws: catcher}\n", "disputes.catch"),
        ("kinds:\n  skip:\n    points: 30\n", "kinds.skip.points"),
        ("options:\n  dealer-rotation: {value: right, rule: table.dealer}\n", "options.dealer-rotation"),
        ("options:\n  reshuffle: {value: take-all, rule: reshuffle.when-empty}\n", "options.reshuffle"),
        ("options:\n  uno-catch-penalty: {value: 4, rule: uno.catch}\n", "options.uno-catch-penalty"),
    ],
)
def test_each_section_in_play_is_shown_by_a_game(text: str, item: str, tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "changed", title="changed", body="extends: uno\n" + text)
    comparison = _compare("uno", spec)
    assert [d.item for d in comparison.behaviour] == [item]
    assert [shown.item for shown in comparison.games] == [item]
    _assert_games_judged(comparison, tmp_path, "uno", spec)


@pytest.mark.parametrize(("base", "kind", "spelled"), [("uno", "skip", "miss-a-go"), ("uno-flip", "skip-everyone", "skip-all")])
def test_a_new_spelling_alone_is_shown_by_a_game_that_writes_it(base: str, kind: str, spelled: str, tmp_path: Path) -> None:
    """Issue 43 item 3: a spelling as the only change is a difference shown at once, by a game whose last line plays
    the kind written the new way (the other spec reads no such card), not an undecided search."""
    spec = write_spec(tmp_path, "spelled", title="spelled", body=f"extends: {base}\nkinds:\n  {kind}:\n    spellings: [{spelled}]\n")
    comparison = _compare(base, spec, timeout=0.5)
    assert comparison.status is Conclusion.DIFFERENT
    (shown,) = comparison.games
    assert shown.item == f"kinds.{kind}.spellings" and shown.code == "unknown-card"
    last = shown.log.rstrip("\n").splitlines()[-1]
    assert " plays " in last and f"-{spelled}" in last and len(shown.log.splitlines()) < 40
    _assert_games_judged(comparison, tmp_path, base, spec)


# -- a difference no game was found for: undecided, never "the same"


def test_a_difference_without_a_game_is_undecided(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "unchecked", title="unchecked", body="extends: uno\ndeck-composition: unchecked\n")
    comparison = _compare("uno", spec, timeout=0.5)
    assert comparison.status is Conclusion.UNDECIDED and comparison.unshown == ("deck.official",)
    assert comparison.declared[0].b_at is not None and comparison.declared[0].b_at.line == 5


# -- the command


_referee = partial(run_referee, text=True)


def test_the_command_writes_each_game_and_exits_1(tmp_path: Path) -> None:
    result = _referee("diff", "uno", "uno-seven-zero", "--no-solver", "--out", str(tmp_path / "games"))
    assert result.returncode == 1, result.stderr
    assert "options.seven-swaps: false -> true" in result.stdout
    assert result.stdout.strip().splitlines()[-1].startswith("uno and uno-seven-zero accept different games: 2 differences in play")
    files = sorted(path.name for path in (tmp_path / "games").iterdir())
    assert files == ["01-options.seven-swaps.log", "02-options.zero-rotates.log"]
    for name in files:
        log = tmp_path / "games" / name
        assert _referee("check", "--spec", "uno", str(log)).returncode == 0
        assert _referee("check", "--spec", "uno-seven-zero", str(log)).returncode == 1


@pytest.mark.slow  # a whole diff with the solver, through the command; the quick tier diffs through the library
def test_the_command_in_json(tmp_path: Path) -> None:
    copy = _reworded_reordered(SPECS / "uno.yaml", tmp_path, "copy", seed=3)
    result = _referee("diff", "uno", str(copy), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "same" and data["games"] == [] and data["proved"] == "every player count and every length of game"
    assert all(item["behaviour"] is False for item in data["declared"])
    assert {"item", "section", "a", "b", "a_line", "b_line", "behaviour"} == set(data["declared"][0])
    result = _referee("diff", "uno", "uno-jump-in", "--format", "json")
    data = json.loads(result.stdout)
    assert result.returncode == 1 and data["status"] == "different"
    assert data["claims"]["players"] == list(range(2, 11))
    assert data["claims"]["differ"] == [
        {
            "id": "option.jump-in",
            "statement": data["claims"]["differ"][0]["statement"],
            "whose": "uno's rulebook",
            "a": "proved",
            "b": "refuted (2-10 players)",
            "items": ["options.jump-in"],
        }
    ]
    (game,) = data["games"]
    assert game["item"] == "options.jump-in" and game["log"].count("\n") == game["lines"] == game["line"]
    assert game["rule"]["id"] and game["accepted_by"] in ("uno", "uno-jump-in")


def test_the_specs_may_be_given_with_spec_options() -> None:
    result = _referee("diff", "--spec", "uno", "--spec", "uno-jump-in", "--format", "json", "--no-solver")
    data = json.loads(result.stdout)
    assert result.returncode == 1 and (data["a"]["name"], data["b"]["name"]) == ("uno", "uno-jump-in")


def test_items_that_move_only_together_share_one_game(tmp_path: Path) -> None:
    comparison = _compare("uno-flip", "uno")
    (together,) = [shown for shown in comparison.games if len(shown.items) > 1]
    assert {"table.sides", "deck.cards", "kinds.flip"} <= set(together.items)
    assert comparison.status is Conclusion.DIFFERENT
    _assert_games_judged(comparison, tmp_path, "uno-flip", "uno")


@pytest.mark.parametrize("solver", [pytest.param(False), pytest.param(True, marks=pytest.mark.slow)])
def test_the_command_exits_3_when_undecided(solver: bool, tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "unchecked", title="unchecked", body="extends: uno\ndeck-composition: unchecked\n")
    result = _referee("diff", "uno", str(spec), "--timeout", "0.5", *(() if solver else ("--no-solver",)))
    assert result.returncode == 3 and result.stdout.strip().splitlines()[-1].startswith("undecided: uno and")
    assert ("every claim in force gets the same answer from both" in result.stdout) is solver  # no claim reads a deck line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("uno", "no-such-spec"), "no-such-spec"),
        (("uno",), "diff compares two specs, A and B; 1 given"),
        (("uno", "uno-jump-in", "--spec", "uno-flip"), "3 given"),
        (("uno", "uno", "--timeout", "0"), "--timeout"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = _referee("diff", *args)
    assert result.returncode == 2 and "error: " in result.stderr and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2  # the error, and for a usage error the hint to --help
    assert "Traceback" not in result.stderr


def test_an_invalid_spec_file_names_its_line(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "bad", title="bad", body="extends: uno\noptions:\n  reshuffle: {value: whole-pile}\n")
    result = _referee("diff", "uno", str(spec))
    assert result.returncode == 2 and result.stderr.startswith(f"{spec}:6:") and "reshuffle" in result.stderr


# -- any one option changed: its one difference, and a game that check confirms


_BASES = ("uno", "uno-flip")


@st.composite
def _one_option(draw: st.DrawFn) -> tuple[str, str, str]:
    base = draw(st.sampled_from(_BASES))
    name = draw(st.sampled_from(sorted(OPTION_CHOICES)))
    value = draw(st.sampled_from(sorted(OPTION_CHOICES[name])))
    return base, name, value


@settings(
    max_examples=int(os.environ.get("REFEREE_DIFF_EXAMPLES", "6")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(_one_option())
def test_any_one_option_changed_is_its_one_difference(tmp_path: Path, case: tuple[str, str, str]) -> None:
    base, name, value = case
    spec = write_spec(
        tmp_path, "one-option", title="one-option", body=f"extends: {base}\noptions:\n  {name}: {{value: {value}, rule: play.match}}\n"
    )
    comparison = _compare(base, spec, timeout=20)
    behaviour = [d.item for d in comparison.behaviour]
    unchanged = str(load_rules(resolve_spec(base, None)).spec.options[name]) == value
    unread = base == "uno" and name == "flip-colour-chooser"  # classic UNO has no Flip card
    if unchanged or unread:
        assert behaviour == [] and comparison.status is Conclusion.SAME
        options = [d.item for d in comparison.declared if d.section == "options"]
        assert options == ([] if unchanged else [f"options.{name}"])
    else:
        assert behaviour == [f"options.{name}"] and comparison.status is Conclusion.DIFFERENT
        _assert_games_judged(comparison, tmp_path, base, spec)


def test_an_option_no_card_reads_is_not_in_play(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        "flip-chooser",
        title="flip-chooser",
        body="extends: uno\noptions:\n  flip-colour-chooser: {value: nobody, rule: play.match}\n",
    )
    comparison = _compare("uno", spec)
    assert comparison.status is Conclusion.SAME
    assert [(d.item, d.behaviour) for d in comparison.declared] == [("options.flip-colour-chooser", False)]
    spec = write_spec(
        tmp_path,
        "flip-chooser-flip",
        title="flip-chooser-flip",
        body="extends: uno-flip\noptions:\n  flip-colour-chooser: {value: nobody, rule: play.match}\n",
    )
    assert [d.item for d in _compare("uno-flip", spec).behaviour] == ["options.flip-colour-chooser"]


# -- the solver: the rulebook's claims asked of both Z3 models


def _with_solver(a: str | Path, b: str | Path) -> Comparison:
    from referee.diff.solver import claim_differences

    return compare(resolve_spec(str(a), None), resolve_spec(str(b), None), (str(a), str(b)), 60, solver=claim_differences)


@pytest.mark.slow
def test_the_solver_tells_which_claims_each_change_breaks() -> None:
    comparison = _with_solver("uno-flip", "house-short-game")
    assert comparison.solver is not None and comparison.solver.players == tuple(range(2, 11))
    answers = {claim.id: (claim.a, claim.b, claim.items) for claim in comparison.solver.claims}
    assert answers == {
        "play.draw-five": ("proved", "refuted (2-10 players)", ("kinds.draw-five.effects",)),
        "option.target": ("proved", "refuted (2-10 players)", ("options.target",)),
    }


@pytest.mark.slow
def test_the_solver_on_a_house_spec_with_its_own_claims() -> None:
    """uno-party restates the stacking claims: its own claims, refuted by classic UNO's model, are listed too."""
    comparison = _with_solver("uno", "uno-party")
    assert comparison.solver is not None
    answers = {claim.id: (claim.whose, claim.a, claim.b) for claim in comparison.solver.claims}
    assert answers["stack.draw-two"] == ("uno-party's own claim", "refuted (2-10 players)", "proved")
    assert answers["option.seven-swaps"] == ("uno's rulebook", "proved", "refuted (2-10 players)")


def test_the_solver_is_not_asked_of_two_games_or_of_equal_specs(tmp_path: Path) -> None:
    assert _with_solver("uno", "uno-flip").solver == SolverReport(
        (), "not asked: the two specs are of different games, held to different claims", ()
    )
    copy = _reworded_reordered(SPECS / "uno.yaml", tmp_path, "copy", seed=5)
    assert _with_solver("uno", copy).solver is None  # nothing in play differs: no question to ask


def test_a_claim_alone_makes_the_specs_differ(tmp_path: Path) -> None:
    """A difference no game was found for, that a claim of the rulebook shows, is a difference, not undecided."""
    from referee.diff.solver import ClaimDifference

    def one_claim(rules_a: object, rules_b: object, middles: object) -> SolverReport:
        return SolverReport((2,), "2 players", (ClaimDifference("x", "X.", "uno's rulebook", "proved", "refuted", ("deck.official",)),))

    spec = write_spec(tmp_path, "unchecked", title="unchecked", body="extends: uno\ndeck-composition: unchecked\n")
    comparison = compare(resolve_spec("uno", None), spec, ("uno", str(spec)), 0.5, solver=one_claim)
    assert comparison.status is Conclusion.DIFFERENT and comparison.unshown == () and comparison.games == ()


def test_a_long_value_is_cut_where_the_two_differ_so_no_change_prints_as_two_equal_strings(tmp_path: Path) -> None:
    """Issue 43, item 3: an effects change past the 40th character showed as two identical cut strings."""
    body = (
        "extends: uno\nkinds:\n  wild-draw-four:\n"
        "    effects: [choose-colour, {next-player-draws: {count: 4, into: discard-pile}}, only-without-colour-in-play, challengeable]\n"
    )
    spec = write_spec(tmp_path, "into-discard", body, title="a Wild Draw Four's cards go to the discard pile")
    completed = run_referee("diff", "uno", str(spec), "--no-solver", text=True, timeout=300)
    (line,) = [line for line in completed.stdout.splitlines() if line.startswith("  kinds.wild-draw-four.effects: ") and " -> " in line]
    a, b = line.split(": ", 1)[1].split("  (")[0].split(" -> ")
    assert a != b and len(a) <= 40 and len(b) <= 40, line
    assert "into=discard-pile" in b and a.startswith("...") and b.startswith("...")
