"""The claim forms, each defined once in its own module of this package, by name: what the reader, the prover,
the counterexample search and ``prove --declare`` look a claim's form up in."""

from __future__ import annotations

from typing import Any

from referee.engine.engine import Engine
from referee.proof.claims import catch, challenge, deck, matching, option, play, points, stack, start, table
from referee.proof.claims.claim import Claim, ClaimForm
from referee.proof.claims.steps import Before
from referee.rules.compiler import Rules
from referee.spec.vocabulary import ClaimFormName


def claim_violation(claim: Claim[Any], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    """Whether this step of a game (from ``previous`` by ``event``) breaks the claim; the reason, or None. Each claim
    form has its own check (``ClaimForm.check``)."""
    if not engine.state.players or not claim.applies(rules):
        return None
    return FORMS_BY_NAME[claim.form].check(claim, rules, previous, engine, event)


FORMS_BY_NAME: dict[ClaimFormName, ClaimForm[Any]] = {
    form.name: form
    for form in (
        play.FORM,
        start.FORM,
        challenge.FORM,
        catch.FORM,
        stack.FORM,
        points.FORM,
        matching.FORM,
        deck.FORM,
        table.FORM,
        option.FORM,
    )
}
WITHDRAWABLE = tuple(form.name for form in FORMS_BY_NAME.values() if form.withdrawable)
