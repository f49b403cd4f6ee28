"""The game state: where every card is and whose move it is, with what is owed and disputed.

``Engine`` (``referee.engine.engine``) owns the one ``GameState`` of a game; it and the parts it calls
change it, among them the round's ``Knowledge`` (how its cards are known, below), which moves the cards.
``GameState.copy`` and ``Snapshot`` are the cheap copies behind ``Engine.snapshot``/``restore``
(``referee.Game``'s atomic push and its pop). ``EngineApi`` is the engine as its parts see it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Final, Protocol

from referee.cards import Card, Face
from referee.engine.reject import Reject
from referee.records import dataclass
from referee.rules import effects
from referee.spec.vocabulary import Check
from referee.verdicts import Code, RoundResult

if TYPE_CHECKING:  # a public round's records load with its first public round (referee.engine.public_knowledge)
    from referee.engine.hidden import HiddenState
    from referee.log import events as ev
    from referee.rules.compiler import FaceRules, Rules


class Phase(IntEnum):
    """Where a game is: before any round, dealing, setting up, turning up again, playing, between rounds, over."""

    NO_ROUND = 0
    DEALING = 1  # a 'round' line: the dealer comes next
    SETUP = 2  # the dealer is known: the shuffle, or the hands then the start card
    START_AGAIN = 3  # the card turned up went back: another 'start' line
    PLAYING = 4
    ROUND_OVER = 5
    GAME_OVER = 6


# The members as module constants: compiled code reads them as C globals and compares them by identity.
NO_ROUND: Final = Phase.NO_ROUND
DEALING: Final = Phase.DEALING
SETUP: Final = Phase.SETUP
START_AGAIN: Final = Phase.START_AGAIN
PLAYING: Final = Phase.PLAYING
ROUND_OVER: Final = Phase.ROUND_OVER
GAME_OVER: Final = Phase.GAME_OVER


_PHASE_WORDS: Final = {
    PLAYING: ("playing", "playing"),
    ROUND_OVER: ("round over", "round-over"),
    GAME_OVER: ("game over", "game-over"),
    START_AGAIN: ("start card to turn up again", "setup"),
}


def phase_label(phase: Phase) -> str:
    """The phase as a person reads it (``explain``, the replay page): every phase before the play is "setup"."""
    return _PHASE_WORDS[phase][0] if phase in _PHASE_WORDS else "setup"


def phase_token(phase: Phase) -> str:
    """The phase as the bot protocol and a seat's view write it (docs/protocol.md): ``playing``, ``round-over``,
    ``game-over`` or ``setup``."""
    return _PHASE_WORDS[phase][1] if phase in _PHASE_WORDS else "setup"


def direction_token(direction: int) -> str:
    """The direction of play as every output writes it: ``left`` (clockwise, the first seat after the dealer moves
    next) or ``right``."""
    return "left" if direction == 1 else "right"


class DrawKind(StrEnum):
    """Which draw a draw line is, once its gates are passed: a penalty's, the turn's draw until playable (house rule),
    or the turn's draw of one card."""

    PENALTY = "penalty"
    UNTIL_PLAYABLE = "until-playable"
    TURN = "turn"


@dataclass(slots=True)
class Penalty:
    """Cards a player owes: a fixed count, or until a colour, then ``extra`` more."""

    player: int
    count: int
    until_colour: str | None = None
    extra: int = 0
    catch: bool = False
    loses_turn: bool = False
    next_turn: int | None = None
    line: int = 0
    played_by: int | None = None
    challengeable: bool = False
    wild_draw: bool = False
    guilty: bool = False
    bluff: bool = False
    started: bool = False
    stack_kind: str | None = None
    colour_before: str | None = None
    evidence: tuple[Card, ...] = ()
    into_discard: bool = False
    ruled: bool = False  # produced or changed by a challenge's ruling (never stacked on)
    asked: int = -1  # a public round: the index of its wild draw card's question (HiddenState.questions)
    rule: str = ""  # the rule of a ruling that set or changed it (a challenge's, a catch's); "" for a card's own

    @property
    def owed(self) -> bool:
        return self.count > 0 or self.until_colour is not None or self.extra > 0

    def describe(self) -> str:
        if self.until_colour is not None:
            more = f", then {self.extra} more" if self.extra else ""
            return f"cards until a {self.until_colour} one{more}"
        return f"{self.count + self.extra} card{'s' if self.count + self.extra != 1 else ''}"


class Duty(StrEnum):
    """What a player owes before any other line may come, after a card of theirs whose effect they carry out on the
    next line: naming whom to swap hands with (``swap-hands``, seven swaps' 7) or dealing every hand anew
    (``shuffle-hands``). ``referee.engine.hands.DUTIES`` holds what each one allows."""

    SWAP = "swap"
    SHUFFLE = "shuffle"


@dataclass(frozen=True, slots=True)
class Due:
    """A duty owed: by whom (a seat) and which. Only that player's UNO call or the duty's own line may come next."""

    seat: int
    duty: Duty


class Ruling(StrEnum):
    """A ruling on a dispute: a catch is valid or invalid; a challenge is guilty, innocent or invalid."""

    VALID = "valid"
    INVALID = "invalid"
    GUILTY = "guilty"
    INNOCENT = "innocent"


class DisputeKind(StrEnum):
    CATCH = "catch"
    CHALLENGE = "challenge"


@dataclass(slots=True)
class Dispute:
    """A challenge or an UNO catch as it was ruled during replay (for ``adjudicate``)."""

    line: int
    kind: DisputeKind
    by: str
    against: str
    ruling: Ruling
    rule: str
    penalty_player: str | None
    cards: int | None
    until_colour: str | None
    extra: int
    reason: str
    evidence: tuple[str, ...] = ()
    applied: bool | None = None
    loses_turn: bool = False  # the player who draws loses their turn (an innocent challenger, by default)
    penalty: Penalty | None = None
    then: str | None = None  # who plays once the cards are drawn (None: the turn does not move, as after a catch)

    @staticmethod
    def owed(player: str, count: int, until_colour: str | None, extra: int) -> tuple[str | None, int | None, str | None, int]:
        """Who draws and what: a number of cards, or until a colour (then the count does not apply), plus extra."""
        return player, count if until_colour is None else None, until_colour, extra


# -- how the cards of a round are known: one object per mode, chosen when the round is dealt
#
# A log deals a round one of three ways (docs/log-format.md, "Modes"): ``shuffle`` (full mode: the draw pile's order
# is known, a draw may name no card and takes the top one), ``hand`` lines (observed mode: the draw pile is known
# only as counts of cards, so every draw names its cards) or ``public`` (a public round: no card leaves the draw pile
# by name; ``referee.engine.public_knowledge``). The engine keeps the checks and their order; what a take, a play
# from a hand, a flip or a reshuffle does to the cards is the mode's, here, so that the engine never asks which mode
# it is in. The objects hold no state (the piles, the hands and a public round's ``hidden`` are the GameState's), so
# one of each is shared by every game, and a state's copy shares it too. They live beside the state they move: the
# state holds its mode, and the mode reads and changes the state.


class Knowledge:
    """How a round's cards are known: abstract, one subclass per mode (``ObservedKnowledge``, ``FullKnowledge``,
    ``referee.engine.public_knowledge.PublicKnowledge``). What every mode does alike is written here; what the modes
    do differently is asked of the mode, in the caller's words (``takes_top``, ``top_card``, ``hides_hands``), never
    by which mode it is."""

    def __init__(self, name: str) -> None:
        self.name = name  # how the docs and messages name the mode

    def __repr__(self) -> str:
        return f"<{self.name} knowledge>"

    # -- what each mode says for itself

    def pile_size(self, state: GameState) -> int:
        """How many cards the draw pile holds."""
        raise NotImplementedError

    def take(self, state: GameState, seat: int, named: Card | None) -> Card:
        """One card from the draw pile to ``seat``'s hand: the one the line names (wrong-draw when it is not there)."""
        raise NotImplementedError

    def bare_draw(self) -> None:
        """A draw line that names no card while cards remain: only a mode that takes the top card accepts it."""
        raise NotImplementedError

    def reshuffle(self, engine: EngineApi, cards: list[Card], rest: list[Card], line: int) -> None:
        """The discard pile under its top card (``rest``) becomes the draw pile; ``cards``: what the line names."""
        raise NotImplementedError

    def start(self, engine: EngineApi, card: Card, first: bool) -> None:
        """The ``start`` line's card leaves the draw pile (``first``: the round's first, the draw pile not yet counted)."""
        raise NotImplementedError

    def put_back(self, engine: EngineApi, card: Card) -> Card | None:
        """The card turned up goes back into the draw pile (at-start ``return-to-draw-pile``): the card turned up
        instead, or None when a ``start`` line must say which it is."""
        raise NotImplementedError

    # -- what a caller asks of the mode

    def takes_top(self) -> bool:
        """Whether the referee knows the draw pile's order, so that a draw takes its top card and may name none (full
        mode): which cards a draw takes is then known before it is made."""
        return False

    def top_card(self, state: GameState) -> Card | None:
        """The draw pile's top card, when the mode knows which it is (its back is what every seat sees of it)."""
        return None

    def hides_hands(self) -> bool:
        """Whether the record shows no hand (a public round): there is then no seat's view of the table."""
        return False

    def reshuffled(self, rest: list[Card]) -> tuple[str, ...]:
        """What a ``reshuffle`` line names of the new draw pile made of ``rest`` (bottom first): nothing, but in a mode
        that knows the pile's order."""
        return ()

    def shuffled_hands(self, state: GameState) -> tuple[str, ...]:
        """What a ``P shuffles`` line names of the cards of every hand, in one order (sorted): every card, but in a
        mode that hides the hands."""
        return tuple(sorted(card.token for hand in state.hands for card, count in hand.items() for _ in range(count)))

    def pile(self, state: GameState) -> tuple[object, ...]:
        """The draw pile as a hashable value, as the mode knows it: the cards in order, or counts of each card."""
        return tuple(sorted((card.token, count) for card, count in state.draw_counts.items() if count))

    # -- what every mode does alike (a public round adds to most of these)

    def draw_count(self, engine: EngineApi, seat: int, event: ev.DrawCount) -> None:
        """``P draws N``: a count is a public round's draw only."""
        raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "only a public round's draw is a count: name the cards drawn")

    def drawn_unknown(self, state: GameState) -> int | None:
        """A public round's card just drawn, which a play after the draw must be (a fact, not a check); else None."""
        return None

    def drawn_playable(self, engine: EngineApi) -> bool | None:
        """Whether the card just drawn for the turn can be played on the top card (house rule forced play): known from
        the card itself here; a public round's replay follows both answers (None: no card drawn, or not asked)."""
        state = engine.state
        drawn = state.drawn_card
        if drawn is None or drawn not in state.hands[state.turn]:
            return None
        return engine.matches(drawn.faces[state.side])

    def play_from_hand(self, engine: EngineApi, seat: int, card: Card, line: int, same_as: int | None) -> None:
        """``card`` leaves ``seat``'s hand (the caller put it on the discard pile)."""
        from_hand(engine.state, seat, card)

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

    def shuffle_hands(self, engine: EngineApi, cards: list[Card], order: list[int], line: int) -> None:
        """Every hand collected and dealt out again, one card at a time to the seats of ``order`` in turn (the
        shuffler's left first): ``cards`` are the line's, in the order dealt, and must be the cards collected."""
        state = engine.state
        collected: Counter[Card] = Counter()
        for hand in state.hands:
            collected.update(hand)
        if Counter(cards) != collected:
            raise Reject(
                Code.INVALID_SHUFFLE,
                Check.SHUFFLE_HANDS,
                f"the cards dealt must be the {sum(state.hand_sizes)} cards of every hand, each once, in the order dealt",
            )
        for seat in order:
            state.hands[seat] = {}
            state.hand_sizes[seat] = 0
        for index, card in enumerate(cards):
            to_hand(state, order[index % len(order)], card)

    def flip(self, engine: EngineApi, face_rules: FaceRules) -> None:
        """A Flip turned the discard pile over: what else the mode turns (ruling 16)."""

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


class ObservedKnowledge(Knowledge):
    """Observed mode (``hand`` lines): the draw pile is counts of cards, so a draw names its cards."""

    def __init__(self, name: str = "observed") -> None:
        super().__init__(name)

    def pile_size(self, state: GameState) -> int:
        return state.observed_size

    def take(self, state: GameState, seat: int, named: Card | None) -> Card:
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
        raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "in observed mode a draw names its cards")

    def reshuffle(self, engine: EngineApi, cards: list[Card], rest: list[Card], line: int) -> None:
        if cards:
            raise Reject(Code.INVALID_RESHUFFLE, Check.RESHUFFLE, f"in {self.name} mode a reshuffle names no cards")
        state = engine.state
        state.draw_counts = dict(Counter(rest))
        state.observed_size = len(rest)

    def start(self, engine: EngineApi, card: Card, first: bool) -> None:
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
        state = engine.state
        state.draw_counts[card] = state.draw_counts.get(card, 0) + 1
        state.observed_size += 1
        return None


class FullKnowledge(Knowledge):
    """Full mode (a ``shuffle`` line): every card's place is known, the draw pile in order."""

    def __init__(self) -> None:
        super().__init__("full")

    def takes_top(self) -> bool:
        return True

    def top_card(self, state: GameState) -> Card | None:
        return state.draw_pile[-1] if state.draw_pile else None

    def reshuffled(self, rest: list[Card]) -> tuple[str, ...]:
        return tuple(card.token for card in reversed(rest))

    def pile(self, state: GameState) -> tuple[object, ...]:
        return tuple(state.draw_pile)

    def start(self, engine: EngineApi, card: Card, first: bool) -> None:
        raise Reject(Code.BAD_SETUP, Check.START_CARD, "in full mode the shuffle turns the start card up: no 'start' line")

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


def from_hand(state: GameState, seat: int, card: Card) -> None:
    """One copy of ``card`` leaves ``seat``'s hand (the caller knows it is there)."""
    hand = state.hands[seat]
    if hand[card] == 1:
        del hand[card]
    else:
        hand[card] -= 1
    state.hand_sizes[seat] -= 1


def to_hand(state: GameState, seat: int, card: Card) -> Card:
    """``card`` joins ``seat``'s hand."""
    hand = state.hands[seat]
    hand[card] = hand.get(card, 0) + 1
    state.hand_sizes[seat] += 1
    return card


OBSERVED = ObservedKnowledge()
FULL = FullKnowledge()
# The modes a log may deal a round in by its cards, by name (a public round's is ``public_knowledge.PUBLIC``).
DEALT: dict[str, Knowledge] = {knowledge.name: knowledge for knowledge in (FULL, OBSERVED)}


@dataclass(slots=True)
class GameState:
    """Where every card is and whose move it is. Owned by ``Engine``: changed by it and the parts it calls (deal,
    effects, disputes, legality's gates); everything else only reads it."""

    players: tuple[str, ...] = ()
    seat: dict[str, int] = field(default_factory=dict)
    deck: tuple[Card, ...] = ()
    deck_counts: Counter[Card] = field(default_factory=Counter)
    target: int = 0
    totals: list[int] = field(default_factory=list)
    round_number: int = 0
    dealer: int = -1
    phase: Phase = NO_ROUND
    knowledge: Knowledge = OBSERVED  # how the round's cards are known: full, observed or public (Knowledge, above)
    side: int = 0
    direction: int = 1
    turn: int = 0
    turn_rule: str | None = None  # the rule that gave the turn past the next seat in order (a Skip's, a ruling's); None: the order
    draw_pile: list[Card] = field(default_factory=list)
    draw_counts: dict[Card, int] = field(default_factory=dict)
    observed_size: int = 0
    discard_pile: list[Card] = field(default_factory=list)
    hands: list[dict[Card, int]] = field(default_factory=list)
    hand_sizes: list[int] = field(default_factory=list)
    hands_given: int = 0
    colour: str | None = None
    choose_by: int | None = None
    penalties: list[Penalty] = field(default_factory=list)
    drew: bool = False
    drawn_card: Card | None = None
    drawing: bool = False  # draw until playable: the turn's draw has found no playable card yet, and cards remain
    due: Due | None = None  # a card's player owes its effect's line next (swap-hands: whom to swap with; shuffle-hands)
    top_by: int | None = None  # who played the top card of the discard pile (None: it was turned up)
    uno_player: int | None = None
    uno_line: int = 0
    uno_called: bool = False
    uno_caught: bool = False
    last_result: RoundResult | None = None
    own_points: list[int] = field(default_factory=list)
    game_winner: str | list[str] | None = None
    hidden: HiddenState | None = None  # a public round: what replay keeps of the hidden cards (referee.engine.hidden)

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def swap_by(self) -> int | None:
        """Who owes a swap of hands (a 7 under seven swaps, or a card that swaps hands), if anyone."""
        due = self.due
        return due.seat if due is not None and due.duty is Duty.SWAP else None

    @property
    def shuffle_by(self) -> int | None:
        """Who owes the shuffle and deal of every hand (a card that shuffles hands), if anyone."""
        due = self.due
        return due.seat if due is not None and due.duty is Duty.SHUFFLE else None

    @property
    def acting_seat(self) -> int | None:
        """The one seat that must act now while a round is played: a card's player who owes its effect's line (a
        swap, a shuffle), the drawer of a penalty owed, the chooser of a colour, else the player whose turn it is;
        None between rounds. (Others may act too: a catch is anyone's; ``legal_moves`` lists them all.)"""
        if self.phase is not PLAYING or not self.players:
            return None
        if self.due is not None:
            return self.due.seat
        if self.penalties:
            return self.penalties[0].player
        return self.choose_by if self.choose_by is not None else self.turn

    def draw_pile_size(self) -> int:
        return self.knowledge.pile_size(self)

    def top_face(self) -> Face | None:
        return self.discard_pile[-1].faces[self.side] if self.discard_pile else None

    def next_player(self, player: int, steps: int = 1) -> int:
        return (player + self.direction * steps) % len(self.players)

    def card_count(self) -> int:
        """All cards in hands and piles (the deck size, always)."""
        return self.draw_pile_size() + len(self.discard_pile) + sum(self.hand_sizes)

    def copy(self) -> GameState:
        """An independent copy: every container the engine changes in place is copied; cards, faces, names and round
        results are immutable and shared. (Far cheaper than ``copy.deepcopy``.)"""
        winner = self.game_winner
        return GameState(
            players=self.players,
            seat=self.seat,
            deck=self.deck,
            deck_counts=self.deck_counts,
            target=self.target,
            totals=list(self.totals),
            round_number=self.round_number,
            dealer=self.dealer,
            phase=self.phase,
            knowledge=self.knowledge,
            side=self.side,
            direction=self.direction,
            turn=self.turn,
            turn_rule=self.turn_rule,
            draw_pile=list(self.draw_pile),
            draw_counts=dict(self.draw_counts),
            observed_size=self.observed_size,
            discard_pile=list(self.discard_pile),
            hands=[dict(hand) for hand in self.hands],
            hand_sizes=list(self.hand_sizes),
            hands_given=self.hands_given,
            colour=self.colour,
            choose_by=self.choose_by,
            penalties=[dataclasses.replace(penalty) for penalty in self.penalties],
            drew=self.drew,
            drawn_card=self.drawn_card,
            drawing=self.drawing,
            due=self.due,
            top_by=self.top_by,
            uno_player=self.uno_player,
            uno_line=self.uno_line,
            uno_called=self.uno_called,
            uno_caught=self.uno_caught,
            last_result=self.last_result,
            own_points=list(self.own_points),
            game_winner=list(winner) if isinstance(winner, list) else winner,
            hidden=self.hidden.copy() if self.hidden is not None else None,
        )


STATE_FIELDS = tuple(item.name for item in dataclasses.fields(GameState))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What ``Engine.restore`` needs to undo every event applied after ``Engine.snapshot``."""

    state: GameState
    warnings: int
    rounds: tuple[RoundResult, ...]
    disputes: int


class EngineApi(Protocol):
    """What the engine's parts (``deal``, ``disputes``, ``legality`` and the modes of ``knowledge``) read and call: the
    one ``GameState``, the compiled ``Rules`` and the steps they share. ``referee.engine.engine.Engine`` is the only one; the
    parts are typed against this, so that none of them imports the engine that imports them."""

    state: GameState
    rules: Rules
    record_disputes: bool
    disputes: list[Dispute]
    line: int  # the line being applied
    rounds: list[RoundResult]

    def seat_of(self, name: str) -> int: ...

    def card(self, token: str) -> Card: ...

    def cards(self, tokens: tuple[str, ...]) -> list[Card]: ...

    def close_window(self) -> None: ...

    def settle(self) -> None: ...

    def flip(self, face_rules: FaceRules) -> None: ...

    def forget_cards(self) -> None: ...

    def decide(self, options: int) -> int: ...

    def shows_done(self) -> None: ...

    def new_id(self) -> int: ...

    def name_of(self, seat: int) -> str: ...

    def finish_round(self, winner: int) -> None: ...

    def draw_kind(self, seat: int, name: str, count: int) -> DrawKind: ...

    def pile_has(self, count: int) -> None: ...

    def last_cards(self, count: int) -> bool: ...

    def penalty_ends(self, penalty: Penalty) -> None: ...

    def matches(self, face: Face) -> bool: ...

    def cards_remain(self) -> bool: ...

    def apply_effects(
        self,
        seat: int,
        face_rules: FaceRules,
        stacked: int,
        *,
        start: bool = False,
        held: bool = False,
        line: int = 0,
        colour_before: str | None = None,
        evidence: tuple[Card, ...] = (),
    ) -> None: ...
