"""The ``table`` claim form: the player range, the hand size dealt and the side a round starts on; the range and the
side compared with the spec's, the hand size asked of the Z3 deal relation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.engine import PLAYING, Engine
from referee.log import events as ev
from referee.proof.answers import Status, ask, for_each_count
from referee.proof.claims.claim import ENUMERATED, SEARCH, Answered, Claim, ClaimForm, Written
from referee.proof.claims.figures import (
    ClaimReader,
    Figures,
)
from referee.proof.claims.steps import Before
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.loader import Mapping
from referee.spec.vocabulary import TABLE_KEYS, ClaimFormName

if TYPE_CHECKING:
    import z3


@dataclass(frozen=True, slots=True)
class TableFigures(Figures):
    """``table``: the player range, the hand size dealt and the side a round starts on; each only where stated."""

    min_players: int | None = None
    max_players: int | None = None
    hand_size: int | None = None
    start_side: str | None = None

    @classmethod
    def read(cls, reader: ClaimReader, node: Mapping) -> TableFigures:
        reader.keys(node, TABLE_KEYS, set(), "a table claim")
        where = node.position
        stated: dict[str, Any] = {
            key: reader.scalar(value, key, where) if key == "start-side" else reader.whole_number(value, key, where)
            for key, value in node.entries.items()
        }
        return cls(stated.get("min-players"), stated.get("max-players"), stated.get("hand-size"), stated.get("start-side"))

    def by_key(self) -> dict[str, Any]:
        values = {
            "min-players": self.min_players,
            "max-players": self.max_players,
            "hand-size": self.hand_size,
            "start-side": self.start_side,
        }
        return {key: value for key, value in values.items() if value is not None}


def table_problem(claim: Claim[TableFigures], rules: Rules) -> str | None:
    """The player range and the start side, against the spec's."""
    spec = rules.spec
    figures = claim.figures
    if figures.min_players is not None and spec.min_players != figures.min_players:
        return f"the spec is for at least {spec.min_players} players, not {figures.min_players}"
    if figures.max_players is not None and spec.max_players != figures.max_players:
        return f"the spec is for at most {spec.max_players} players, not {figures.max_players}"
    if figures.start_side is not None and spec.side_names[spec.start_side] != figures.start_side:
        return f"a round starts on the {spec.side_names[spec.start_side]} side, not the {figures.start_side} side"
    return None


def hand_size_question(claim: Claim[TableFigures], rules: Rules, n: int, timeout_ms: int) -> z3.Solver:
    """Can a deal give a hand of other than the claim's size? (sat: refuted)"""
    import z3

    from referee.proof.model import Model, State, solver

    model = Model(rules, n, len(rules.deck))
    state = State.make(n, "start")
    check = solver(timeout_ms)
    check.add(model.deal(state), z3.Or(*[hand != claim.figures.hand_size for hand in state.hands]))
    return check


def _table_step(claim: Claim[TableFigures], rules: Rules, previous: Before | None, engine: Engine, event: Any) -> str | None:
    state, figures, names = engine.state, claim.figures, rules.spec.side_names
    wrong_side = figures.start_side is not None and names[state.side] != figures.start_side
    if isinstance(event, ev.Round) and wrong_side:
        return f"round {state.round_number} starts on the {names[state.side]} side, not the {figures.start_side} side"
    if isinstance(event, ev.Shuffle | ev.Start) and state.phase is PLAYING:
        size = figures.hand_size
        if size is not None and any(hand != size for hand in state.hand_sizes):
            return f"hands of {sorted(set(state.hand_sizes))} cards were dealt, not {size}"
    return None


def _table_answer(claim: Claim[TableFigures], rules: Rules, players: tuple[int, ...], timeout_ms: int) -> Answered:
    """The table: the player range, the side, case by case; the hand size dealt, asked of the model."""
    problem = table_problem(claim, rules)
    if problem:
        return Status.REFUTED, list(players), problem
    hand_size = claim.figures.hand_size
    if hand_size is None:
        return Status.PROVED, [], ENUMERATED
    status, refuted = for_each_count(players, lambda n: ask(hand_size_question(claim, rules, n, timeout_ms)))
    return status, refuted, f"a deal gives a hand of other than {hand_size} cards" if refuted else ""


def _table_written(claim: Claim[TableFigures], rules: Rules, spec_path: str) -> Written:
    """The player range: the table of one player too many or too few that the spec turns away or accepts."""
    figures = claim.figures
    if figures.min_players is None and figures.max_players is None:
        return SEARCH
    spec = rules.spec
    low = spec.min_players if figures.min_players is None else figures.min_players
    high = spec.max_players if figures.max_players is None else figures.max_players
    if spec.min_players > low or spec.max_players < high:  # a table the rulebook allows, turned away
        wanted, verdict = (low if spec.min_players > low else high), "the spec turns the table away (bad-setup at line 3)"
    elif spec.max_players > high or spec.min_players < low:  # a table the rulebook does not allow, accepted
        wanted, verdict = (high + 1 if spec.max_players > high else low - 1), "the spec accepts it"
    else:
        return True, None
    names = " ".join(f"Player{index + 1}" for index in range(wanted))
    return True, (
        f"# counterexample to {claim.id}: the rulebook is for {low} to {high} players; a table of {wanted}: {verdict}\n"
        f"# replay: referee check --spec {spec_path} THIS-LOG\n"
        f"players {names}\nround 1\ndealer Player1\n"
    )


def restate(figures: TableFigures, rules: Rules, players: tuple[int, ...]) -> TableFigures | str:
    """The spec's values of the keys the claim states (and of no other)."""
    spec = rules.spec
    return TableFigures(
        spec.min_players if figures.min_players is not None else None,
        spec.max_players if figures.max_players is not None else None,
        spec.hand_size if figures.hand_size is not None else None,
        spec.side_names[spec.start_side] if figures.start_side is not None else None,
    )


FORM = ClaimForm(ClaimFormName.TABLE, TableFigures, _table_answer, _table_step, written=_table_written, read_back=restate)
