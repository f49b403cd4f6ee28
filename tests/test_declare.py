"""Issue 27, points 8 and 9: a house rule declared in one go (``prove --declare``), and an inherited claim withdrawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.commands.cli import execute as run

from helpers import write_spec

HOUSES = {
    # a Draw Two that draws 3: three claims at once under progressive stacking
    "draw-three": (
        "extends: uno-progressive\nkinds:\n  draw-two: {effects: [{next-player-draws: 3}]}\n",
        ["play.draw-two", "start.draw-two", "stack.draw-two"],
    ),
    # a two-player Reverse that only reverses: the option and the play claim
    "reverse": (
        "extends: uno\noptions:\n  two-player-reverse: {value: reverse}\n",
        ["play.reverse.two-players", "option.two-player-reverse"],
    ),
    # the catch penalty: the option and the catch claim
    "catch": ("extends: uno-flip\noptions:\n  uno-catch-penalty: {value: 4}\n", ["uno.catch", "option.uno-catch-penalty"]),
}


# the quick tier proves for one player count (two for the two-player Reverse); the slow tier for the whole range
COUNTS = {"draw-three": ["--players", "3"], "reverse": ["--players", "2"], "catch": ["--players", "4"]}


@pytest.mark.parametrize(
    ("name", "whole"), [*((name, False) for name in sorted(HOUSES)), pytest.param("draw-three", True, marks=pytest.mark.slow)]
)
def test_declare_prints_every_claim_the_change_makes_untrue_and_the_spec_then_proves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, whole: bool
) -> None:
    body, ids = HOUSES[name]
    spec = write_spec(tmp_path, name, body)
    counts = [] if whole else COUNTS[name]
    assert run(["prove", "--spec", str(spec), "--no-cache", *counts]) == 1  # refuted as it stands
    capsys.readouterr()
    assert run(["prove", "--spec", str(spec), "--declare", "--no-cache", *counts]) == 1
    block = capsys.readouterr().out
    claims = block.split("\nrules:\n")[0]  # then the rules whose words the figures contradict (test_wording.py)
    assert [line.split("id: ")[1] for line in claims.splitlines() if line.startswith("  - id: ")] == ids
    assert "restate by hand" not in block
    spec.write_text(spec.read_text(encoding="utf-8") + "\n".join(line for line in block.splitlines() if not line.startswith("#")) + "\n")
    assert run(["prove", "--spec", str(spec), "--no-cache", *counts]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert run(["prove", "--spec", str(spec), "--declare", "--no-cache", *counts]) == 0
    assert "nothing to declare" in capsys.readouterr().out


def test_declare_on_a_shipped_spec_has_nothing_to_declare(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["prove", "--spec", "uno-progressive", "--declare", "--players", "3"]) == 0
    assert capsys.readouterr().out == "# uno-progressive: every claim in force holds; nothing to declare\n"


def test_the_draw_three_block_reads_as_yaml_with_the_spec_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "three", HOUSES["draw-three"][0])
    run(["prove", "--spec", str(spec), "--declare", "--no-cache", "--players", "3"])
    out = capsys.readouterr().out
    assert "    play: {kind: draw-two, next: 1, owes: 3, colour: card}" in out
    assert "    start: {kind: draw-two, to-act: 1, owes: 3, colour: card}" in out
    assert "    stack: {kind: draw-two, adds: 3}" in out
    assert "': owes 3, not 2" in out and "House rule - House rule" not in out


TWOS = (
    "extends: uno-progressive\noptions:\n  stacking: {value: {draw-two: [STACK]}}\nclaims:\n"
    "  - id: option.stacking\n    statement: House rule - what goes on a Draw Two owed.\n"
    "    source: {key: house, section: Progressive stacking}\n    option: {stacking: {draw-two: [STACK]}}\n"
    "  - id: stack.wild-draw-four\n    withdrawn: only Draw Twos stack at this table\n"
)


def test_a_withdrawn_claim_is_proved_when_what_it_speaks_of_never_arises(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point 9: built on uno-progressive, stacking only Draw Twos: stack.wild-draw-four withdrawn, with the reason printed."""
    spec = write_spec(tmp_path, "twos", TWOS.replace("STACK", "draw-two"))
    assert run(["prove", "--spec", str(spec), "--no-cache", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "stack.wild-draw-four         proved" in out
    assert "withdrawn by the spec (only Draw Twos stack at this table): the spec's option stacking lets no wild-draw-four" in out


def test_a_withdrawal_is_refuted_where_the_claim_still_speaks_of_something(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "fours", TWOS.replace("STACK", "draw-two, wild-draw-four"))
    assert run(["prove", "--spec", str(spec), "--no-cache", "--claim", "stack.wild-draw-four"]) == 1
    out = capsys.readouterr().out
    assert "stack.wild-draw-four         refuted" in out and "a wild-draw-four may still go on draw-two: restate the claim instead" in out


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        ("option.stacking", "is an option claim, which always speaks of the spec"),
        ("stack.wild-drw-four", "its rulebook has no such claim (did you mean 'stack.wild-draw-four'?)"),
    ],
)
def test_only_a_claim_about_a_situation_can_be_withdrawn(tmp_path: Path, capsys: pytest.CaptureFixture[str], claim: str, says: str) -> None:
    spec = write_spec(tmp_path, "bad", f"extends: uno-progressive\nclaims:\n  - id: {claim}\n    withdrawn: not here\n")
    assert run(["prove", "--spec", str(spec), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_withdrawn_play_claim_of_a_kind_the_spec_removed_is_proved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A play claim withdrawn from the classic rulebook (its claims file): the kind is gone from the deck."""
    spec = write_spec(tmp_path, "noskip", "extends: uno\nclaims:\n  - id: play.skip\n    withdrawn: no Skip in this deck\n")
    assert run(["prove", "--spec", str(spec), "--claim", "play.skip", "--no-cache"]) == 1  # the deck still has Skips
    assert "a skip is still played: restate the claim instead" in capsys.readouterr().out


def _classic_112_without_claims(tmp_path: Path) -> Path:
    """The shipped 112-card deck (specs/uno-2018.yaml) as a house author first writes it: kinds, rules and deck, no claims."""
    from referee.spec.paths import SPECS

    text = (SPECS / "uno-2018.yaml").read_text(encoding="utf-8")
    head, rest = text.split("\nclaims:\n", 1)
    spec = tmp_path / "classic-112.yaml"
    spec.write_text(head.replace("name: uno-2018", "name: classic-112") + "\n" + rest[rest.index("\ndeck:\n") :], encoding="utf-8")
    return spec


def test_the_112_card_deck_is_declared_in_one_paste_deck_and_points_included(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 43 items 1 and 2: the refuted deck claim and invariant say what fixes them, ``--declare`` reads the deck
    and every kind's points back (the new kinds too), and its output pasted as printed proves."""
    spec = _classic_112_without_claims(tmp_path)
    assert run(["prove", "--spec", str(spec), "--players", "3"]) == 1
    report = capsys.readouterr().out
    assert "deck.cards                   refuted" in report and "cards.conservation           refuted" in report
    assert "counts the 108 cards of the deck claim in force (deck.cards), and the spec's deck has 112" in report
    assert report.rstrip().endswith(f"'referee prove --spec {spec} --declare' prints what to restate")
    assert run(["prove", "--spec", str(spec), "--players", "3", "--declare"]) == 1
    block = capsys.readouterr().out
    assert "restate by hand" not in block and "figures: )" not in block
    assert "# Restating deck.cards also settles the invariant cards.conservation" in block
    assert "cards: 112" in block and "wild-shuffle-hands: 1, wild-customizable: 3" in block
    assert "wild-shuffle-hands: 40, wild-customizable: 40" in block  # score.faces names the new kinds' points
    spec.write_text(spec.read_text(encoding="utf-8") + block, encoding="utf-8")  # pasted as printed
    assert run(["prove", "--spec", str(spec), "--players", "3"]) == 0, capsys.readouterr().out


def test_score_faces_refutes_a_kind_it_does_not_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A points claim speaks of every face: a kind the spec adds and the claim leaves out is refuted, not passed over."""
    spec = _classic_112_without_claims(tmp_path)
    assert run(["prove", "--spec", str(spec), "--claim", "score.faces", "--players", "3"]) == 1
    assert "the claim does not say what a wild-customizable scores" in capsys.readouterr().out


def test_a_switch_is_restated_without_contradicting_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "jump", "extends: uno\noptions:\n  jump-in: {value: true}\n")
    assert run(["prove", "--spec", str(spec), "--players", "3", "--declare"]) == 1
    block = capsys.readouterr().out
    assert "instead of 'Only the player whose turn it is plays: no jump-in': jump-in true, not false" in block
    spec.write_text(spec.read_text(encoding="utf-8") + block, encoding="utf-8")
    assert run(["prove", "--spec", str(spec), "--players", "3"]) == 0


def test_declare_on_a_spec_with_claims_prints_items_to_add(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second --declare on a spec that already has a claims: list prints the items alone, restated from the
    rulebook's statement (not 'instead of' twice)."""
    spec = write_spec(tmp_path, "catch", "extends: uno\noptions:\n  uno-catch-penalty: {value: 4}\n")
    run(["prove", "--spec", str(spec), "--players", "3", "--declare"])
    spec.write_text(spec.read_text(encoding="utf-8") + capsys.readouterr().out, encoding="utf-8")
    spec.write_text(spec.read_text(encoding="utf-8").replace("value: 4", "value: 5"), encoding="utf-8")
    assert run(["prove", "--spec", str(spec), "--players", "3", "--declare"]) == 1
    block = capsys.readouterr().out
    assert "\nclaims:" not in block and "add these items to it, each in place of any item with the same id" in block
    assert block.count("instead of") == 2 and "cards 5, not 4" in block


def test_counterexamples_are_short_in_text_and_whole_with_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 43 item 1: the text report shows the end of a counterexample (no long shuffle line); --out writes each
    whole, as a log that check accepts under the spec."""
    spec = write_spec(tmp_path, "catch", "extends: uno\noptions:\n  uno-catch-penalty: {value: 4}\n")
    assert run(["prove", "--spec", str(spec), "--players", "3"]) == 1
    short = capsys.readouterr().out
    assert "counterexample (the end of it;" in short and "# replay:" not in short
    assert max(len(line) for line in short.splitlines() if not line.startswith("    proved")) < 220
    out = tmp_path / "refuted"
    assert run(["prove", "--spec", str(spec), "--players", "3", "--out", str(out)]) == 1
    report = capsys.readouterr().out
    written = sorted(path.name for path in out.iterdir())
    assert written == ["catch.option.uno-catch-penalty.log", "catch.uno.catch.log"]
    assert f"counterexample: {out / 'catch.uno.catch.log'} (" in report
    log = (out / "catch.uno.catch.log").read_text(encoding="utf-8")
    assert log.startswith("# counterexample to uno.catch") and "\nshuffle " in log
    assert run(["check", "--spec", str(spec), str(out / "catch.uno.catch.log")]) == 0
