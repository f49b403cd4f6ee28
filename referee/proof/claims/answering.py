"""How the prover answers a claim, the ways the forms share: case by case, asked of Z3 per player count, withdrawn.

Z3 and the model are imported only when a question is asked, so that reading and showing claims loads no solver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.proof.answers import Answer, Status, first_sat, for_each_count
from referee.proof.claims.claim import Answered, Answering, Claim, F, kind_of
from referee.proof.claims.figures import UNTIL_COLOUR, Owes
from referee.proof.faces import faces_of
from referee.rules.compiler import Rules

if TYPE_CHECKING:
    import z3

    from referee.proof.model import Model, State


def owes(state: State, model: Model, seat: Any, figure: Owes) -> Any:
    """The model's condition that ``seat`` owes what a play or start claim's ``owes`` says (0: nobody owes)."""
    import z3

    from referee.proof.model import NONE, OWED_UNTIL_COLOUR

    if figure == 0:
        return z3.And(state.owed_seat == NONE, state.owed == 0)
    amount = OWED_UNTIL_COLOUR if figure == UNTIL_COLOUR else figure
    return z3.And(state.owed_seat == seat, state.owed == amount)


def finite(problem: Callable[[Claim[F], Rules], str | None], proved: str) -> Answering[F]:
    """A claim checked case by case against the compiled rules (points, matching, deck, an option)."""

    def answer(claim: Claim[F], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        found = problem(claim, rules)
        return (Status.REFUTED, list(players), found) if found else (Status.PROVED, [], proved)

    return answer


def _never(claim: Claim[F]) -> bool:
    return False


def dispute(question: Callable[..., list[z3.Solver]], what: str, never_arises: Callable[[Claim[F]], bool] = _never) -> Answering[F]:
    """A challenge or a catch claim: asked of the transition relation, after showing that one can be made at all
    (``never_arises``: the claim is that none can be made)."""

    def answer(claim: Claim[F], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        if never_arises(claim):  # the claim is that no challenge can arise: refuted where one can
            can = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) != "unsat"]
            if can:
                return Status.REFUTED, can, f"a {what} can be made under the spec"
            return Status.PROVED, [], f"no {what} can be made under the spec"
        never = [n for n in players if first_sat(question(claim, rules, n, timeout_ms, True)) == "unsat"]
        if never:  # the claim must hold of something: a spec where it can never happen breaks it
            return Status.REFUTED, never, f"no {what} can be made under the spec"
        status, refuted = for_each_count(players, lambda n: first_sat(question(claim, rules, n, timeout_ms)))
        return status, refuted, ""

    return answer


def _every_count(claim: Claim[F], players: tuple[int, ...]) -> tuple[int, ...]:
    return players


def card(
    asked: Callable[[Claim[F], Rules, int, int], list[z3.Solver]],
    first: Callable[..., Answered | None],
    concerned: Callable[[Claim[F], tuple[int, ...]], tuple[int, ...]] = _every_count,
) -> Answering[F]:
    """A play or a start claim: what follows a card of its kind, for each player count it concerns (``first``: the
    form's own question before it, a refutation or None; ``concerned``: the player counts the claim speaks of)."""

    def answer(claim: Claim[F], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        counts = concerned(claim, players)
        if not counts:
            return Status.PROVED, [], "no player count of the spec's range is concerned"
        kind = kind_of(claim)
        if not faces_of(rules, kind):
            return Status.REFUTED, list(counts), f"the spec has no face of kind {kind}"
        found = first(claim, rules, counts, timeout_ms)
        if found is not None:
            return found
        status, refuted = for_each_count(counts, lambda n: first_sat(asked(claim, rules, n, timeout_ms)))
        return status, refuted, ""

    return answer


def withdrawn(arises: Callable[[Claim[F], Rules, int, int], Answer], of_a_kind: bool = False) -> Answering[F]:
    """A claim a house spec withdraws holds of nothing under it: proved when what it speaks of never arises, for
    every player count; refuted where it still can (``arises``: whether it can, for one player count; ``of_a_kind``:
    it speaks of a kind of face, so a spec without one has nothing it speaks of)."""

    def answer(claim: Claim[F], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
        why = f"withdrawn by the spec ({claim.withdrawn})"
        if of_a_kind and not faces_of(rules, kind_of(claim)):
            return Status.PROVED, [], f"{why}: the spec has no face of kind {kind_of(claim)}"
        answers = {n: arises(claim, rules, n, timeout_ms) for n in players}
        still = [n for n, found in answers.items() if found is Answer.SAT]
        if still:
            return Status.REFUTED, still, f"{why}, but what it speaks of still arises under the spec: restate the claim instead"
        if any(found is not Answer.UNSAT for found in answers.values()):
            return Status.UNKNOWN, [], f"{why}: the solver could not settle whether what it speaks of arises"
        return Status.PROVED, [], f"{why}: what it speaks of never arises under the spec"

    return answer
