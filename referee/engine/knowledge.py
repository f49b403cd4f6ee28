"""How the cards of a round are known: one object per mode, chosen when the round is dealt.

A log deals a round one of three ways (docs/log-format.md, "Modes"): ``shuffle`` (full mode: the draw pile's
order is known, a draw may name no card and takes the top one), ``hand`` lines (observed mode: the draw pile
is known only as counts of cards, so every draw names its cards) or ``public`` (a public round: no card
leaves the draw pile by name; ``referee.engine.public_knowledge``). The engine keeps the checks and their
order; what a take, a play from a hand, a flip or a reshuffle does to the cards is the mode's, here, so
that the engine never asks which mode it is in.

The objects hold no state (the state is ``GameState``'s: the piles, the hands and, in a public round,
``GameState.hidden``), so one of each is shared by every game, and a state's copy shares it too.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from referee.cards import Card
from referee.engine.reject import Reject
from referee.rules import effects
from referee.spec.vocabulary import Check
from referee.verdicts import Code

if TYPE_CHECKING:
    from referee.engine.state import EngineApi, GameState, Penalty
    from referee.log import events as ev
    from referee.rules.compiler import FaceRules


class Knowledge:
    """Observed mode (``hand`` lines), and what every mode shares: the draw pile is counts of cards, a draw names
    its cards."""

    def __init__(self, name: str = "observed", ordered: bool = False) -> None:
        self.name = name  # how the docs and messages name the mode
        self.ordered = ordered  # the draw pile's order is known: a draw may name no card and takes the top one

    def __repr__(self) -> str:
        return f"<{self.name} knowledge>"

    def pile_size(self, state: GameState) -> int:
        """How many cards the draw pile holds."""
        return state.observed_size

    def take(self, state: GameState, seat: int, named: Card | None) -> Card:
        """One card from the draw pile to ``seat``'s hand: the one the line names (wrong-draw when it is not there)."""
        if named is None:
            self.bare_draw()
        assert named is not None
        left = state.draw_counts.get(named, 0)
        if left <= 0:
            raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, f"{named} is not in the draw pile")
        if left == 1:
            del state.draw_counts[named]
        else:
            state.draw_counts[named] = left - 1
        state.observed_size -= 1
        return to_hand(state, seat, named)

    def bare_draw(self) -> None:
        """A draw line that names no card while cards remain: only full mode knows which card it is."""
        raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "in observed mode a draw names its cards")

    def draw_count(self, engine: EngineApi, seat: int, event: ev.DrawCount) -> None:
        """``P draws N``: a count is a public round's draw only."""
        raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "only a public round's draw is a count: name the cards drawn")

    def drawn_unknown(self, state: GameState) -> int | None:
        """A public round's card just drawn, which a play after the draw must be (a fact, not a check); else None."""
        return None

    def play_from_hand(self, engine: EngineApi, seat: int, card: Card, line: int, same_as: int | None) -> None:
        """``card`` leaves ``seat``'s hand (the caller put it on the discard pile)."""
        state = engine.state
        hand = state.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1
        state.hand_sizes[seat] -= 1

    def held_colour(self, engine: EngineApi, seat: int, line: int, colour: str | None) -> tuple[tuple[Card, ...], int]:
        """A restricted face (a wild draw card) was played on ``colour``: the cards of that colour its player still
        holds (a challenge's evidence), and the index of the question a public round asks instead (-1)."""
        state = engine.state
        side = state.side
        held = (card for card in state.hands[seat] if card.faces[side].colour == colour)
        return tuple(sorted(held, key=lambda card: card.token)), -1

    def pass_hands(self, state: GameState, sources: list[tuple[int, int]]) -> None:
        """Hands passed between seats (a 7's swap, a 0's rotation): each ``(seat, source)`` pair. The engine moves the
        cards it knows; a public round moves its unknowns too."""

    def flip(self, engine: EngineApi, face_rules: FaceRules) -> None:
        """A Flip turned the discard pile over: what else the mode turns (ruling 16)."""

    def reshuffle(self, engine: EngineApi, cards: list[Card], rest: list[Card], line: int) -> None:
        """The discard pile under its top card (``rest``) becomes the draw pile; ``cards``: what the line names."""
        if cards:
            raise Reject(Code.INVALID_RESHUFFLE, Check.RESHUFFLE, f"in {self.name} mode a reshuffle names no cards")
        state = engine.state
        state.draw_counts = dict(Counter(rest))
        state.observed_size = len(rest)

    def start(self, engine: EngineApi, card: Card, first: bool) -> None:
        """The ``start`` line's card leaves the draw pile (``first``: the round's first, the draw pile not yet counted)."""
        state = engine.state
        if first:
            pile = Counter(state.deck_counts)
            for held in state.hands:
                pile.subtract(held)
            state.draw_counts = dict(+pile)
            state.observed_size = sum(state.draw_counts.values())
        if state.draw_counts.get(card, 0) <= 0:
            raise Reject(Code.BAD_SETUP, Check.START_CARD, f"the start card {card} is not in the draw pile")
        state.draw_counts[card] -= 1
        state.observed_size -= 1
        if not state.draw_counts[card]:
            del state.draw_counts[card]

    def put_back(self, engine: EngineApi, card: Card) -> Card | None:
        """The card turned up goes back into the draw pile (at-start ``return-to-draw-pile``): the card turned up
        instead, or None when a ``start`` line must say which it is."""
        state = engine.state
        state.draw_counts[card] = state.draw_counts.get(card, 0) + 1
        state.observed_size += 1
        return None

    def next_round(self) -> Knowledge:
        """The knowledge from a ``round`` line to its deal: the last round's mode, but a public round's unknowns end
        with it."""
        return self

    def turned_up(self, state: GameState) -> None:
        """The card turned up starts the discard pile."""

    def rule_challenge(self, engine: EngineApi, penalty: Penalty, event: ev.Challenge) -> None:
        """A challenge of a play whose hand the record does not show (a public round): rule on it."""

    def round_won(self, engine: EngineApi, winner: int) -> bool:
        """``winner`` went out: whether the round waits for its hands to be shown before it is scored."""
        return False

    def shows_done(self, engine: EngineApi) -> None:
        """Before a score or the next round: every hand a public round must show is shown (missing-shows)."""

    def shows(self, engine: EngineApi, seat: int, event: ev.Shows) -> tuple[int, list[int]] | None:
        """``shows P FACE ...``: only a public round's hands are shown."""
        raise Reject(Code.BAD_SHOWS, Check.SCORE, "only a public round's hands are shown ('shows' lines)")

    def card_in_hand(self, engine: EngineApi, token: str) -> Card | None:
        """The card a ``plays`` token stands for when the hands are hidden; None: look in the hand."""
        return None

    def cards_named(self, engine: EngineApi, token: str) -> list[Card] | None:
        """The cards a ``plays`` token may name when the hands are hidden; None: look in the hand."""
        return None


class FullKnowledge(Knowledge):
    """Full mode (a ``shuffle`` line): every card's place is known, the draw pile in order."""

    def __init__(self) -> None:
        super().__init__("full", True)

    def pile_size(self, state: GameState) -> int:
        return len(state.draw_pile)

    def take(self, state: GameState, seat: int, named: Card | None) -> Card:
        if not state.draw_pile:
            raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "the draw pile is empty: a 'reshuffle' must come first")
        top = state.draw_pile[-1]
        if named is not None and named != top:
            raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, f"{named} is not the top of the draw pile ({top} is)", (top.token,))
        state.draw_pile.pop()
        return to_hand(state, seat, top)

    def bare_draw(self) -> None:
        return None

    def flip(self, engine: EngineApi, face_rules: FaceRules) -> None:
        effects.turn_over(engine.state.draw_pile, face_rules.flip_draw_pile)

    def reshuffle(self, engine: EngineApi, cards: list[Card], rest: list[Card], line: int) -> None:
        if Counter(cards).items() != Counter(rest).items():
            under = "under its top card" if engine.rules.reshuffle_keeps_top else "with its top card"
            raise Reject(
                Code.INVALID_RESHUFFLE, Check.RESHUFFLE, f"the new draw pile must be the {len(rest)} cards of the discard pile {under}"
            )
        engine.state.draw_pile = cards[::-1]

    def put_back(self, engine: EngineApi, card: Card) -> Card | None:
        state = engine.state
        faces = engine.rules.faces
        for _ in range(len(state.draw_pile) + 1):
            state.draw_pile.insert(0, card)
            card = state.draw_pile.pop()
            if "return-to-draw-pile" not in faces[card.faces[state.side]].at_start:
                break
        return card


def to_hand(state: GameState, seat: int, card: Card) -> Card:
    """``card`` joins ``seat``'s hand."""
    hand = state.hands[seat]
    hand[card] = hand.get(card, 0) + 1
    state.hand_sizes[seat] += 1
    return card


OBSERVED = Knowledge()
FULL = FullKnowledge()
