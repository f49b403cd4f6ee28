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
from dataclasses import field
from pathlib import Path
from typing import Any

import z3

from referee.proof.answers import Status
from referee.proof.claims import FORMS_BY_NAME, Answered, Claim
from referee.proof.counterexamples import claim_counterexample, find_counterexample
from referee.proof.gaps import GapResult, gaps
from referee.proof.invariants import ARISES_WITH, CHECKERS, COUNTS_DECK, NOTES, Invariants
from referee.proof.queries import PLAYER_COUNTS, TIMEOUT_MS
from referee.records import dataclass
from referee.rules.compiler import Rules, load_rules


@dataclass
class ProofResult:
    """One claim's or invariant's answer: its status, the player counts asked, the time and any refuting log."""

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

    def to_json(self, with_source: bool = False) -> dict[str, Any]:
        """An invariant or claim as JSON (docs/json.md); a claim (``with_source``) adds where the rulebook says it."""
        data = {
            "id": self.id,
            "status": self.status,
            "players": self.players,
            "seconds": round(self.seconds, 4),
            "counterexample": self.counterexample,
            "refuted_for": self.refuted_for,
            "detail": self.detail or None,
        }
        if with_source:
            data["source"] = self.source
            data["restated"] = self.restated
            data["withdrawn"] = self.withdrawn or None
        return data


# -- claims


def claim_answer(claim: Claim[Any], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """proved / refuted (for which player counts) / unknown, and a detail: the claim asked of the compiled rules, by
    its form's way of answering (``ClaimForm.answer``; a withdrawn claim: ``ClaimForm.withdraw``)."""
    form = FORMS_BY_NAME[claim.form]
    if claim.withdrawn:
        assert form.withdraw is not None  # the reader refuses to withdraw a claim of a form that cannot be
        return form.withdraw(claim, rules, players, timeout_ms)
    return form.answer(claim, rules, players, timeout_ms)


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
    from referee.proof.claims.deck import DeckFigures

    claimed = [claim.figures.cards for claim in game_claims(rules) if isinstance(claim.figures, DeckFigures) and claim.applies(rules)]
    return claimed[0] if claimed else invariants.cards or len(rules.deck)


@dataclass(slots=True)
class SpecProof:
    """``referee prove`` on one spec: each invariant's and claim's result, the declared gaps, how long it took.
    ``spec`` is the spec as the user named it (the command sets it)."""

    spec: str
    name: str
    game: str
    claims_file: bool
    invariants: list[ProofResult] = field(default_factory=list)
    claims: list[ProofResult] = field(default_factory=list)
    gaps: list[GapResult] = field(default_factory=list)
    seconds: float = 0.0
    declarable: bool = False  # something refuted that restating the rulebook's claims settles ('prove --declare')
    wording: list[str] = field(default_factory=list)  # texts the spec's figures contradict (referee.proof.wording)

    @property
    def results(self) -> list[ProofResult]:
        """The invariants' results, then the claims'."""
        return [*self.invariants, *self.claims]

    def to_json(self) -> dict[str, Any]:
        """One spec's proof as the JSON of docs/json.md (one entry of ``prove --format json``'s ``specs``)."""
        return {
            "spec": self.spec,
            "game": self.game,
            "claims_file": self.claims_file,
            "seconds": round(self.seconds, 4),
            "invariants": [result.to_json() for result in self.invariants],
            "claims": [result.to_json(with_source=True) for result in self.claims],
            "gaps": [gap.to_json() for gap in self.gaps],
            "wording": self.wording,
        }


def prove_invariant(
    rules: Rules, invariant: str, cards: int, players: tuple[int, ...], timeout_ms: int, spec_path: str | None
) -> ProofResult:
    """One invariant asked of the compiled rules, with a note on how it was proved or why it fails; refuted, with a
    counterexample searched for (``spec_path`` None: none)."""
    started = time.perf_counter()
    detail = ""
    try:
        status, refuted_for = CHECKERS[invariant](rules, cards, players, timeout_ms)
    except z3.Z3Exception as error:
        status, refuted_for = Status.UNKNOWN, []
        detail = f"solver error: {error}"
    seconds = time.perf_counter() - started
    if status == Status.PROVED:
        detail = NOTES.get(invariant, "")
        if invariant in ARISES_WITH and not any(getattr(f, ARISES_WITH[invariant]) for f in rules.faces.values()):
            detail = f"holds trivially: no face of this game has the {ARISES_WITH[invariant]} effect it is about"
    if status == Status.REFUTED and invariant in COUNTS_DECK and cards != len(rules.deck):
        detail = (
            f"it counts the {cards} cards of the deck claim in force (deck.cards), and the spec's deck has "
            f"{len(rules.deck)}: a spec that changes the deck restates deck.cards"
        )
    outcome = ProofResult(invariant, status, list(players), seconds, detail=detail, refuted_for=refuted_for)
    if status == Status.REFUTED and spec_path is not None:
        outcome.counterexample = find_counterexample(rules, invariant, cards, spec_path)
        if outcome.counterexample is None:
            outcome.detail = "refuted by Z3; no concrete game reaching it was found within the search budget"
    return outcome


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
    outcomes = [
        prove_invariant(rules, invariant.id, cards, players, timeout_ms, str(spec_path) if counterexamples else None)
        for invariant in invariants.invariants
        if only in (None, invariant.id)
    ]
    claim_outcomes = []
    if only is None or only not in CHECKERS:
        claim_outcomes = prove_claims(rules, str(spec_path), players, timeout_ms, counterexamples, only)
    from referee.proof import claims as claims_module

    game = claims_module.game_of(rules.spec)
    result = SpecProof(str(spec_path), rules.spec.name, game, claims_module.has_claims_file(game), outcomes, claim_outcomes)
    result.gaps = gaps(rules, invariants.gaps, timeout_ms, players) if only is None else []
    if only is None:
        from referee.proof.wording import lint

        result.wording = [finding.message() for finding in lint(rules.spec)]
    result.declarable = any(o.status is Status.REFUTED and not o.withdrawn for o in claim_outcomes) or any(
        o.status is Status.REFUTED and o.id in COUNTS_DECK and cards != len(rules.deck) for o in outcomes
    )
    result.seconds = time.perf_counter() - run_started
    return result
