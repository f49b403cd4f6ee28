"""The ``challenge`` claim form: a wild draw card challenged and ruled guilty or innocent (who draws, how many, who
moves after), or no challenge at all; asked of the Z3 transition relation after showing one can be made."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from referee.engine.engine import Engine
from referee.log import events as ev
from referee.proof.answers import Answer, first_sat
from referee.proof.claims.answering import dispute, withdrawn
from referee.proof.claims.claim import Claim, ClaimForm
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
)
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import FaceRules, Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    import z3


class ChallengeRuling(StrEnum):
    """How a challenge of a wild draw card is ruled: the player bluffed (guilty) or did not."""

    GUILTY = "guilty"
    INNOCENT = "innocent"


class ChallengeDrawer(StrEnum):
    """Who draws the penalty after the ruling: the player of the card, or the challenger."""

    PLAYER = "player"
    CHALLENGER = "challenger"


class ChallengeCards(StrEnum):
    """How many cards: the card's penalty, or the penalty and the extra cards of a failed challenge."""

    PENALTY = "penalty"
    PENALTY_AND_EXTRA = "penalty-and-extra"


class ChallengeThen(StrEnum):
    """Who moves after the ruling: the challenger, or the player after the challenger."""

    CHALLENGER_PLAYS = "challenger-plays"
    CHALLENGER_LOSES_TURN = "challenger-loses-turn"


CHALLENGE_KEYS = frozenset({"ruling", "draws", "cards", "then", "extra"})


# The rulebooks' figures where a claim leaves them out (claims files written before the figures were claim keys):
# an innocent challenger's extra cards and the UNO catch penalty are 2 in both official sheets.
DEFAULT_EXTRA = 2


@dataclass(frozen=True, slots=True)
class ChallengeFigures(Figures):
    """``challenge``: a wild draw card challenged and ruled ``ruling``: who draws, how many, who moves after; or
    ``never``: no challenge can arise (a house rule without bluffing)."""

    never: bool = False
    extra: int = DEFAULT_EXTRA
    ruling: ChallengeRuling | None = None  # None: never
    draws: ChallengeDrawer | None = None
    cards: ChallengeCards | None = None
    then: ChallengeThen | None = None

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> ChallengeFigures:
        where, entries = node.position, node.entries
        if set(entries) == {"never"}:
            reader.choice(entries.get("never"), "never", where, ("true",))
            return cls(never=True)
        reader.keys(node, CHALLENGE_KEYS, set(CHALLENGE_KEYS - {"extra"}), "a challenge claim")
        extra = reader.whole_number(entries["extra"], "extra", where) if "extra" in entries else DEFAULT_EXTRA
        ruling = reader.member(entries.get("ruling"), "ruling", where, ChallengeRuling)
        draws = reader.member(entries.get("draws"), "draws", where, ChallengeDrawer)
        cards = reader.member(entries.get("cards"), "cards", where, ChallengeCards)
        then = reader.member(entries.get("then"), "then", where, ChallengeThen)
        return cls(False, extra, ruling, draws, cards, then)

    @property
    def guilty(self) -> bool:
        return self.ruling is ChallengeRuling.GUILTY

    def by_key(self) -> dict[str, Any]:
        if self.never:
            return {"never": True}
        return {"never": False, "extra": self.extra, "ruling": self.ruling, "draws": self.draws, "cards": self.cards, "then": self.then}

    def written(self) -> dict[str, Any]:
        if self.never:
            return {"never": True}
        return {"ruling": self.ruling, "draws": self.draws, "cards": self.cards, "extra": self.extra, "then": self.then}


def challengeable_faces(rules: Rules) -> list[FaceRules]:
    """One face of each behaviour that gives a penalty open to a challenge."""
    from referee.proof.model import Model

    model = Model(rules, 2, len(rules.deck))
    return [face_rules for face_rules in model.signatures if face_rules.challengeable and face_rules.gives_penalty]


def challenge_question(claim: Claim[ChallengeFigures], rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """For each challengeable face: a play of it, then a challenge ruled as the claim says (guilty or innocent).
    Can the ruling differ from the claim: who draws, how many, who moves after? (sat: refuted). With ``possible``:
    can such a challenge be made at all? (unsat: the claim would hold of nothing, so it is refuted)."""
    import z3

    from referee.proof.model import OWED_UNTIL_COLOUR, Model, State, solver

    figures = claim.figures
    model = Model(rules, n, len(rules.deck))
    questions = []
    for face_rules in challengeable_faces(rules):
        pre, mid, post = State.make(n, "pre"), State.make(n, "mid"), State.make(n, "post")
        seat, chosen, uncovered, face_colour = z3.Ints("seat chosen uncovered face_colour")
        play = model.play(pre, mid, seat, face_rules, face_colour, chosen, uncovered, z3.Bool("moved"))
        challenger = mid.owed_seat
        guilty = z3.Bool("guilty") if figures.never else z3.BoolVal(figures.guilty)  # never: either ruling
        ruled = model.challenge(mid, post, challenger, guilty)
        check = solver(timeout_ms)
        check.add(model.conservation(pre), model.turn_valid(pre), play, mid.hand(seat) >= 1, ruled)
        if not possible:
            extra = figures.extra if figures.cards is ChallengeCards.PENALTY_AND_EXTRA else 0  # the claim's figure, never the spec's
            until = mid.owed == OWED_UNTIL_COLOUR
            expected = [
                post.owed_seat == (seat if figures.draws is ChallengeDrawer.PLAYER else challenger),
                post.owed == z3.If(until, mid.owed, mid.owed + extra),
                post.extra == z3.If(until, mid.extra + extra, mid.extra),
                post.after
                == (challenger if figures.then is ChallengeThen.CHALLENGER_PLAYS else model.next_seat(challenger, mid.direction)),
            ]
            check.add(z3.Not(z3.And(*expected)))
        questions.append(check)
    return questions


def _challenge_step(claim: Claim[ChallengeFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, claim.figures
    if figures.never:
        if isinstance(event, ev.Challenge):
            return f"{event.player} challenged {event.target}'s wild draw card: the claim is that no challenge can arise"
        return None
    if isinstance(event, ev.Challenge) and previous is not None and previous.first is not None:
        return _challenge_violation(figures, rules, previous, engine, event)
    if isinstance(event, ev.Play) and previous is not None and state.discard_pile:
        face = state.discard_pile[-1].faces[previous.side]
        penalty = state.penalties[-1] if state.penalties else None
        wild_draw = face.is_wild and engine.rules.faces[face].gives_penalty  # faces are the engine's
        if wild_draw and penalty is not None and penalty.played_by == state.seat[event.player] and not penalty.challengeable:
            victim = state.players[penalty.player]
            return f"{event.player} played {face.token}, a wild draw card: the rulebook lets {victim} challenge it, the spec does not"
    return None


def _challenge_violation(figures: ChallengeFigures, rules: Rules, previous: Before, engine: Engine, event: ev.Challenge) -> str | None:
    """A challenge ruled as the claim's ruling: does the penalty now owed say what the claim says?"""
    state = engine.state
    player, count, until_colour, extra_before, guilty, played_by = previous.first  # type: ignore[misc]
    if guilty != figures.guilty or not state.penalties or played_by is None:
        return None  # another ruling, or the penalty was dropped at once (nothing left to draw)
    penalty = state.penalties[0]
    names = state.players
    challenger = state.seat[event.player]
    drawer = played_by if figures.draws is ChallengeDrawer.PLAYER else challenger
    extra = figures.extra if figures.cards is ChallengeCards.PENALTY_AND_EXTRA else 0
    following = challenger if figures.then is ChallengeThen.CHALLENGER_PLAYS else (challenger + state.direction) % len(names)
    what = f"after {event.player}'s challenge, ruled {figures.ruling},"
    if penalty.player != drawer:
        return f"{what} {names[penalty.player]} draws the penalty, not {names[drawer]}"
    owed_now = (penalty.count, penalty.extra) if until_colour is None else (penalty.extra,)
    owed_claimed = (count + extra, extra_before) if until_colour is None else (extra_before + extra,)
    if owed_now != owed_claimed:
        more = extra_before + extra
        claimed = f"{count + extra} cards" if until_colour is None else f"cards until a {until_colour} one, then {more} more"
        return f"{what} {names[drawer]} owes {penalty.describe()}, not {claimed}"
    if penalty.next_turn != following:
        moves = names[penalty.next_turn] if penalty.next_turn is not None else "nobody new"
        return f"{what} {moves} moves once it is drawn, not {names[following]}"
    return None


def restate(figures: ChallengeFigures, rules: Rules, players: tuple[int, ...]) -> ChallengeFigures | str:
    """The rulebook's ruling with the spec's extra cards for a failed challenge."""
    if figures.never:
        return "a challenge can be made under the spec"
    return dataclasses.replace(figures, extra=rules.innocent_extra)


def _never(claim: Claim[ChallengeFigures]) -> bool:
    return claim.figures.never


def _arises(claim: Claim[ChallengeFigures], rules: Rules, n: int, timeout_ms: int) -> Answer:
    return first_sat(challenge_question(claim, rules, n, timeout_ms, True))


FORM = ClaimForm(
    ClaimFormName.CHALLENGE,
    ChallengeFigures,
    dispute(challenge_question, "challenge of a wild draw card", _never),
    _challenge_step,
    withdrawn(_arises),
    read_back=restate,
)
