"""The ``matching`` claim form: what a played face must share with the top of the discard pile, proved by going
through every face against every top face under every colour (``match_cases``), with the engine's own verdict."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from referee.cards import Face, FaceClass
from referee.engine.engine import PLAYING, Engine
from referee.proof.claims.answering import finite
from referee.proof.claims.claim import ENUMERATED, Claim, ClaimForm
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
)
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import MATCHING_KEYS, ClaimFormName

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class MatchingFigures(Figures):
    """``matching``: what a played face must share with the top of the discard pile (the spec's matching section)."""

    same_colour: bool
    same_number: bool
    same_action_kind: bool
    wild_always: bool

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> MatchingFigures:
        reader.keys(node, set(MATCHING_KEYS), set(MATCHING_KEYS), "a matching claim")
        same_colour, same_number, same_action_kind, wild_always = (
            reader.choice(node.entries.get(key), key, node.position, ("true", "false")) == "true" for key in MATCHING_KEYS
        )
        return cls(same_colour, same_number, same_action_kind, wild_always)

    def by_key(self) -> dict[str, Any]:
        values = (self.same_colour, self.same_number, self.same_action_kind, self.wild_always)
        return dict(zip(MATCHING_KEYS, values, strict=True))


def match_cases(rules: Rules) -> Iterator[tuple[Face, Face, str, bool]]:
    """Every face against every top face of its side under every colour it can have: (face, top, colour, the
    engine's own verdict). Finite, so a question about matching is answered by going through all of it."""
    engine = Engine(rules)
    state = engine.state
    for side in range(rules.spec.sides):
        tops = {card.faces[side]: card for card in sorted(rules.deck, key=lambda card: card.token)}
        faces = sorted(tops, key=lambda face: face.token)
        for top in faces:
            for colour in [top.colour] if top.colour is not None else sorted(rules.side_colours[side]):
                state.discard_pile, state.side, state.colour = [tops[top]], side, colour
                for face in faces:
                    yield face, top, colour, engine.matches(face)


def matching_problem(claim: Claim[MatchingFigures], rules: Rules) -> str | None:
    """Every face against every top face of its side under every colour: does the engine's matching say what the claim says?"""
    for face, top, colour, matches in match_cases(rules):
        expected = _claimed_match(claim.figures, face, top, colour)
        if matches != expected:
            verb = "may" if expected else "may not"
            return f"{face.token} {verb} be played on {top.token} (colour in play {colour}), but the spec says otherwise"
    return None


def _claimed_match(figures: MatchingFigures, face: Face, top: Face, colour: str) -> bool:
    if face.is_wild:
        return figures.wild_always
    if figures.same_colour and face.colour == colour:
        return True
    if figures.same_number and face.number is not None and face.number == top.number:
        return True
    both_actions = face.face_class is FaceClass.ACTION and top.face_class is FaceClass.ACTION
    return figures.same_action_kind and both_actions and face.kind == top.kind


def _matching_step(claim: Claim[MatchingFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state = engine.state
    if state.phase is not PLAYING or state.penalties or state.choose_by is not None:
        return None
    top = state.top_face()
    if top is None or state.colour is None:
        return None
    for card in sorted(state.hands[state.turn], key=lambda card: card.token):
        face = card.faces[state.side]
        expected = _claimed_match(claim.figures, face, top, state.colour)
        if engine.matches(face) != expected:
            verb = "lets" if expected else "does not let"
            return (
                f"{state.players[state.turn]} holds {face.token}: the rulebook {verb} it be played on {top.token} "
                f"(colour in play {state.colour}), the spec says otherwise"
            )
    return None


def restate(figures: MatchingFigures, rules: Rules, players: tuple[int, ...]) -> MatchingFigures | str:
    """The spec's own matching section."""
    spec_matching = rules.spec.matching
    return MatchingFigures(spec_matching.same_colour, spec_matching.same_number, spec_matching.same_action_kind, spec_matching.wild_always)


FORM = ClaimForm(ClaimFormName.MATCHING, MatchingFigures, finite(matching_problem, ENUMERATED), _matching_step, read_back=restate)
