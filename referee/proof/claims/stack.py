"""The ``stack`` claim form: a card of a kind played on a penalty owed (option stacking) passes it on to the next
player with more cards, asked of the Z3 transition relation after showing that such a stack can be played."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.engine import Engine
from referee.log import events as ev
from referee.proof.answers import Answer, Status, first_sat, for_each_count
from referee.proof.claims.claim import SEARCH, Answered, Claim, ClaimForm, Written, kind_of
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
    Unreadable,
    one,
)
from referee.proof.claims.steps import Before, played_kind
from referee.proof.faces import faces_of
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    import z3


STACK_KEYS = frozenset({"kind", "adds"})


@dataclass(frozen=True, slots=True)
class StackFigures(Figures):
    """``stack``: a card of ``kind`` played on a penalty owed passes it on to the next player with ``adds`` more."""

    kind: str
    adds: int

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> StackFigures:
        where, entries = node.position, node.entries
        reader.keys(node, STACK_KEYS, set(STACK_KEYS), "a stack claim")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        return cls(kind, reader.whole_number(entries.get("adds"), "adds", where))

    def by_key(self) -> dict[str, Any]:
        return {"kind": self.kind, "adds": self.adds}


def stack_question(claim: Claim[StackFigures], rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """For each face of the kind played by the player who owes a penalty (option stacking): can anyone but the next
    player owe after it, or another total than the penalty plus the claim's ``adds``? (sat: refuted). With
    ``possible``: can such a stack be played at all? (unsat: refuted, the claim would hold of nothing)"""
    import z3

    from referee.proof.model import Model, State, solver

    figures = claim.figures
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        pre, post = State.make(n, "pre"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        step = model.play(pre, post, seat, face_rules, face_colour, chosen, uncovered, z3.Bool("moved"))
        check = solver(timeout_ms)
        owing = z3.And(pre.owed_seat == seat, pre.owed >= 1)  # a count owed by the player who plays
        check.add(model.conservation(pre), model.turn_valid(pre), step, owing)
        if not possible:
            expected = [post.owed_seat == model.next_seat(seat, post.direction), post.owed == pre.owed + figures.adds]
            check.add(z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def _stack_step(claim: Claim[StackFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, claim.figures
    if isinstance(event, ev.Play) and previous is not None and previous.first is not None:
        seat = state.seat[event.player]
        player, count = previous.first[0], previous.first[1]
        if player == seat and played_kind(rules, event.card, previous.side) == figures.kind and state.penalties:
            passed = state.penalties[-1]
            receiver = state.next_player(seat)
            if passed.player != receiver or passed.count != count + figures.adds:
                return (
                    f"{event.player} stacked a {figures.kind} on {count} cards: {state.players[passed.player]} owes {passed.count}, "
                    f"not {state.players[receiver]} {count + figures.adds}"
                )
    return None


def _stack_answer(claim: Claim[StackFigures], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    never = [n for n in players if first_sat(stack_question(claim, rules, n, timeout_ms, True)) is Answer.UNSAT]
    if never:
        return Status.REFUTED, never, f"no {claim.figures.kind} can be stacked on a penalty under the spec"
    status, refuted = for_each_count(players, lambda n: first_sat(stack_question(claim, rules, n, timeout_ms)))
    return status, refuted, ""


def _withdrawn_stack(claim: Claim[StackFigures], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """The compiled stacking table is what the engine asks: exact, and finite."""
    why = f"withdrawn by the spec ({claim.withdrawn})"
    kind = kind_of(claim)
    owed = sorted(owed for owed, allowed in (rules.stacking or {}).items() if kind in allowed)
    if not owed:
        return Status.PROVED, [], f"{why}: the spec's option stacking lets no {kind} go on any penalty"
    return Status.REFUTED, list(players), f"{why}, but a {kind} may still go on {', '.join(owed)}: restate the claim instead"


def _stack_written(claim: Claim[StackFigures], rules: Rules, spec_path: str) -> Written:
    """A kind the spec's option stacking never lets go on a penalty: no game shows it stacked."""
    kind = kind_of(claim)
    if any(f.stackable for f in rules.faces.values() if f.face.kind == kind):
        return SEARCH
    return True, (
        f"# refutation of {claim.id}: a {kind} is meant to be stacked on a penalty owed\n"
        f"# no game can show it: the spec's option stacking lets no {kind} go on any penalty;\n"
        f"# the state: a player owes a penalty and holds a {kind}; playing it is illegal-play\n"
    )


def restate(figures: StackFigures, rules: Rules, players: tuple[int, ...]) -> StackFigures | str:
    """What a card of the kind adds to a penalty under the spec, when every face of it adds the same."""
    kind = figures.kind
    faces = faces_of(rules, kind)
    if not faces:
        return f"no face of kind {kind} under the spec"
    try:
        return StackFigures(kind, one([face.draw for face in faces], kind))
    except Unreadable as why:
        return str(why)


FORM = ClaimForm(ClaimFormName.STACK, StackFigures, _stack_answer, _stack_step, _withdrawn_stack, _stack_written, restate)
