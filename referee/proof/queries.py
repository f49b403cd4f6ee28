"""The questions ``referee prove`` asks Z3, and how their answers are read.

A question is a solver whose satisfying model is a counterexample: ``unsat``
proves, ``sat`` refutes, anything else is ``unknown`` and never counts as
proved. Induction over the transition relation (``Init => Inv`` and
``Inv /\\ T => Inv'``) is asked once per model fingerprint and player count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from referee.proof.answers import Answer, Status, ask, for_each_count
from referee.proof.model import Model, State, solver
from referee.records import dataclass
from referee.rules.compiler import Rules

PLAYER_COUNTS = tuple(range(2, 11))


TIMEOUT_MS = 5000


@dataclass
class Context:
    """The model, states and transition formula for one spec and player count, built once per run."""

    model: Model
    start: State
    pre: State
    post: State
    step: Any
    deal: Any


CONTEXTS: dict[tuple[Any, ...], Context] = {}


def context_for(rules: Rules, n: int, cards: int) -> Context:
    """Built once per model fingerprint and player count: house rules the model does not read share it."""
    key = (Model.fingerprint(rules), n, cards)
    context = CONTEXTS.get(key)
    if context is None:
        model = Model(rules, n, cards)
        start, pre, post = State.make(n, "0"), State.make(n, "a"), State.make(n, "b")
        context = Context(model, start, pre, post, model.step(pre, post, "t"), model.deal(start))
        CONTEXTS[key] = context
    return context


ANSWERS: dict[tuple[Any, ...], Status] = {}


def inductive(rules: Rules, n: int, cards: int, predicate: Callable[[Model, State], Any], timeout_ms: int) -> Status:
    """'proved' when Init => Inv and Inv /\\ T => Inv' are valid; 'refuted' with a model; else 'unknown'.

    The same formulas get the same answer (fixed seeds), so a spec whose model fingerprint was already
    asked this question reuses the answer; 'unknown' is never reused.
    """
    key = (Model.fingerprint(rules), predicate.__code__, n, cards, timeout_ms)
    if key in ANSWERS:
        return ANSWERS[key]
    answer = ask_inductive(rules, n, cards, predicate, timeout_ms)
    if answer is not Status.UNKNOWN:
        ANSWERS[key] = answer
    return answer


def ask_inductive(rules: Rules, n: int, cards: int, predicate: Callable[[Model, State], Any], timeout_ms: int) -> Status:
    context = context_for(rules, n, cards)
    model = context.model
    base = solver(timeout_ms)
    base.add(context.deal, z3.Not(predicate(model, context.start)))
    answer = ask(base)
    if answer is not Answer.UNSAT:
        return Status.REFUTED if answer is Answer.SAT else Status.UNKNOWN
    step = solver(timeout_ms)
    step.add(predicate(model, context.pre), context.step, z3.Not(predicate(model, context.post)))
    return STATUS_OF[ask(step)]


STATUS_OF = {Answer.UNSAT: Status.PROVED, Answer.SAT: Status.REFUTED, Answer.UNKNOWN: Status.UNKNOWN}
ANSWER_OF = {status: answer for answer, status in STATUS_OF.items()}


def per_player_count(
    rules: Rules, cards: int, predicate: Callable[[Model, State], Any], players: tuple[int, ...], timeout_ms: int
) -> tuple[Status, list[int]]:
    return for_each_count(players, lambda n: ANSWER_OF[inductive(rules, n, cards, predicate, timeout_ms)])
