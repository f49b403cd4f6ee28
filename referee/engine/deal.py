"""Setup and the deal: the header, each round's start, the hands and the card turned up.

Part of the engine (``referee.engine.engine``): the handlers of ``players``, ``deck``,
``target``, ``round``, ``dealer``, ``shuffle``, ``hand`` and ``start`` lines,
and ``turn_up`` (what the first card of the discard pile does, rulings 4 to
10). ``deal_order`` is the one statement of who gets which card of a shuffled
deck; the full mode's deal, ``referee.Game``'s observed deal and ``simulate``
all use it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from referee.cards import Card
from referee.engine.legality import why_unknown
from referee.engine.reject import Reject
from referee.engine.state import DEALING, FULL, OBSERVED, PLAYING, ROUND_OVER, SETUP, START_AGAIN
from referee.log import events as ev
from referee.rules import effects
from referee.rules.compiler import Rules
from referee.spec.vocabulary import Check
from referee.verdicts import Code, RoundResult

if TYPE_CHECKING:
    from referee.engine.state import EngineApi  # the engine as its parts see it: they never import referee.engine.engine


T = TypeVar("T")


def deal_order(dealer: int, players: int, hand_size: int) -> list[int]:
    """The seat that gets each card dealt, in order: one at a time, from the dealer's left (rule deal)."""
    return [(dealer + 1 + index) % players for index in range(hand_size * players)]


def hands_from(pile: Sequence[T], dealer: int, players: int, hand_size: int) -> list[list[T]]:
    """Each seat's hand as a full-mode deal gives it from the top of ``pile`` (``deal_order``): the one statement of an
    observed deal, for ``referee.Game``'s observed mode and ``simulate``; the rest of ``pile`` is the draw pile."""
    hands: list[list[T]] = [[] for _ in range(players)]
    for seat, card in zip(deal_order(dealer, players, hand_size), pile, strict=False):
        hands[seat].append(card)
    return hands


def players(engine: EngineApi, event: ev.Players) -> None:
    state = engine.state
    names = event.names
    spec = engine.rules.spec
    if not spec.min_players <= len(names) <= spec.max_players:
        raise Reject(
            Code.BAD_SETUP,
            Check.PLAYERS,
            f"{len(names)} player{'s' if len(names) != 1 else ''}: the game is for {spec.min_players} to {spec.max_players}",
        )
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise Reject(Code.BAD_SETUP, Check.PLAYERS, f"player {repeated[0]} is named twice")
    state.players = names
    state.seat = {name: seat for seat, name in enumerate(names)}
    state.totals = [0] * len(names)


def spec_name(engine: EngineApi, event: ev.SpecName) -> None:
    """The spec was resolved before replay began."""


def deck(engine: EngineApi, event: ev.Deck) -> None:
    rules = engine.rules
    cards = []
    for token in event.cards:
        card = rules.catalogue.card(token)
        if card is None:
            raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, f"'{token}' is not a card: {why_unknown(rules, token)}")
        cards.append(card)
    problems = rules.catalogue.composition_problems(list(event.cards)) if rules.spec.deck_official else []
    if len(cards) != len(rules.deck):
        problems.insert(0, f"{len(cards)} cards, not {len(rules.deck)}")
    if problems:
        raise Reject(Code.BAD_SETUP, Check.DECK, "the deck is not official: " + "; ".join(problems))
    engine.state.deck = tuple(cards)
    engine.state.deck_counts = Counter(cards)
    engine.forget_cards()


def target(engine: EngineApi, event: ev.Target) -> None:
    engine.state.target = event.points


def round_(engine: EngineApi, event: ev.Round) -> None:
    state = engine.state
    engine.shows_done()
    if state.phase in (DEALING, SETUP, START_AGAIN, PLAYING):
        raise Reject(Code.BAD_SETUP, Check.ROUND_ORDER, f"round {state.round_number} is not finished")
    if event.number != state.round_number + 1:
        raise Reject(
            Code.BAD_SETUP,
            Check.ROUND_ORDER,
            f"round {event.number} follows round {state.round_number}: expected round {state.round_number + 1}",
        )
    n = state.player_count
    state.round_number = event.number
    state.phase = DEALING
    state.side = engine.rules.spec.start_side
    state.direction = 1
    state.draw_pile = []
    state.draw_counts = {}
    state.observed_size = 0
    state.discard_pile = []
    state.hands = [{} for _ in range(n)]
    state.hand_sizes = [0] * n
    state.hands_given = 0
    state.colour = None
    state.choose_by = None
    state.penalties = []
    state.drew = False
    state.drawn_card = None
    state.drawing = False
    state.due = None
    state.top_by = None
    state.uno_player = None
    state.uno_called = False
    state.uno_caught = False
    state.knowledge = state.knowledge.next_round()
    state.hidden = None
    engine.rounds.append(RoundResult(event.number, False))


def dealer(engine: EngineApi, event: ev.Dealer) -> None:
    state = engine.state
    seat = engine.seat_of(event.player)
    if state.round_number > 1:
        expected = (state.dealer + engine.rules.dealer_step) % state.player_count
        if seat != expected:
            raise Reject(
                Code.BAD_SETUP,
                Check.DEALER,
                f"the deal passes to {state.players[expected]} after {state.players[state.dealer]}, not to {event.player}",
                (state.players[expected],),
            )
    state.dealer = seat
    state.phase = SETUP


def shuffle(engine: EngineApi, event: ev.Shuffle) -> None:
    state = engine.state
    cards = engine.cards(event.cards)
    # items() compares in C (Counter's own == runs a Python loop); neither side holds a zero count
    if Counter(cards).items() != state.deck_counts.items():
        missing = state.deck_counts - Counter(cards)
        extra = Counter(cards) - state.deck_counts
        detail = [f"{len(cards)} card{'' if len(cards) == 1 else 's'}"]
        if missing:
            detail.append("missing " + _some(sorted(c.token for c in missing.elements())))
        if extra:
            detail.append("extra " + _some(sorted(c.token for c in extra.elements())))
        raise Reject(Code.BAD_SETUP, Check.SHUFFLE, f"the shuffle is not the deck ({'; '.join(detail)})")
    state.knowledge = FULL
    state.draw_pile = cards[::-1]
    for seat in deal_order(state.dealer, state.player_count, engine.rules.spec.hand_size):
        card = state.draw_pile.pop()
        hand = state.hands[seat]
        hand[card] = hand.get(card, 0) + 1
        state.hand_sizes[seat] += 1
    turn_up(engine, state.draw_pile.pop())


def hand(engine: EngineApi, event: ev.Hand) -> None:
    state = engine.state
    seat = engine.seat_of(event.player)
    cards = engine.cards(event.cards)
    if state.hand_sizes[seat] or any(state.hands[seat].values()):
        raise Reject(Code.BAD_SETUP, Check.HANDS, f"a second hand for {event.player}")
    hand_size = engine.rules.spec.hand_size
    if len(cards) != hand_size:
        raise Reject(Code.BAD_SETUP, Check.HANDS, f"{event.player}'s hand has {len(cards)} cards, not {hand_size}")
    state.knowledge = OBSERVED
    dealt = Counter(cards)
    for held in state.hands:
        dealt.update(held)
    for card, count in dealt.items():
        if count > state.deck_counts[card]:
            raise Reject(Code.BAD_SETUP, Check.HANDS, f"{card} is dealt {count} times; the deck has {state.deck_counts[card]}")
    state.hands[seat] = dict(Counter(cards))
    state.hand_sizes[seat] = len(cards)
    state.hands_given += 1


def public(engine: EngineApi, event: ev.Public) -> None:
    """``public``: the hands are dealt unseen (``referee.engine.public_knowledge``, loaded with the first such round)."""
    if engine.state.phase is not SETUP:
        raise Reject(Code.BAD_SETUP, Check.SHUFFLE, "'public' comes right after the 'dealer' line")
    from referee.engine.public_knowledge import deal_unseen

    deal_unseen(engine, event.line)


def start(engine: EngineApi, event: ev.Start) -> None:
    state = engine.state
    card = engine.card(event.card)
    if state.hands_given < state.player_count:
        missing = [name for seat, name in enumerate(state.players) if not state.hand_sizes[seat]]
        raise Reject(Code.BAD_SETUP, Check.START_CARD, f"'start' before every hand is given (missing: {' '.join(missing)})")
    if state.phase is PLAYING or state.phase is ROUND_OVER:
        raise Reject(Code.BAD_SETUP, Check.START_CARD, "a second 'start' line, but the card turned up stayed on the discard pile")
    state.knowledge.start(engine, card, state.phase is SETUP)
    turn_up(engine, card)


def goes_back(rules: Rules, card: Card) -> bool:
    """Whether ``card``, turned up at the start, goes back into the draw pile (at-start ``return-to-draw-pile``)."""
    return "return-to-draw-pile" in rules.faces[card.faces[rules.spec.start_side]].at_start


def turn_up(engine: EngineApi, card: Card) -> None:
    """The card turned up at the start, and what it does (rulings 4 to 10)."""
    state = engine.state
    rules = engine.rules
    face = card.faces[state.side]
    face_rules = rules.faces[face]
    if "return-to-draw-pile" in face_rules.at_start:
        turned = state.knowledge.put_back(engine, card)
        if turned is None:  # which card is turned up instead is the next 'start' line's
            state.phase = START_AGAIN
            return
        card = turned
        face = card.faces[state.side]
        face_rules = rules.faces[face]
    state.phase = PLAYING
    state.discard_pile = [card]
    state.knowledge.turned_up(state)
    dealer_seat = state.dealer
    left = state.next_player(dealer_seat)
    state.turn = left
    state.turn_rule = None
    state.colour = face.colour
    chooser = dealer_seat if rules.start_colour_by_dealer else left
    at_start = face_rules.at_start
    if "flip" in at_start:
        engine.flip(face_rules)
        face = state.top_face()  # type: ignore[assignment]
        dealt = rules.spec.hand_size  # every hand is full at the start
        flipped = effects.after_flip(face.colour, face.is_wild, dealt, True, effects.every)
        state.colour = flipped.colour
        if flipped.names:
            state.choose_by = chooser
        return
    state.direction, state.turn = effects.first_to_act(at_start, dealer_seat, state.player_count)  # then apply-effects below
    state.turn_rule = None if state.turn == left else face_rules.rule
    if "choose-colour" in at_start:
        state.colour = None
        state.choose_by = chooser
    if "apply-effects" in at_start:
        engine.apply_effects(dealer_seat, face_rules, 0, start=True)
    engine.settle()


def _some(tokens: list[str], most: int = 12) -> str:
    """Up to ``most`` card names, then how many more: a message stays readable for a shuffle of one card."""
    shown = ", ".join(tokens[:most])
    return shown if len(tokens) <= most else f"{shown} and {len(tokens) - most} more"
