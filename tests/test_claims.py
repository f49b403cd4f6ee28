"""Claims and the prover's own mutation test: every invariant, claim and gap is refuted by some broken spec.

Each spec in ``tests/broken_specs/`` changes one thing the way a spec author
slips and says on its second line which invariants, claims and gaps it
breaks (``# refutes: a, b``). ``prove`` must refute exactly those, each with a
counterexample game that ``referee check --spec`` replays to the violating
step. Harmless variants (``tests/harmless_specs/``: declared options within
their domain, a reworded rule) must prove in full.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.checking.replay import Replay
from referee.engine.engine import Engine
from referee.errors import SpecError
from referee.log import events as ev
from referee.play.simulate import Simulator
from referee.proof import claims as claims_module
from referee.proof.claims import catch, challenge, deck, matching, play, points, stack, start, steps, table
from referee.proof.invariants import invariant_violation, load_invariants
from referee.proof.invariants import snapshot as _snapshot
from referee.proof.prove import deck_size, prove_spec
from referee.rules.compiler import load_rules
from referee.verdicts import Diagnostic

from helpers import REFEREE, run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
BROKEN = sorted((ROOT / "tests" / "broken_specs").rglob("*.yaml"))  # classic UNO's in broken_specs/classic/
CLASSIC_BROKEN = [spec for spec in BROKEN if spec.parent.name == "classic"]
HARMLESS = sorted((ROOT / "tests" / "harmless_specs").glob("*.yaml"))
SHIPPED = sorted((ROOT / "specs").glob("*.yaml"))
# The quick tier proves a few of these (test_prove.py proves both games' official specs); the slow tier all.
QUICK_PROVE: set[str] = set()  # the quick tier proves the shipped uno spec (tests/test_prove.py); all of these run slow


def _tiered(specs: list[Path], quick: set[str]) -> list[Any]:
    return [spec if spec.stem in quick else pytest.param(spec, marks=pytest.mark.slow) for spec in specs]


INVARIANTS = load_invariants()
OFFICIAL = load_rules(ROOT / "specs" / "uno-flip.yaml")
CLAIMS = claims_module.game_claims(OFFICIAL)
QUICK = {"deck-111"}  # one slip in the quick tier; the slow tier refutes every one


def _refutes(spec: Path) -> set[str]:
    found = re.search(r"^# refutes: (.+)$", spec.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"{spec.name} does not say what it refutes"
    return {item.strip() for item in found.group(1).split(",")}


def test_every_invariant_claim_and_gap_is_refuted_by_some_broken_spec() -> None:
    refuted = set().union(*(_refutes(spec) for spec in BROKEN if spec not in CLASSIC_BROKEN))
    every = {i.id for i in INVARIANTS.invariants} | {g.id for g in INVARIANTS.gaps}
    every |= {claim.id for claim in CLAIMS}
    assert not every - refuted, f"nothing refutes: {sorted(every - refuted)}"
    assert len(CLAIMS) >= 25


def test_every_claim_of_classic_uno_is_refuted_by_some_broken_classic_spec() -> None:
    """Classic UNO's claims are its own (a Draw Two, a Wild Draw Four, 108 cards): each is refuted by a slip in a
    classic spec (tests/broken_specs/classic/), as are the invariants that can fail without a Flip."""
    refuted = set().union(*(_refutes(spec) for spec in CLASSIC_BROKEN))
    classic = load_rules(ROOT / "specs" / "uno.yaml")
    every = {claim.id for claim in claims_module.game_claims(classic) if claim.applies(classic)}
    every |= {"cards.conservation", "colour.of-side"}
    assert not every - refuted, f"nothing refutes: {sorted(every - refuted)}"
    assert all(load_rules(spec).spec.game == "uno" for spec in CLASSIC_BROKEN)


def _replay(log: Path, spec: Path, judge: Any) -> tuple[list[str], bool]:
    found: list[str] = []
    previous: list[Any] = [None]

    def remember(engine: Engine, event: ev.Event) -> None:
        previous[0] = judge.remember(engine)

    def check(engine: Engine, event: ev.Event, diagnostic: Diagnostic | None) -> None:
        problem = judge.check(previous[0], engine, event)
        if problem:
            found.append(problem)

    replay = Replay(str(log), log.parent, spec, on_event=remember, after_event=check)
    with log.open("rb") as stream:
        verdict = replay.run(stream)
    return found, verdict.valid


class _InvariantJudge:
    def __init__(self, invariant_id: str, rules: Any) -> None:
        self.id = invariant_id
        self.cards = deck_size(rules, INVARIANTS)

    def remember(self, engine: Engine) -> Any:
        return _snapshot(engine) if engine.state.hands else None

    def check(self, previous: Any, engine: Engine, event: ev.Event) -> str | None:
        return invariant_violation(self.id, self.cards, previous, engine, event)


class _ClaimJudge:
    def __init__(self, claim: Any, rules: Any) -> None:
        self.claim, self.rules = claim, rules

    def remember(self, engine: Engine) -> Any:
        return claims_module.before(engine) if engine.state.players else None

    def check(self, previous: Any, engine: Engine, event: ev.Event) -> str | None:
        return claims_module.claim_violation(self.claim, self.rules, previous, engine, event)


def _broken(spec: Path, tmp_path: Path) -> None:
    result = prove_spec(spec, INVARIANTS)
    refuted = {o.id for o in [*result.invariants, *result.claims] if o.status == "refuted"}
    refuted |= {gap.id for gap in result.gaps if not gap.closed}
    assert refuted == _refutes(spec)
    rules = load_rules(spec)
    claims = {claim.id: claim for claim in claims_module.game_claims(rules)}
    for outcome in [*result.invariants, *result.claims]:
        if outcome.status != "refuted":
            continue
        assert outcome.counterexample is not None, f"{outcome.id}: no counterexample"
        if "# no game can show it:" in outcome.counterexample:  # an option about faces the spec has none of, a start
            assert claims[outcome.id].form in ("option", "start", "stack") and "refutation of" in outcome.counterexample
            continue
        log = tmp_path / f"{outcome.id}.log"
        log.write_text(outcome.counterexample, encoding="utf-8")
        checked = run_referee("check", "--spec", str(spec), str(log), text=True, timeout=120)
        if outcome.id == "table.players":  # a table the rulebook allows turned away, or one it does not allow accepted
            turned_away = "turns the table away" in outcome.counterexample
            assert (checked.returncode == 1 and ":3: bad-setup" in checked.stdout) if turned_away else checked.returncode == 0
            continue
        assert checked.returncode == 0, checked.stdout
        judge = _ClaimJudge(claims[outcome.id], rules) if outcome.id in claims else _InvariantJudge(outcome.id, rules)
        if outcome.id in claims and claims[outcome.id].form in ("points", "matching", "deck", "table"):
            pass  # finite claims: the log shows the case; the replay below still reaches it
        found, valid = _replay(log, spec, judge)
        assert valid and found, f"{outcome.id}: the counterexample does not reach a violating step"


@pytest.mark.parametrize("spec", [s for s in BROKEN if s.stem in QUICK], ids=lambda s: s.stem)
def test_broken_specs_quick(spec: Path, tmp_path: Path) -> None:
    _broken(spec, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for s in BROKEN if s.stem not in QUICK], ids=lambda s: s.stem)
def test_broken_specs_all(spec: Path, tmp_path: Path) -> None:
    _broken(spec, tmp_path)


@pytest.mark.parametrize("spec", _tiered(HARMLESS + SHIPPED, QUICK_PROVE), ids=lambda s: s.stem)
def test_harmless_variants_and_shipped_specs_prove(spec: Path) -> None:
    result = prove_spec(spec, INVARIANTS, counterexamples=False)
    statuses = {o.id: o.status for o in [*result.invariants, *result.claims]}
    assert set(statuses.values()) == {"proved"}, {k: v for k, v in statuses.items() if v != "proved"}
    in_force = [claim for claim in claims_module.game_claims(load_rules(spec)) if claim.applies(load_rules(spec))]
    assert len(result.claims) == len(in_force) >= 22  # every claim in force (one of the two two-player Reverse claims)
    assert all(gap.closed for gap in result.gaps)


@pytest.mark.parametrize("spec", SHIPPED + HARMLESS, ids=lambda s: s.stem)
def test_concrete_forms_never_fire_on_rules_that_prove(spec: Path) -> None:
    """The concrete check of every invariant and claim is silent on real games under a spec that proves (no false alarm)."""
    rules = load_rules(spec)
    judges: list[Any] = [_InvariantJudge(i.id, rules) for i in INVARIANTS.invariants]
    judges += [_ClaimJudge(claim, rules) for claim in claims_module.game_claims(rules) if claim.applies(rules)]
    for seed in range(4):
        simulator = Simulator(rules, 2 + seed % 4, seed, "full", max_rounds=2)
        remembered: list[Any] = []

        def remember(engine: Engine, event: ev.Event, remembered: list[Any] = remembered) -> None:
            remembered[:] = [judge.remember(engine) for judge in judges]

        def check(engine: Engine, event: ev.Event, remembered: list[Any] = remembered, seed: int = seed) -> None:
            for judge, previous in zip(judges, remembered, strict=True):
                problem = judge.check(previous, engine, event)
                assert problem is None, f"{spec.stem} seed {seed} {getattr(judge, 'id', getattr(judge, 'claim', None))}: {problem}"

        simulator.before_step = remember
        simulator.on_step = check
        for _ in simulator.events():
            pass


@pytest.mark.slow
def test_a_house_spec_that_changes_play_must_restate_the_claim(tmp_path: Path) -> None:
    shipped = (ROOT / "specs" / "house-short-game.yaml").read_text(encoding="utf-8")
    assert "claims:" in shipped
    unsaid = tmp_path / "short.yaml"
    (tmp_path / "base.yaml").write_bytes((ROOT / "specs" / "uno-flip.yaml").read_bytes())  # beside it: extends stays in its folder
    unsaid.write_text(shipped.split("# The rulebook's claim")[0].replace("extends: uno-flip", "extends: base.yaml"))
    result = prove_spec(unsaid, INVARIANTS, counterexamples=False)
    assert {o.id for o in result.claims if o.status == "refuted"} == {"play.draw-five", "option.target"}


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ("  - {id: x, statement: s, source: {key: manual, section: a}}", "needs exactly one of"),
        ("  - {id: x, statement: s, source: {key: nowhere, section: a}, points: {wild: 40}}", "unknown source 'nowhere'"),
        ("  - {id: x, statement: s, source: {key: manual, section: a}, play: {kind: skip, next: two, colour: card}}", "next must be"),
        ("  - {id: x, statement: s, source: {key: manual, section: a}, play: {kind: skip, next: 2, colour: red}}", "colour is one of"),
        ("  - {id: x, statement: s, source: {key: manual, section: a}, table: {seats: 4}}", "unknown key 'seats'"),
    ],
)
def test_malformed_claims_are_spec_errors_with_positions(tmp_path: Path, claim: str, message: str) -> None:
    spec = write_spec(tmp_path, "bad-claim", f"extends: uno-flip\nclaims:\n{claim}\n")
    with pytest.raises(SpecError) as caught:
        claims_module.game_claims(load_rules(spec))
    rendered = caught.value.render()
    assert message in rendered and f"{spec}:5:" in rendered


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_prove_lists_claims_in_text_json_and_junit(tmp_path: Path) -> None:
    import json

    junit = tmp_path / "proofs.xml"
    broken = str(ROOT / "tests" / "broken_specs" / "skip-everyone-skips-one.yaml")
    args = [*REFEREE, "prove", "--spec", broken, "--players", "3", "--format", "json", "--junit", str(junit)]
    completed = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 1
    (result,) = json.loads(completed.stdout)["specs"]
    claims = {claim["id"]: claim for claim in result["claims"]}
    assert claims["play.skip-everyone"]["status"] == "refuted" and claims["play.skip"]["status"] == "proved"
    assert claims["play.skip-everyone"]["source"].startswith("UNO Flip! instruction sheet")
    assert claims["play.skip-everyone"]["counterexample"].startswith("# counterexample to play.skip-everyone")
    assert junit.read_text().count("<testcase") == len(result["invariants"]) + len(result["claims"]) + len(result["gaps"])
    text = subprocess.run(args[:-4], capture_output=True, text=True, timeout=300).stdout
    assert " claims:" in text and "the rulebook: UNO Flip! instruction sheet" in text


@pytest.mark.slow
@pytest.mark.parametrize("keep_game_line", [True, False], ids=["with-game-line", "without"])
def test_a_whole_copy_of_the_spec_under_another_name_is_held_to_the_claims(tmp_path: Path, keep_game_line: bool) -> None:
    """A slip made in a full copy (not an ``extends``) is refuted like the same slip in a house spec."""
    text = (ROOT / "specs" / "uno-flip.yaml").read_text(encoding="utf-8")
    assert "\ngame: uno-flip\n" in text and "hand-size: 7" in text
    text = text.replace("name: uno-flip", "name: my-copy", 1).replace("hand-size: 7", "hand-size: 8", 1)
    if not keep_game_line:
        text = text.replace("\ngame: uno-flip\n", "\n", 1)
    copy = tmp_path / "my-copy.yaml"
    copy.write_text(text, encoding="utf-8")
    result = prove_spec(copy, INVARIANTS, counterexamples=False)
    assert result.game == "uno-flip" and result.claims_file is True
    assert {o.id for o in result.claims if o.status == "refuted"} == {"table.hand-size"}


@pytest.mark.slow
def test_a_new_game_without_claims_is_said_to_have_none(tmp_path: Path) -> None:
    text = (ROOT / "specs" / "uno-flip.yaml").read_text(encoding="utf-8").replace("\ngame: uno-flip\n", "\ngame: my-game\n", 1)
    spec = tmp_path / "my-game.yaml"
    spec.write_text(text.replace("name: uno-flip", "name: my-game", 1), encoding="utf-8")
    result = run_referee("prove", "--spec", str(spec), text=True, timeout=300)
    assert result.returncode == 0
    assert "claims: none: game 'my-game' has no claims file (specs/claims/my-game.yml); only the invariants were proved" in result.stdout


def test_a_house_spec_cannot_change_its_game(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, "escape", "extends: uno-flip\ngame: escape\ntable: {hand-size: 8}\n")
    with pytest.raises(SpecError) as caught:
        load_rules(spec)
    assert f"{spec}:4:1: error: 'game' is inherited from the spec this one extends" in caught.value.render()


def test_no_claim_question_reads_its_figure_from_the_spec_under_test() -> None:
    """Issue 19: a claim states the rulebook's figure; the questions and checks of every form but ``option`` (whose
    check is the comparison of the spec's option with the claim's value) read no option of the spec under test, so a
    slip in an option (a catch penalty of 4, a target of 50) cannot pass as the rulebook's."""
    import inspect

    questions = [
        play.play_question,
        start.start_question,
        challenge.challenge_question,
        catch.catch_question,
        stack.stack_question,
        table.hand_size_question,
        start.start_possible,
        play.restriction_problem,
        points.points_problem,
        matching.matching_problem,
        deck.deck_problem,
        table.table_problem,
        challenge._challenge_violation,
        steps.compare_after,
    ]
    source = "".join(inspect.getsource(question) for question in questions)
    forms = claims_module.FORMS_BY_NAME  # each form defined once: read, answered, checked on a step
    assert set(forms) == set(claims_module.FORMS) and all(name == form.name for name, form in forms.items())
    checks = {name: form.check for name, form in forms.items()}  # all but the option form's read the tables below
    source += inspect.getsource(claims_module.claim_violation)
    source += "".join(inspect.getsource(check) for form, check in checks.items() if form != "option")
    reads = (
        "innocent_extra",
        "catch_penalty",
        "rules.target",
        "two_player_reverse",
        "spec.options",
        "settings",
        "rules.stacking",
        "seven_swaps",
        "zero_rotates",
        "jump_in",
        "draw_until_playable",
        "start_colour",
        "flip_colour",
        "own_hand_scoring",
        "dealer_step",
        "reshuffle_keeps_top",
    )
    found = [read for read in reads if read in source]
    assert not found, f"a claim reads the spec's option: {found}"
    assert source.count("claim.figures") >= 10  # the checks read the claim's typed figures, without a cast


def test_every_claim_a_shipped_spec_is_held_to_is_refuted_by_some_broken_spec() -> None:
    """The rulebooks' claims and every claim a shipped house spec restates (its options, its stacks): each id has a
    broken spec in tests/broken_specs/ that refutes it, so no claim of any shipped spec is a proof that cannot fail."""
    refuted = set().union(*(_refutes(spec) for spec in BROKEN))
    every = {claim.id for spec in SHIPPED for claim in claims_module.game_claims(load_rules(spec))}
    assert not every - refuted, f"nothing refutes: {sorted(every - refuted)}"


def test_each_claim_form_is_one_object_and_the_prover_asks_no_form_by_name() -> None:
    """Reading, answering, checking a step and withdrawing are the form's (ClaimForm), as an invariant's Z3 question and
    concrete check are its InvariantForms: the prover and the claims module no longer branch on ``claim.form``."""
    import re

    forms = claims_module.FORMS_BY_NAME
    assert claims_module.WITHDRAWABLE == ("play", "start", "challenge", "catch", "stack")
    assert not forms["table"].withdrawable and forms["stack"].withdrawable
    modules = [ROOT / "referee" / "proof" / name for name in ("prove.py", "counterexamples.py")]
    for module in [*sorted((ROOT / "referee" / "proof" / "claims").glob("*.py")), *modules]:
        source = module.read_text(encoding="utf-8")
        # dispatching on a form's name; selecting the deck claims, or the reader's pseudo-form "withdrawn", is not
        branches = re.findall(r"\.form (?:==|!=) \"(?!withdrawn\"|deck\")|\.form (?:not )?in \(", source)
        assert not branches, (module, branches)


def test_each_claim_form_is_one_module_that_ends_with_its_form() -> None:
    """Issue 40: a claim form is one module of ``referee.proof.claims`` (its figures, question, step check, withdrawal
    and read-back), whose ``FORM`` the registry lists; no module of the package over 800 lines."""
    import importlib

    from referee.spec.vocabulary import CLAIM_FORMS

    package = ROOT / "referee" / "proof" / "claims"
    for name in CLAIM_FORMS:
        module = importlib.import_module(f"referee.proof.claims.{name}")
        assert module.FORM is claims_module.FORMS_BY_NAME[name] and module.FORM.name == name
        assert module.FORM.figures.__module__ == module.__name__  # the figures' record lives with the form
    for path in package.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 800, path.name


def test_reading_and_showing_claims_loads_no_solver() -> None:
    """Issue 40: ``referee rules --claims`` (and the library's reading of claims) imports no z3; asking a question does."""
    import subprocess

    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from referee.rules.compiler import load_rules\n"
        "from referee.proof.claims import FORMS_BY_NAME, game_claims\n"
        "rules = load_rules(Path('specs/uno-flip.yaml'))\n"
        "shown = [claim.to_json() for claim in game_claims(rules)]\n"
        "declared = [FORMS_BY_NAME[c.form].restate(c, rules, (2, 3)) for c in game_claims(rules)]\n"
        "assert shown and declared and 'z3' not in sys.modules, sorted(m for m in sys.modules if 'z3' in m)\n"
        "from referee.proof.claims import play\n"
        "claim = next(c for c in game_claims(rules) if c.form == 'play')\n"
        "play.play_question(claim, rules, 2, 1000)\n"
        "assert 'z3' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    command = [sys.executable, "-X", "importtime", "-m", "referee", "rules", "--claims", "--spec", "specs/uno.yaml"]
    shown = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "play.skip" in shown.stdout, shown.stdout[:500]
    imported = [line.rsplit("|", 1)[-1].strip() for line in shown.stderr.splitlines() if line.startswith("import time:")]
    assert "referee.proof.claims.play" in imported and not [name for name in imported if name.split(".")[0] == "z3"]


def test_a_claims_list_is_read_by_the_spec_s_own_node_reader() -> None:
    """One schema reader: a misspelt key of a claim gets the spec reader's "did you mean", and a hostile list's
    problems are bounded as a spec's are."""
    from referee.errors import SpecError
    from referee.spec.loader import load_text
    from referee.spec.node_reader import MAX_PROBLEMS

    claim = "- {id: play.x, statement: s, source: {key: sheet, section: s}, play: {kind: skip, nextt: 2}}\n"
    tree = load_text("claims:\n" + "".join("  " + claim for _ in range(1)), "claims.yml")
    with pytest.raises(SpecError) as caught:
        claims_module.read_claims(tree.entries["claims"], "claims.yml", {"sheet": ("The sheet", "")})
    assert any("unknown key 'nextt' in a play claim (did you mean 'next'?)" in message for _, message in caught.value.problems)
    many = load_text("claims:\n" + "".join("  " + claim for _ in range(MAX_PROBLEMS * 2)), "claims.yml")
    with pytest.raises(SpecError) as caught:
        claims_module.read_claims(many.entries["claims"], "claims.yml", {"sheet": ("The sheet", "")})
    assert len(caught.value.problems) <= MAX_PROBLEMS + 1
