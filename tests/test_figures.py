"""A claim's figures: one typed record per form, read from YAML, shown as JSON and written back unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.proof import claims
from referee.proof.claims import rulebook
from referee.proof.claims.challenge import ChallengeFigures
from referee.proof.claims.deck import DeckFigures
from referee.proof.claims.figures import NO_FIGURES, ClaimReader
from referee.proof.claims.play import PlayFigures
from referee.proof.claims.start import StartFigures
from referee.proof.claims.table import TableFigures
from referee.proof.declare import _flow
from referee.spec.loader import Mapping, load_text


def _shipped_claims() -> list[claims.Claim]:
    found = []
    for game in ("uno", "uno-flip"):
        found.extend(rulebook._file_claims(game))
    return found


def _read(form: str, text: str) -> object:
    tree = load_text(f"{form}: {text}\n", "claim.yml")
    node = tree.entries[form]
    assert isinstance(node, Mapping)
    reader = ClaimReader("claim.yml")
    figures = claims.FORMS_BY_NAME[form].read(reader, node)
    assert reader.problems == []
    return figures


@pytest.mark.parametrize("claim", _shipped_claims(), ids=lambda claim: claim.id)
def test_written_figures_read_back_as_the_same_record(claim: claims.Claim) -> None:
    assert _read(claim.form, _flow(claim.figures.written())) == claim.figures


def test_each_form_reads_its_own_record_and_json_keeps_the_claim_keys() -> None:
    forms = {claim.form: type(claim.figures) for claim in _shipped_claims()}
    assert forms["play"] is PlayFigures and forms["deck"] is DeckFigures and forms["table"] is TableFigures
    play = _read("play", "{kind: draw-two, next: 1, owes: 2, colour: card}")
    assert play == PlayFigures("draw-two", 1, "card", owes=2)
    assert play.to_json() == {
        "kind": "draw-two",
        "players": "any",
        "next": 1,
        "direction": "same",
        "side": "same",
        "owes": 2,
        "colour": "card",
        "restricted": False,
        "challengeable": False,
    }
    assert play.written() == {"kind": "draw-two", "next": 1, "owes": 2, "colour": "card"}
    assert _read("start", "{kind: reverse, returned: true}").to_json() == {"kind": "reverse", "returned": True}  # type: ignore[attr-defined]
    assert _read("challenge", "{never: true}") == ChallengeFigures(never=True)
    assert _read("table", "{hand-size: 8}").to_json() == {"hand-size": 8}  # type: ignore[attr-defined]
    assert NO_FIGURES.to_json() == {}


def test_a_claim_holds_its_own_forms_figures() -> None:
    """``Claim[F]``: each claim read carries the record of its own form, so a form's questions read ``claim.figures``
    as that record (no cast anywhere in the claim forms' modules)."""
    shipped = [claim for claim in _shipped_claims() if not claim.withdrawn]
    assert len({claim.form for claim in shipped}) >= 8
    for claim in shipped:
        assert type(claim.figures) is claims.FORMS_BY_NAME[claim.form].figures, claim.id
    start = next(claim for claim in shipped if claim.form == "start")
    assert isinstance(start.figures, StartFigures) and not isinstance(start.figures, PlayFigures)
    for module in Path(claims.__file__).parent.glob("*.py"):
        assert "cast(" not in module.read_text(encoding="utf-8") and "figures_of" not in module.read_text(encoding="utf-8")


def test_a_misread_figure_is_a_problem_with_its_position() -> None:
    tree = load_text("play: {kind: skip, next: two, colour: card}\n", "claim.yml")
    node = tree.entries["play"]
    assert isinstance(node, Mapping)
    reader = ClaimReader("claim.yml")
    PlayFigures.read(reader, node)
    assert [(str(position), message) for position, message in reader.problems] == [("claim.yml:1:26", "next must be a whole number")]
