"""The ``start`` claim form: what follows a card of a kind turned up to start a round (it goes back, or who acts
first, which way, which side, what is owed, where the colour comes from), asked of the Z3 deal relation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.proof.answers import Answer, Status, ask
from referee.proof.claims.answering import card, owes, withdrawn
from referee.proof.claims.claim import SEARCH, Answered, Claim, ClaimForm, Written
from referee.proof.claims.figures import (
    UNTIL_COLOUR,
    ClaimReader,
    ColourFrom,
    Direction,
    Figures,
    Owes,
    Side,
    Unreadable,
    one,
    without_defaults,
)
from referee.proof.claims.steps import Before, compare_after
from referee.proof.faces import faces_of
from referee.records import dataclass
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    import z3


START_KEYS = frozenset({"kind", "returned", "to-act", "direction", "side", "owes", "colour"})


@dataclass(frozen=True, slots=True)
class StartFigures(Figures):
    """``start``: when a card of ``kind`` is turned up to start a round, it goes back (``returned``), or who acts
    first (``to_act`` seats from the dealer), which way, which side is up, what is owed, where the colour comes from."""

    kind: str
    returned: bool = False
    to_act: int = 0
    direction: Direction = Direction.SAME
    side: Side = Side.SAME
    owes: Owes = 0
    colour: ColourFrom | None = None  # None: returned

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> StartFigures:
        where, entries = node.position, node.entries
        reader.keys(node, START_KEYS, {"kind"}, "a start claim")
        if reader.true_false(entries.get("returned"), "returned", where):
            return cls(reader.scalar(entries.get("kind"), "kind", where), returned=True)
        for key in ("to-act", "colour"):
            if key not in entries:
                reader.error(where, f"a start claim needs '{key}' (or returned: true)")
        kind = reader.scalar(entries.get("kind"), "kind", where)
        to_act = reader.whole_number(entries.get("to-act"), "to-act", where)
        direction = reader.member(entries.get("direction"), "direction", where, Direction, Direction.SAME)
        side = reader.member(entries.get("side"), "side", where, Side, Side.SAME)
        owes = reader.count(entries.get("owes"), "owes", where, (UNTIL_COLOUR,)) if "owes" in entries else 0
        colour = reader.member(entries.get("colour"), "colour", where, ColourFrom)
        return cls(kind, False, to_act, direction, side, owes, colour)

    def by_key(self) -> dict[str, Any]:
        if self.returned:
            return {"kind": self.kind, "returned": True}
        return {
            "kind": self.kind,
            "returned": False,
            "to-act": self.to_act,
            "direction": self.direction,
            "side": self.side,
            "owes": self.owes,
            "colour": self.colour,
        }

    def written(self) -> dict[str, Any]:
        if self.returned:
            return self.by_key()
        figures = self.by_key()
        del figures["returned"]
        return without_defaults(figures)


def start_question(claim: Claim[StartFigures], rules: Rules, n: int, timeout_ms: int) -> list[z3.Solver]:
    """For each face of the kind turned up at the start: can the deal differ from the claim? (sat: refuted)"""
    import z3

    from referee.proof.model import NONE, Model, State, solver

    figures = claim.figures
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in faces_of(rules, figures.kind):
        if face_rules.face.side != rules.spec.start_side:
            continue
        state = State.make(n, "start")
        dealer = z3.Int("dealer")
        dealt = z3.And(model.dealt(state), model.seat(dealer), model.deal_for(state, face_rules, dealer))
        check = solver(timeout_ms)
        if figures.returned:
            check.add(dealt)  # a card that goes back is never the start card: no deal has it on top
            questions.append(check)
            continue
        direction = 1 if figures.direction is Direction.SAME else -1
        side = rules.spec.start_side if figures.side is Side.SAME else 1 - rules.spec.start_side
        turn = (dealer + figures.to_act) % n
        expected = [state.direction == direction, state.side == side, state.turn == turn, owes(state, model, turn, figures.owes)]
        if figures.colour is ColourFrom.CARD:
            expected += [model.in_side(state.colour, state.side), z3.Not(state.pending)]
        elif figures.colour is ColourFrom.CHOSEN:
            expected += [state.colour == NONE, state.pending]
        else:
            expected += [z3.Or(state.pending, model.in_side(state.colour, state.side))]
        check.add(dealt, z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def start_possible(claim: Claim[StartFigures], rules: Rules, n: int, timeout_ms: int) -> Answer:
    """'sat' when some face of the kind can start a round (a start claim that is not about a returned card needs one)."""
    import z3

    from referee.proof.model import Model, State, solver

    model = Model(rules, n, len(rules.deck))
    options = []
    for face_rules in faces_of(rules, claim.figures.kind):
        if face_rules.face.side == rules.spec.start_side:
            state, dealer = State.make(n, "start"), z3.Int("dealer")
            options.append(z3.And(model.dealt(state), model.seat(dealer), model.deal_for(state, face_rules, dealer)))
    check = solver(timeout_ms)
    check.add(z3.Or(*options) if options else z3.BoolVal(False))
    return ask(check)  # a Ctrl-C that Z3 reports as unknown is an interrupt


def _start_step(claim: Claim[StartFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, names, n = engine.state, claim.figures, rules.spec.side_names, len(engine.state.players)
    if isinstance(event, ev.Shuffle | ev.Start) and state.phase is PLAYING:
        start_side = rules.spec.start_side
        if not figures.returned and not any(f.face.side == start_side for f in faces_of(rules, figures.kind)):
            return f"cards are turned up on the {names[start_side]} side, where there is no {figures.kind}: it never starts a round"
        start_card = state.discard_pile[0] if len(state.discard_pile) == 1 else None
        kind = start_card.faces[rules.spec.start_side].kind if start_card is not None else None
        if kind != figures.kind:
            return None
        if figures.returned:
            return f"a {kind} stayed turned up at the start"
        dealer = state.dealer
        expected_turn = (dealer + figures.to_act) % n
        return compare_after(figures, state, expected_turn, 1, rules.spec.start_side, "the start card", rules.spec.side_names)
    return None


def _ever_starts(claim: Claim[StartFigures], rules: Rules, counts: tuple[int, ...], timeout_ms: int) -> Answered | None:
    figures = claim.figures
    if figures.returned:
        return None
    never = [n for n in counts if start_possible(claim, rules, n, timeout_ms) is Answer.UNSAT]
    return (Status.REFUTED, never, f"a {figures.kind} turned up never starts a round") if never else None


def _start_written(claim: Claim[StartFigures], rules: Rules, spec_path: str) -> Written:
    """A start claim about a kind that never stays turned up (its ``at-start`` sends it back to the draw pile): no game
    can reach a round it starts, so the refutation is the state and the reason, not a log."""
    figures = claim.figures
    if figures.returned:
        return SEARCH
    kind = figures.kind
    start_side = rules.spec.start_side
    faces = [f for f in rules.faces.values() if f.face.kind == kind and f.face.side == start_side]
    if not faces or not all("return-to-draw-pile" in f.at_start for f in faces):
        return SEARCH
    side = rules.spec.side_names[start_side]
    return True, (
        f"# refutation of {claim.id}: a {kind} turned up is meant to start the round, but the spec sends it back\n"
        f"# no game can show it: every {kind} on the {side} side has at-start return-to-draw-pile, so no round starts on one;\n"
        f"# the state: the {kind} is the card turned up, it goes back into the draw pile and another card is turned up\n"
    )


def restate(figures: StartFigures, rules: Rules, players: tuple[int, ...]) -> StartFigures | str:
    """What a card of the kind turned up does under the spec, when every face of it on the start side does the same."""
    kind = figures.kind
    faces = [face for face in faces_of(rules, kind) if face.face.side == rules.spec.start_side]
    if not faces:
        return f"no face of kind {kind} is turned up under the spec"
    try:
        return one([_start_of(kind, face, rules, players) for face in faces], kind)
    except Unreadable as why:
        return str(why)


def _start_of(kind: str, face: FaceRules, rules: Rules, players: tuple[int, ...]) -> StartFigures:
    if "return-to-draw-pile" in face.at_start:
        return StartFigures(kind, returned=True)
    n = max(players)
    begun = effects.start(face, 0, n, rules.two_player_reverse_skips)
    flips = "flip" in face.at_start
    return StartFigures(
        kind,
        returned=False,
        to_act=begun.turn % n,
        direction=Direction.REVERSED if begun.direction == -1 else Direction.SAME,
        side=Side.FLIPPED if flips else Side.SAME,
        owes=0 if begun.victim is None else UNTIL_COLOUR if face.draw_until_colour else face.draw,
        colour=ColourFrom.UNCOVERED
        if flips
        else ColourFrom.CHOSEN
        if "choose-colour" in face.at_start or face.choose_colour
        else ColourFrom.CARD,
    )


def _arises(claim: Claim[StartFigures], rules: Rules, n: int, timeout_ms: int) -> Answer:
    return start_possible(claim, rules, n, timeout_ms)


FORM = ClaimForm(
    ClaimFormName.START,
    StartFigures,
    card(start_question, _ever_starts),
    _start_step,
    withdrawn(_arises, of_a_kind=True),
    _start_written,
    restate,
)
