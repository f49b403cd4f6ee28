"""``referee prove``: a spec's invariants and its rulebook's claims, proved with Z3; the gaps in its rules;
counterexamples as logs.

The parts, one module each: ``model`` (the spec compiled to Z3 states and
transitions), ``queries`` (asking Z3 and reading its answers),
``invariants`` (each with its Z3 question and its concrete check),
``claims`` (the rulebook's statements, as data), ``gaps`` and
``counterexamples``; this module runs them for one spec.

A failed proof is ``refuted`` only when Z3 produced a model; a timeout or
``unknown`` is ``unknown`` and never counts as proved. For a refuted
invariant or claim the engine searches concrete games under the same spec
for the shortest one that reaches a violating state, and prints it as a log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from referee.proof.counterexamples import claim_counterexample, find_counterexample
from referee.proof.gaps import GapResult, gaps
from referee.proof.invariants import ARISES_WITH, CHECKERS, NOTES, Invariants
from referee.proof.queries import PLAYER_COUNTS, TIMEOUT_MS, Answer, Status, ask, first_sat, for_each_count
from referee.rules.compiler import Rules, load_rules


@dataclass
class ProofResult:
    id: str
    status: Status
    players: list[int]
    seconds: float
    counterexample: str | None = None
    detail: str = ""
    refuted_for: list[int] = field(default_factory=list)
    source: str = ""  # for a claim: where the rulebook says it
    restated: bool = False  # for a claim: the spec's own (a house rule's restated claim), not its rulebook's
    withdrawn: str = ""  # for a claim: why the spec withdraws it (proved: what it speaks of never arises)


# -- claims


Answered = tuple[Status, list[int], str]  # proved / refuted (for which player counts) / unknown, and a detail


def claim_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """proved / refuted (for which player counts) / unknown, and a detail: the claim asked of the compiled rules, by
    its form's way of answering (``ANSWERS``)."""
    if claim.withdrawn:
        return _withdrawal_answer(claim, rules, players, timeout_ms)
    return ANSWERS[claim.form](claim, rules, players, timeout_ms)


def _finite_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """A claim checked case by case against the compiled rules (points, matching, deck, table, an option)."""
    from referee.proof import claims as c

    finite = {
        "points": c.points_problem,
        "matching": c.matching_problem,
        "deck": c.deck_problem,
        "table": c.table_problem,
        "option": c.option_problem,
    }
    problem = finite[claim.form](claim, rules)
    if problem:
        return Status.REFUTED, list(players), problem
    if claim.form == "option":
        return Status.PROVED, [], "the spec's option has the rulebook's value"
    if "hand-size" not in claim.figures:
        return Status.PROVED, [], "by enumeration of every case against the compiled rules"
    status, refuted = for_each_count(players, lambda n: ask(c.hand_size_question(claim, rules, n, timeout_ms)))
    return status, refuted, f"a deal gives a hand of other than {claim.figures['hand-size']} cards" if refuted else ""


def _dispute_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """A challenge or a catch claim: asked of the transition relation, after showing that one can be made at all."""
    from referee.proof import claims as c

    what = "challenge of a wild draw card" if claim.form == "challenge" else "catch"
    question = c.challenge_question if claim.form == "challenge" else c.catch_question
    if claim.figures.get("never"):  # the claim is that no challenge can arise: refuted where one can
        can = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) != "unsat"]
        if can:
            return Status.REFUTED, can, f"a {what} can be made under the spec"
        return Status.PROVED, [], f"no {what} can be made under the spec"
    never = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) == "unsat"]
    if never:  # the claim must hold of something: a spec where it can never happen breaks it
        return Status.REFUTED, never, f"no {what} can be made under the spec"
    status, refuted = for_each_count(players, lambda n: first_sat(question(claim, rules, n, timeout_ms)))
    return status, refuted, ""


def _stack_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    from referee.proof import claims as c

    never = [n for n in players if first_sat(c.stack_question(claim, rules, n, timeout_ms, True)) == "unsat"]
    if never:
        return Status.REFUTED, never, f"no {claim.figures['kind']} can be stacked on a penalty under the spec"
    status, refuted = for_each_count(players, lambda n: first_sat(c.stack_question(claim, rules, n, timeout_ms)))
    return status, refuted, ""


def _card_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """A play or a start claim: what follows a card of its kind, for each player count it concerns."""
    from referee.proof import claims as c

    counts = c.counts_for(claim, rules, players)
    if not counts:
        return Status.PROVED, [], "no player count of the spec's range is concerned"
    if not c.faces_of(rules, claim.figures["kind"]):
        return Status.REFUTED, list(counts), f"the spec has no face of kind {claim.figures['kind']}"
    if claim.form == "play":
        problem = c.restriction_problem(claim, rules)
        if problem:
            return Status.REFUTED, list(counts), problem
    if claim.form == "start" and not claim.figures["returned"]:
        never = [n for n in counts if c.start_possible(claim, rules, n, timeout_ms) == "unsat"]
        if never:
            return Status.REFUTED, never, f"a {claim.figures['kind']} turned up never starts a round"
    asked = c.play_question if claim.form == "play" else c.start_question
    status, refuted = for_each_count(counts, lambda n: first_sat(asked(claim, rules, n, timeout_ms)))
    return status, refuted, ""


# How each claim form is answered (``claim_answer``).
ANSWERS: dict[str, Callable[[Any, Rules, tuple[int, ...], int], Answered]] = {
    "points": _finite_answer,
    "matching": _finite_answer,
    "deck": _finite_answer,
    "table": _finite_answer,
    "option": _finite_answer,
    "challenge": _dispute_answer,
    "catch": _dispute_answer,
    "stack": _stack_answer,
    "play": _card_answer,
    "start": _card_answer,
}


def _withdrawal_answer(claim: Any, rules: Rules, players: tuple[int, ...], timeout_ms: int) -> tuple[Status, list[int], str]:
    """A claim a house spec withdraws holds of nothing under it: proved when what it speaks of (a play, a start card,
    a challenge, a catch, a stack of its kind) never arises, for every player count; refuted where it still can."""
    from referee.proof import claims as c

    why = f"withdrawn by the spec ({claim.withdrawn})"
    form, figures = claim.form, claim.figures
    if form in ("play", "start") and not [face for face in c.faces_of(rules, figures["kind"])]:
        return Status.PROVED, [], f"{why}: the spec has no face of kind {figures['kind']}"
    if form == "stack":  # the compiled stacking table is what the engine asks: exact, and finite
        kind = figures["kind"]
        owed = sorted(owed for owed, allowed in (rules.stacking or {}).items() if kind in allowed)
        if not owed:
            return Status.PROVED, [], f"{why}: the spec's option stacking lets no {kind} go on any penalty"
        return Status.REFUTED, list(players), f"{why}, but a {kind} may still go on {', '.join(owed)}: restate the claim instead"
    if form == "play":
        counts = c.counts_for(claim, rules, players)
        if not counts:
            return Status.PROVED, [], f"{why}: no player count of the spec's range is concerned"
        return Status.REFUTED, list(counts), f"{why}, but a {figures['kind']} is still played: restate the claim instead"
    ask: dict[str, Callable[[int], Answer]] = {
        "start": lambda n: c.start_possible(claim, rules, n, timeout_ms),
        "challenge": lambda n: first_sat(c.challenge_question(claim, rules, n, timeout_ms, True)),
        "catch": lambda n: first_sat(c.catch_question(claim, rules, n, timeout_ms, True)),
    }
    answers = {n: ask[form](n) for n in players}
    still = [n for n, answer in answers.items() if answer is Answer.SAT]
    if still:
        return Status.REFUTED, still, f"{why}, but what it speaks of still arises under the spec: restate the claim instead"
    if any(answer is not Answer.UNSAT for answer in answers.values()):
        return Status.UNKNOWN, [], f"{why}: the solver could not settle whether what it speaks of arises"
    return Status.PROVED, [], f"{why}: what it speaks of never arises under the spec"


def prove_claims(
    rules: Rules, spec_path: str, players: tuple[int, ...], timeout_ms: int, counterexamples: bool = True, only: str | None = None
) -> list[ProofResult]:
    """Every claim in force for the spec (or the one named), asked of its compiled rules; a refuted one with a counterexample."""
    from referee.proof.claims import game_claims

    outcomes = []
    for claim in game_claims(rules):
        if not claim.applies(rules) or only not in (None, claim.id):
            continue
        started = time.perf_counter()
        try:
            status, refuted_for, detail = claim_answer(claim, rules, players, timeout_ms)
        except z3.Z3Exception as error:
            status, refuted_for, detail = Status.UNKNOWN, [], f"solver error: {error}"
        outcome = ProofResult(claim.id, status, list(players), time.perf_counter() - started, detail=detail, refuted_for=refuted_for)
        outcome.source = claim.source
        outcome.restated = claim.restated
        outcome.withdrawn = claim.withdrawn
        if status == Status.REFUTED and counterexamples and not claim.withdrawn:
            outcome.counterexample = claim_counterexample(claim, rules, spec_path, refuted_for)
            if outcome.counterexample is None:
                outcome.detail = (detail + "; " if detail else "") + "no concrete game reaching it was found within the search budget"
        outcomes.append(outcome)
    return outcomes


# -- the whole run


def deck_size(rules: Rules, invariants: Invariants) -> int:
    """How many cards the invariants count: the rulebook's deck (its game's ``deck`` claim), else the file's constant,
    else the spec's own deck."""
    from referee.proof.claims import game_claims

    claimed = [claim.figures["cards"] for claim in game_claims(rules) if claim.form == "deck" and claim.applies(rules)]
    return claimed[0] if claimed else invariants.cards or len(rules.deck)


@dataclass(slots=True)
class SpecProof:
    """``referee prove`` on one spec: each invariant's and claim's result, the declared gaps, how long it took.
    ``spec`` is the spec as the user named it (the command sets it); ``report.spec_json`` writes the JSON."""

    spec: str
    name: str
    game: str
    claims_file: bool
    invariants: list[ProofResult] = field(default_factory=list)
    claims: list[ProofResult] = field(default_factory=list)
    gaps: list[GapResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def results(self) -> list[ProofResult]:
        """The invariants' results, then the claims'."""
        return [*self.invariants, *self.claims]


def prove_spec(
    spec_path: Path,
    invariants: Invariants,
    only: str | None = None,
    players: tuple[int, ...] = PLAYER_COUNTS,
    timeout_ms: int = TIMEOUT_MS,
    counterexamples: bool = True,
) -> SpecProof:
    """Prove every invariant (or ``only`` one, or one claim) and every claim of the spec at ``spec_path``."""
    run_started = time.perf_counter()
    rules = load_rules(spec_path)
    cards = deck_size(rules, invariants)
    outcomes = []
    for invariant in invariants.invariants:
        if only is not None and invariant.id != only:
            continue
        started = time.perf_counter()
        try:
            status, refuted_for = CHECKERS[invariant.id](rules, cards, players, timeout_ms)
        except z3.Z3Exception as error:
            status, refuted_for = Status.UNKNOWN, []
            detail = f"solver error: {error}"
        else:
            detail = ""
        seconds = time.perf_counter() - started
        if status == Status.PROVED and invariant.id in NOTES:
            detail = NOTES[invariant.id]
        if (
            status == Status.PROVED
            and invariant.id in ARISES_WITH
            and not any(getattr(f, ARISES_WITH[invariant.id]) for f in rules.faces.values())
        ):
            detail = f"holds trivially: no face of this game has the {ARISES_WITH[invariant.id]} effect it is about"
        outcome = ProofResult(invariant.id, status, list(players), seconds, detail=detail, refuted_for=refuted_for)
        if status == Status.REFUTED and counterexamples:
            outcome.counterexample = find_counterexample(rules, invariant.id, cards, str(spec_path))
            if outcome.counterexample is None:
                outcome.detail = "refuted by Z3; no concrete game reaching it was found within the search budget"
        outcomes.append(outcome)
    claim_outcomes = []
    if only is None or only not in CHECKERS:
        claim_outcomes = prove_claims(rules, str(spec_path), players, timeout_ms, counterexamples, only)
    from referee.proof import claims as claims_module

    game = claims_module.game_of(rules.spec)
    result = SpecProof(str(spec_path), rules.spec.name, game, claims_module.has_claims_file(game), outcomes, claim_outcomes)
    result.gaps = gaps(rules, invariants.gaps, timeout_ms, players) if only is None else []
    result.seconds = time.perf_counter() - run_started
    return result
