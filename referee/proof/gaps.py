"""Gaps: situations the bare rulebook leaves without a way forward, found as undefined states of the model.

A gap is asked of the transition relation compiled from the spec, for every
player count: can a transition into the gap's situation leave a state with
no way forward? It is asked twice: with the spec as it is (``closed`` when no
such state exists) and with the spec's closing ruling taken away
(``needs_ruling`` when one then exists: the ruling is what closes the gap).
``reachable`` says whether the situation can arise under the spec at all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import z3

from referee.proof.answers import Answer, ask
from referee.proof.model import NONE, Model, State, solver
from referee.proof.queries import PLAYER_COUNTS, TIMEOUT_MS
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.vocabulary import FlipColourChooser


def _flip_uncovers_wild(rules: Rules, n: int, timeout_ms: int, stuck: bool) -> z3.Solver:
    """A Flip (played, or turned up at the start) uncovers a wild. With ``stuck``: and the colour is left undefined
    with nobody to name it while the round goes on (no card can then be matched by its colour)."""
    model = Model(rules, n, len(rules.deck))
    pre, post = State.make(n, "pre"), State.make(n, "post")
    seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
    dealer = z3.Int("dealer")
    flips = [f for f in model.signatures if f.flip]
    cases = [z3.And(model.play(pre, post, seat, f, face_colour, chosen, uncovered, z3.Bool("moved")), uncovered == NONE) for f in flips]
    cases += [
        z3.And(model.dealt(post), model.seat(dealer), model.deal_for(post, f, dealer), post.colour == NONE)
        for f in model.start_faces()
        if "flip" in f.at_start or ("apply-effects" in f.at_start and f.flip)
    ]
    check = solver(timeout_ms)
    check.add(model.conservation(pre), model.turn_valid(pre), z3.Or(*cases) if cases else z3.BoolVal(False))
    if stuck:
        check.add(post.colour == NONE, z3.Not(post.pending), *[hand >= 1 for hand in post.hands])
    return check


@dataclass(frozen=True, slots=True)
class Gap:
    """A situation the sources leave open (``specs/invariants.yml``), closed by a ruling."""

    id: str
    summary: str
    ruling: int


SITUATIONS: dict[str, tuple[Callable[[Rules, int, int, bool], z3.Solver], Callable[[Rules], Rules]]] = {
    # the question, and the spec without the gap's ruling (16: the next player, or the flipper, names the colour)
    "gap.flip-uncovers-wild": (_flip_uncovers_wild, lambda rules: dataclasses.replace(rules, flip_chooser=FlipColourChooser.NOBODY)),
}


@dataclass(frozen=True, slots=True)
class GapResult:
    """A declared gap of the rulebook (invariants.yml), asked of one spec: whether the situation is reachable, whether
    it would need the ruling without it, and whether the spec closes it (an unknown answer never closes one)."""

    id: str
    summary: str
    ruling: int
    reachable: bool
    needs_ruling: bool
    closed: bool

    def to_json(self) -> dict[str, Any]:
        """The order ``referee prove --format json`` writes (docs/json.md)."""
        return {
            "id": self.id,
            "ruling": self.ruling,
            "closed": self.closed,
            "needs_ruling": self.needs_ruling,
            "reachable": self.reachable,
            "summary": self.summary,
        }


def gaps(
    rules: Rules, declared: tuple[Gap, ...], timeout_ms: int = TIMEOUT_MS, players: tuple[int, ...] = PLAYER_COUNTS
) -> list[GapResult]:
    """Each declared gap the model knows: reachable, closed by the spec, and whether its ruling is what closes it."""
    result = []
    for gap in declared:
        if gap.id not in SITUATIONS:
            continue
        question, without_ruling = SITUATIONS[gap.id]
        bare = without_ruling(rules)

        def answers(spec: Rules, stuck: bool, question: Any = question) -> set[Answer]:
            return {ask(question(spec, n, timeout_ms, stuck)) for n in players}

        result.append(
            GapResult(
                gap.id,
                gap.summary,
                gap.ruling,
                reachable=Answer.SAT in answers(rules, False),
                needs_ruling=Answer.SAT in answers(bare, True),
                closed=answers(rules, True) == {Answer.UNSAT},
            )
        )
    return result
