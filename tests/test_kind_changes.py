"""kinds-removed and kinds-renamed (referee.spec.kind_changes): a house spec drops or renames a kind it inherits,
and the deck, the options that name kinds, the logs and the rulebook's claims follow."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee
from referee.errors import SpecError
from referee.proof.claims import game_claims
from referee.rules.compiler import load_rules
from referee.spec.extends import load_spec

from helpers import write_spec

VARIANTS = Path(__file__).resolve().parent / "variant_specs"
HEADER = """players Ann Bob
round 1
dealer Bob
hand Ann red-1 red-5 red-7 blue-3 green-4 yellow-9 red-draw-two
hand Bob red-2 blue-5 green-7 yellow-4 red-skip blue-reverse wild
start red-9
"""


def test_a_renamed_kind_keeps_its_cards_and_its_old_name_reads_too() -> None:
    spec = load_spec(VARIANTS / "flip-draw-four.yaml")
    assert "wild-draw-four" in {kind.name for kind in spec.kinds} and "wild-draw-color" not in {kind.name for kind in spec.kinds}
    assert sum(token.endswith("/wild-draw-four") for token in spec.deck) == 4 and len(spec.deck) == 112
    assert spec.kinds_renamed == (("wild-draw-color", "wild-draw-four"),) and spec.root_name("wild-draw-four") == "wild-draw-color"
    catalogue = load_rules(VARIANTS / "flip-draw-four.yaml").catalogue
    assert catalogue.face("wild-draw-four", 1) is catalogue.face("wild-draw-color", 1) is catalogue.face("wild-draw-colour", 1)


def test_the_rulebook_claims_speak_of_the_kind_by_its_new_name() -> None:
    claims = {claim.id: claim for claim in game_claims(load_rules(VARIANTS / "flip-draw-four.yaml"))}
    assert claims["play.wild-draw-color"].figures.kind == "wild-draw-four"  # restated by the spec
    points = dict(claims["score.faces"].figures.points)  # the rulebook's, renamed
    assert points["wild-draw-four"] == 60 and "wild-draw-color" not in points


def test_a_renamed_draw_card_is_followed_by_the_stacking_table(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "plus-two", "extends: uno-progressive\nkinds-renamed: {draw-two: plus-two}\n")
    loaded = load_spec(spec)
    assert dict(loaded.options["stacking"]) == {"plus-two": ("plus-two", "wild-draw-four"), "wild-draw-four": ("wild-draw-four",)}
    header = HEADER.replace("yellow-4 red-skip", "yellow-4 red-draw-two")
    game = referee.Game.from_log(header + "Ann plays red-draw-two\nBob plays red-plus-two\n", spec=spec)  # old name, new name
    assert game.error is None and game.turn == "Ann"


def test_a_removed_kind_leaves_the_deck_and_the_options(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "no-wd4", "extends: uno-progressive\nkinds-removed: [wild-draw-four]\n")
    loaded = load_spec(spec)
    assert len(loaded.deck) == 104 and all("wild-draw-four" not in token for token in loaded.deck)
    assert dict(loaded.options["stacking"]) == {"draw-two": ("draw-two",)}
    game = referee.Game.from_log(HEADER + "Ann plays red-7\n", spec=spec)
    assert game.error is None
    bad = referee.Game.from_log(HEADER.replace(" wild\n", " wild-draw-four\n"), spec=spec)
    assert bad.error is not None and bad.error.code == "unknown-card"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("extends: uno\nkinds-removed: [wild-draw-five]\n", "kinds-removed: the spec it extends has no kind 'wild-draw-five'"),
        ("extends: uno\nkinds-renamed: {skip: reverse}\n", "kinds-renamed: the spec already has a kind 'reverse'"),
        ("extends: uno\nkinds-renamed: [skip]\n", "kinds-renamed is a mapping {OLD-KIND: NEW-KIND}"),
        ("extends: uno\nkinds-removed: skip\n", "kinds-removed is a list of kinds"),
        ("extends: uno\nkinds-renamed: {skip: Jump}\n", "'Jump' is not a kind's name"),
    ],
)
def test_a_change_names_kinds_the_spec_extends(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(SpecError) as raised:
        load_spec(write_spec(tmp_path, "changed", body))
    assert message in str(raised.value)


def test_a_change_needs_a_spec_to_extend(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent.parent / "specs" / "uno.yaml").read_text(encoding="utf-8")
    path = tmp_path / "own.yaml"
    path.write_text(text.replace("name: uno\n", "name: own\nkinds-removed: [skip]\n", 1), encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_spec(path)
    assert "'kinds-removed' changes the spec this one extends: it needs an 'extends' line" in str(raised.value)
