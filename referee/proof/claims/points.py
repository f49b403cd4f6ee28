"""The ``points`` claim form: what a face of each kind scores, proved by going through every face of the spec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.proof.claims.answering import finite
from referee.proof.claims.claim import ENUMERATED, Claim, ClaimForm
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
    Unreadable,
    one,
)
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class PointsFigures(Figures):
    """``points``: what a face of each kind scores, a number or ``face-value``, in the order the claim lists them."""

    points: tuple[tuple[str, int | str], ...]

    FACE_VALUE: ClassVar[str] = "face-value"

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> PointsFigures:
        where, face_value = node.position, (cls.FACE_VALUE,)
        return cls(tuple((kind, reader.count(value, f"points of {kind}", where, face_value)) for kind, value in node.entries.items()))

    def get(self, kind: str) -> int | str | None:
        return dict(self.points).get(kind)

    def by_key(self) -> dict[str, Any]:
        return dict(self.points)


def points_problem(claim: Claim[PointsFigures], rules: Rules) -> str | None:
    """The first kind the claim scores otherwise than the spec, or that the spec lacks, or a kind of the spec the
    claim leaves out (the claim speaks of every face: a new kind's points are claimed too)."""
    kinds = {face_rules.face.kind for face_rules in rules.faces.values()}
    unclaimed = sorted(kinds - {kind for kind, _ in claim.figures.points})
    if unclaimed:
        return f"the claim does not say what a {unclaimed[0]} scores (the spec's deck has that kind)"
    for kind, figure in claim.figures.points:
        if kind not in kinds:
            return f"the spec has no face of kind {kind}"
        for face_rules in rules.faces.values():
            face = face_rules.face
            if face.kind != kind:
                continue
            expected = face.number if figure == PointsFigures.FACE_VALUE else figure
            if face_rules.points != expected:
                return f"{face.token} scores {face_rules.points}, not {expected}"
    return None


def _points_step(claim: Claim[PointsFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, claim.figures
    if state.phase is not PLAYING and state.last_result is not None and isinstance(event, ev.Play | ev.Draw):
        result = state.last_result
        if result.winner is None:  # the round points are the cards left in hands, under either scoring
            return None
        total = 0
        for hand in state.hands:
            for card, count in hand.items():
                face = card.faces[state.side]
                figure = figures.get(face.kind)
                if figure is not None:
                    total += count * ((face.number or 0) if figure == PointsFigures.FACE_VALUE else int(figure))
                else:
                    total += count * engine.rules.faces[face].points
        if result.points != total:
            return f"{result.winner} scored {result.points} for the round; {claim.whose} values give {total}"
    return None


def restate(figures: PointsFigures, rules: Rules, players: tuple[int, ...]) -> PointsFigures | str:
    """What the faces of each kind score under the spec: the kinds the claim lists first, then the spec's others."""
    found: list[tuple[str, int | str]] = []
    listed = [kind for kind, _ in figures.points]
    spec_kinds = list(dict.fromkeys(face.face.kind for face in rules.faces.values()))
    for kind in listed + [kind for kind in spec_kinds if kind not in listed]:
        faces = [face for face in rules.faces.values() if face.face.kind == kind]
        if not faces:
            continue  # a kind the spec has not: left out of the restated claim
        if all(face.face.number is not None and face.points == face.face.number for face in faces):
            found.append((kind, PointsFigures.FACE_VALUE))
            continue
        try:
            found.append((kind, one([face.points for face in faces], kind)))
        except Unreadable as why:
            return str(why)
    return PointsFigures(tuple(found))


FORM = ClaimForm(ClaimFormName.POINTS, PointsFigures, finite(points_problem, ENUMERATED), _points_step, read_back=restate)
