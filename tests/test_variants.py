"""The variants a house-rule author writes first (issue 41), each a house spec of a few lines under
tests/variant_specs/ (or shipped): it proves, ``diff`` against its base shows exactly its change with a game that
one spec accepts and the other rejects at the line where they differ, and a simulated game of it checks valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.checking.replay import check_path
from referee.diff.compare import Conclusion, compare
from referee.play.simulate import simulate_game
from referee.rules.compiler import load_rules
from referee.spec.extends import resolve_spec
from referee.spec.paths import SPECS

from helpers import run_referee

VARIANTS = Path(__file__).resolve().parent / "variant_specs"

# variant: (its spec file, the spec it extends, the items of the spec that change what is played)
CASES = {
    "catch-four": (VARIANTS / "catch-four.yaml", "uno", {"options.uno-catch-penalty"}),
    "to-250": (VARIANTS / "to-250.yaml", "uno", {"options.target"}),
    "forced-play": (SPECS / "house-forced-play.yaml", "uno", {"options.forced-play"}),
    "doubles": (SPECS / "house-doubles.yaml", "uno", {"options.doubles"}),
    "skip-on-skip": (VARIANTS / "skip-on-skip.yaml", "uno", {"options.jump-in"}),
    # kinds-renamed: the renamed kind is compared with itself, so its new effects show by a game of their own
    "flip-draw-four": (VARIANTS / "flip-draw-four.yaml", "uno-flip", {"kinds.wild-draw-color.effects", "kinds.wild-draw-color.name"}),
    # kinds-removed: the kind goes with its cards, so the two are one difference, shown by the deck
    "no-wild-draw-four": (VARIANTS / "no-wild-draw-four.yaml", "uno", {"deck.cards", "kinds.wild-draw-four"}),
}
MOVES_WITH_THE_DECK = {"kinds.wild-draw-four"}  # shown by the deck's game


@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_variant_is_a_house_spec_of_at_most_thirty_lines(variant: str) -> None:
    path, base, _ = CASES[variant]
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 30 and f"extends: {base}\n" in text


@pytest.mark.parametrize("variant", sorted(CASES))
def test_diff_shows_exactly_the_variant_by_a_game_each_spec_judges(variant: str, tmp_path: Path) -> None:
    path, base, changed = CASES[variant]
    base_path = resolve_spec(base, None)
    comparison = compare(base_path, path, (base, str(path)))
    assert comparison.status is Conclusion.DIFFERENT
    assert {difference.item for difference in comparison.behaviour} == changed
    assert {shown.item for shown in comparison.games} == changed - MOVES_WITH_THE_DECK and comparison.unshown == ()
    specs = {comparison.a.name: base_path, comparison.b.name: path}
    for number, shown in enumerate(comparison.games):
        log = tmp_path / f"game-{number}.log"
        log.write_text(shown.log, encoding="utf-8")
        accepted = check_path(log, spec_override=specs[shown.accepted_by.name])
        rejected = check_path(log, spec_override=specs[shown.rejected_by.name])
        assert accepted.valid, accepted.errors
        assert not rejected.valid and rejected.errors[0].line == shown.line == shown.log.count("\n")


@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_simulated_game_of_a_variant_checks_valid(variant: str, tmp_path: Path) -> None:
    path, _, _ = CASES[variant]
    log = tmp_path / "game.log"
    log.write_text(simulate_game(load_rules(path), 3, seed=7, target=100), encoding="utf-8")
    verdict = check_path(log, spec_override=path)
    assert verdict.valid and verdict.game_winner is not None, verdict.errors


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_variant_proves(variant: str) -> None:
    """Every claim of the rulebook the variant changes is restated, and the restated claims hold (prove exits 0)."""
    path, _, _ = CASES[variant]
    completed = run_referee("prove", "--spec", str(path), text=True, timeout=600)
    assert completed.returncode == 0, completed.stdout
    assert " 0 refuted, 0 unknown" in completed.stdout
