"""Issue 43 item 4: a rule's summary or ruling whose numbers the spec's own figures contradict is flagged
(``rules --lint``, ``prove``'s wording section), and ``--declare`` restates the rule so that it no longer is."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.commands.cli import execute as run
from referee.proof.wording import Figure, contradicted, lint, numbers_stated
from referee.spec.extends import load_spec
from referee.spec.paths import SPECS, shipped_spec_names

from helpers import write_spec


def test_numbers_are_read_in_digits_and_words_but_not_in_card_names() -> None:
    assert numbers_stated("the caught player draws two cards; the deck is 108 cards") == {2, 108}
    assert numbers_stated("a Draw Two or a Wild Draw Four, see ruling 21; cards 1-9") == set()
    assert numbers_stated("Fifty points, or Twenty") == {50, 20}


def test_a_text_is_flagged_only_when_it_states_the_old_number_and_not_the_new() -> None:
    figure = Figure("option uno-catch-penalty", 2, 4)
    assert contradicted("the caught player draws two cards", [figure]) == [figure]
    assert contradicted("the caught player draws four cards (two in the rulebook)", [figure]) == []
    assert contradicted("the caught player draws the penalty", [figure]) == []


@pytest.mark.parametrize("name", shipped_spec_names())
def test_no_shipped_spec_has_words_its_figures_contradict(name: str) -> None:
    spec = load_spec(SPECS / f"{name}.yaml")
    assert [finding.message() for finding in lint(spec)] == []


def test_an_option_changed_under_an_inherited_ruling_is_flagged_and_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write_spec(tmp_path, "catch", "extends: uno\noptions:\n  uno-catch-penalty: {value: 4}\n")
    assert run(["rules", "--lint", "--spec", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "specs/uno.yaml:317: rule uno.catch: it cites ruling 22, which says 2 where the spec's option uno-catch-penalty is 4" in out
    assert run(["rules", "--spec", str(spec), "uno.catch"]) == 0
    assert "ruling 22 (the rulebook's; this spec's option uno-catch-penalty is 4): " in capsys.readouterr().out
    assert run(["prove", "--spec", str(spec), "--players", "3", "--claim", "uno.catch"]) == 1  # one claim: no lint
    assert " wording " not in capsys.readouterr().out
    assert run(["prove", "--spec", str(spec), "--players", "3", "--declare"]) == 1
    block = capsys.readouterr().out
    assert 'rules:\n  - id: uno.catch\n    summary: "House rule - ' in block
    spec.write_text(spec.read_text(encoding="utf-8") + block, encoding="utf-8")  # pasted as printed
    assert run(["rules", "--lint", "--spec", str(spec)]) == 0
    assert run(["prove", "--spec", str(spec), "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert " wording " not in out and " next: " not in out


def test_an_inherited_summary_that_keeps_the_old_deck_size_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SPECS / "uno-2018.yaml").read_text(encoding="utf-8")
    start, end = text.index("  - id: deck.composition"), text.index("  - id: score.values")
    spec = tmp_path / "deck.yaml"
    spec.write_text(text[:start].replace("name: uno-2018", "name: deck") + text[end:], encoding="utf-8")
    assert run(["rules", "--lint", "--spec", str(spec), "--format", "json"]) == 1
    assert '"figure": "cards in the deck",\n   "rulebook": 108,\n   "spec": 112' in capsys.readouterr().out
    assert run(["prove", "--spec", str(spec), "--players", "3", "--claim", "deck.cards"]) == 0
    capsys.readouterr()
    assert run(["prove", "--spec", str(spec), "--players", "3", "--declare"]) == 1
    out = capsys.readouterr().out
    assert (
        "its summary says 108 where the spec's cards in the deck is 112: the summary says 112 now" in out and "The deck is 112 cards" in out
    )


def test_a_house_rule_summary_shows_its_ruling_as_the_rulebooks(capsys: pytest.CaptureFixture[str]) -> None:
    """house-short-game's Draw Five draws four under ruling 14's "five cards": declared a house rule, not flagged."""
    assert run(["rules", "--lint", "--spec", "house-short-game"]) == 0
    capsys.readouterr()
    assert run(["rules", "--spec", "house-short-game", "card.draw-five"]) == 0
    assert "ruling 14 (the rulebook's; this spec's next-player-draws of draw-five is 4): " in capsys.readouterr().out


def test_lint_takes_no_rule_id() -> None:
    assert run(["rules", "--lint", "uno.catch"]) == 2
