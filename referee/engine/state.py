"""The game state: where every card is and whose move it is, with what is owed and disputed.

Records only: ``Engine`` (``referee.engine.engine``) owns the one ``GameState`` of a
game and is the only code that changes it. ``GameState.copy`` and
``Snapshot`` are the cheap copies behind ``Engine.snapshot``/``restore``
(``referee.Game``'s atomic push and its pop).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Final, Protocol

from referee.cards import Card, Face
from referee.engine.knowledge import OBSERVED, Knowledge
from referee.verdicts import RoundResult

if TYPE_CHECKING:  # a public round's records load with its first public round (referee.engine.public_knowledge)
    from referee.engine.hidden import HiddenState
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

    @property
    def owed(self) -> bool:
        return self.count > 0 or self.until_colour is not None or self.extra > 0

    def describe(self) -> str:
        if self.until_colour is not None:
            more = f", then {self.extra} more" if self.extra else ""
            return f"cards until a {self.until_colour} one{more}"
        return f"{self.count + self.extra} card{'s' if self.count + self.extra != 1 else ''}"


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
    knowledge: Knowledge = OBSERVED  # how the round's cards are known: full, observed or public (referee.engine.knowledge)
    side: int = 0
    direction: int = 1
    turn: int = 0
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
    swap_by: int | None = None  # seven swaps: this player played a 7 and names whom to swap hands with next
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
            swap_by=self.swap_by,
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
