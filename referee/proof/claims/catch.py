"""The ``catch`` claim form: a player caught not saying UNO (who draws, how many cards, the turn unmoved), asked of
the Z3 transition relation after showing that a catch can be made."""

from __future__ import annotations

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
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import ClaimFormName

if TYPE_CHECKING:
    import z3


class CatchDrawer(StrEnum):
    """Who draws after a catch: the player caught, or (a house rule) the catcher."""

    CAUGHT = "caught"
    CATCHER = "catcher"


CATCH_KEYS = frozenset({"draws", "cards"})


DEFAULT_CATCH_CARDS = 2


@dataclass(frozen=True, slots=True)
class CatchFigures(Figures):
    """``catch``: a player caught not saying UNO: who draws (``caught`` or ``catcher``), and how many cards."""

    draws: CatchDrawer
    cards: int = DEFAULT_CATCH_CARDS

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> CatchFigures:
        where, entries = node.position, node.entries
        reader.keys(node, CATCH_KEYS, {"draws"}, "a catch claim")
        draws = reader.member(entries.get("draws"), "draws", where, CatchDrawer)
        cards = reader.whole_number(entries["cards"], "cards", where) if "cards" in entries else DEFAULT_CATCH_CARDS
        return cls(draws, cards)

    def by_key(self) -> dict[str, Any]:
        return {"draws": self.draws, "cards": self.cards}


def catch_question(claim: Claim[CatchFigures], rules: Rules, n: int, timeout_ms: int, possible: bool = False) -> list[z3.Solver]:
    """A valid catch: can the penalty fall on another player than the claim says, be other than the option
    uno-catch-penalty, or move the turn? (sat: refuted). With ``possible``: can a catch be made at all?"""
    import z3

    from referee.proof.model import Model, State, solver

    model = Model(rules, n, len(rules.deck))
    pre, post = State.make(n, "pre"), State.make(n, "post")
    catcher, caught = z3.Ints("catcher caught")
    check = solver(timeout_ms)
    check.add(model.conservation(pre), model.turn_valid(pre), model.uno_window(pre), model.catch(pre, post, catcher, caught))
    if not possible:
        figures = claim.figures
        drawer = caught if figures.draws is CatchDrawer.CAUGHT else catcher
        check.add(z3.Not(z3.And(post.caught_seat == drawer, post.caught_owed == figures.cards, post.turn == pre.turn)))
    return [check]


def _catch_step(claim: Claim[CatchFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures = engine.state, claim.figures
    if isinstance(event, ev.Catch) and state.penalties and state.penalties[0].catch:
        caught = state.penalties[0]
        drawer = state.seat[event.target if figures.draws is CatchDrawer.CAUGHT else event.player]
        if caught.player != drawer or caught.count != figures.cards:
            return (
                f"{event.player} caught {event.target}: {state.players[caught.player]} owes {caught.count} cards, "
                f"not {state.players[drawer]} {figures.cards}"
            )
    return None


def restate(figures: CatchFigures, rules: Rules, players: tuple[int, ...]) -> CatchFigures | str:
    """Who draws after a catch under the spec, and how many (option uno-catch-penalty)."""
    return CatchFigures(CatchDrawer.CATCHER if rules.spec.disputes.catcher_draws else CatchDrawer.CAUGHT, rules.catch_penalty)


def _arises(claim: Claim[CatchFigures], rules: Rules, n: int, timeout_ms: int) -> Answer:
    return first_sat(catch_question(claim, rules, n, timeout_ms, True))


FORM = ClaimForm(ClaimFormName.CATCH, CatchFigures, dispute(catch_question, "catch"), _catch_step, withdrawn(_arises), read_back=restate)
