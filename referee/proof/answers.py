"""What Z3 answers a question, and what ``prove`` then says of an invariant or a claim.

Apart from the questions themselves (``referee.proof.queries``), and never importing Z3 (a solver handed in is
already one), so that the claims, which name these answers, are read and shown without loading Z3
(``referee rules --claims``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import TYPE_CHECKING

from referee.solving import stopped_by_interrupt

if TYPE_CHECKING:
    import z3


class Answer(StrEnum):
    """Z3's answer to one question (``sat`` means a counterexample exists)."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


class Status(StrEnum):
    """What ``prove`` says of an invariant or a claim (the JSON report's ``status``); unknown is never proved."""

    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


def for_each_count(players: tuple[int, ...], question: Callable[[int], Answer]) -> tuple[Status, list[int]]:
    """Ask ``question`` (sat means refuted) for each player count; a refutation outweighs an unknown."""
    answers = {n: question(n) for n in players}
    refuted = [n for n, answer in answers.items() if answer is Answer.SAT]
    if refuted:
        return Status.REFUTED, refuted
    if Answer.UNKNOWN in answers.values():
        return Status.UNKNOWN, []
    return Status.PROVED, []


def ask(check: z3.Solver) -> Answer:
    """sat / unsat / unknown (a Ctrl-C that Z3 reports as unknown is raised as one)."""
    result = str(check.check())  # z3's sat, unsat and unknown print as their names
    if result == Answer.UNSAT:
        return Answer.UNSAT
    if result == Answer.SAT:
        return Answer.SAT
    interrupted(check)
    return Answer.UNKNOWN


def interrupted(check: z3.Solver) -> None:
    """Z3 catches Ctrl-C itself and answers unknown ("canceled"): that is an interrupt, never an inconclusive proof."""
    if stopped_by_interrupt(check.reason_unknown()):
        raise KeyboardInterrupt


def all_unsat(questions: Iterator[z3.Solver], players: tuple[int, ...]) -> tuple[Status, list[int]]:
    """Proved when every question is unsat; refuted at the first sat; unknown at the first unknown."""
    for check in questions:
        answer = ask(check)
        if answer is Answer.SAT:
            return Status.REFUTED, list(players)
        if answer is Answer.UNKNOWN:
            return Status.UNKNOWN, []
    return Status.PROVED, []


def first_sat(questions: list[z3.Solver]) -> Answer:
    answers = [ask(check) for check in questions]
    return Answer.SAT if Answer.SAT in answers else Answer.UNKNOWN if Answer.UNKNOWN in answers else Answer.UNSAT
