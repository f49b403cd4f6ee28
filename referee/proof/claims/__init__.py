"""Claims: what the rulebook says, as data, checked against the rules a spec compiles to.

A claim states the rulebook's figure (a Skip makes the next player lose the turn; a Wild scores 40; each player
gets 7 cards) and never reads it from the spec under test, so a spec that slips is refuted. The claims of a game
live in ``specs/claims/GAME.yml``; a house spec restates, under its own ``claims:``, any claim it means to change
(same id), and a claim may apply only under an option's value (``if: {option: value}``): options are the
declared variation points.

Each claim form is one module of this package (``play``, ``start``, ``stack``, ``challenge``, ``catch``,
``points``, ``matching``, ``deck``, ``table``, ``option``) holding all of it: the record of its figures and how
they are read and written, its question (asked of the Z3 transition relation and deal compiled from the spec,
``referee.proof.model``, for every player count; or finite: every face, every pair of faces under every colour,
every card of the deck, enumerated against the compiled rules the engine itself uses), its concrete check on one
step of a real game, its withdrawal, and the spec's own figures read back for ``prove --declare``. The module
ends with its ``ClaimForm``; ``forms`` lists them. The counterexample search plays simulated games under the spec
until a step breaks the claim (``claim_violation``), and that game is the counterexample log.

Z3 is imported only when a question is asked: reading and showing claims (``referee rules --claims``) loads no
solver.
"""

from __future__ import annotations

from referee.proof.claims.claim import Answered, Claim, ClaimForm
from referee.proof.claims.forms import FORMS_BY_NAME, WITHDRAWABLE, claim_violation
from referee.proof.claims.rulebook import CLAIMS_FORMAT, FORMS, game_claims, game_of, has_claims_file, read_claims
from referee.proof.claims.steps import Before, before

__all__ = [
    "CLAIMS_FORMAT",
    "FORMS",
    "FORMS_BY_NAME",
    "WITHDRAWABLE",
    "Answered",
    "Before",
    "Claim",
    "ClaimForm",
    "before",
    "game_claims",
    "game_of",
    "has_claims_file",
    "read_claims",
    "claim_violation",
]
