"""A hypothesis state machine plays random legal games through the engine, checking after every event the
concrete form of every invariant `referee prove` proves with Z3 (written once, beside its Z3 form, in
referee.proof.invariants), and the properties of the engine's own code that no spec can change (the turn is a
seat, an UNO window belongs to a player with one card, every card is in one place), so a failure here
shrinks to a short game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, Engine
from referee.engine.moves import legal_moves
from referee.log import events as ev
from referee.proof.invariants import INVARIANT_FORMS, invariant_violation
from referee.rules.compiler import load_rules

RULES = load_rules(Path(__file__).resolve().parent.parent / "specs" / "uno-flip.yaml")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Kim")


class Games(RuleBasedStateMachine):
    """Each step is one of the legal moves in the current state, which the engine must accept."""

    engine: Engine
    line: int

    def _apply(self, event: ev.Event) -> None:
        diagnostic = self.engine.apply(event)
        assert diagnostic is None, f"line {event.line}: {diagnostic}"

    def _deal(self, number: int, order: list[int]) -> None:
        state = self.engine.state
        self.line += 1
        self._apply(ev.Round(self.line, number))
        dealer = 0 if number == 1 else (state.dealer + 1) % state.player_count
        self.line += 1
        self._apply(ev.Dealer(self.line, state.players[dealer]))
        deck = list(state.deck)
        self.line += 1
        self._apply(ev.Shuffle(self.line, tuple(deck[i].token for i in order)))

    @initialize(players=st.integers(2, 10), order=st.permutations(range(112)))
    def start(self, players: int, order: list[int]) -> None:
        self.engine = Engine(RULES)
        self.line = 1
        self._apply(ev.Players(1, NAMES[:players]))
        self._deal(1, order)

    def _candidates(self) -> list[ev.Event]:
        """The library's legal moves (``referee.engine.moves.legal_moves``, generated from the state; test_game.py checks
        that each is accepted and that moves of every other form are rejected)."""
        return [move.at_line(self.line + 1) for move in legal_moves(self.engine)]

    @precondition(lambda self: self.engine.state.phase is PLAYING)
    @rule(data=st.data())
    def play_one_event(self, data: st.DataObject) -> None:
        legal = self._candidates()
        assert legal, "a player to move with no legal event (gap.no-legal-event)"
        event = data.draw(st.sampled_from(legal))
        self.line += 1
        self._apply(event)

    @precondition(lambda self: self.engine.state.phase is ROUND_OVER)
    @rule(order=st.permutations(range(112)))
    def next_round(self, order: list[int]) -> None:
        self._deal(self.engine.state.round_number + 1, order)

    @precondition(lambda self: self.engine.state.phase is GAME_OVER)
    @rule()
    def game_over(self) -> None:
        assert self.engine.state.game_winner is not None

    @invariant()
    def cards_conservation(self) -> None:
        state = self.engine.state
        places: Counter = Counter(state.discard_pile)
        places.update(state.draw_pile)
        for hand in state.hands:
            places.update(hand)
        assert +places == state.deck_counts and state.card_count() == 112

    @invariant()
    def turn_valid(self) -> None:
        state = self.engine.state
        assert 0 <= state.turn < state.player_count and state.direction in (1, -1)

    @invariant()
    def the_provers_invariants(self) -> None:
        if not hasattr(self, "engine"):
            return
        for invariant_id in INVARIANT_FORMS:
            if invariant_id in ("flip.order", "penalty.into-hand"):  # judged on a step, not a state: see test_claims
                continue
            problem = invariant_violation(invariant_id, len(self.engine.rules.deck), None, self.engine, None)
            assert problem is None, f"{invariant_id}: {problem}"

    @invariant()
    def uno_window(self) -> None:
        state = self.engine.state
        assert state.uno_player is None or state.hand_sizes[state.uno_player] == 1


Games.TestCase.settings = settings(max_examples=20, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TestGames = Games.TestCase


class LongGames(Games):
    """The slow tier: ten times the examples and longer games."""


# A shuffle is a permutation of the whole deck: 150 steps of the simplest game are a large input by nature (and since
# legal_moves lists no move that changes nothing, the simplest game no longer stalls early).
LongGames.TestCase.settings = settings(
    max_examples=200, stateful_step_count=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example]
)
TestLongGames = pytest.mark.slow(LongGames.TestCase)
