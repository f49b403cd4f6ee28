"""Moves: one event line of a game, as an immutable value, and the moves legal in a state.

A ``Move`` is what a player (or the table, for ``reshuffle``) does, written
exactly as a log line: ``Move.parse("Ann plays red-5")`` and ``str(move)``
round-trip. ``legal_moves(engine)`` lists the moves the rules allow now,
generated from the state (whose turn, what is owed, what matches), not by
trying candidates; ``referee.Game`` checks every one of them against the
engine in its property tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from referee.cards import Card, FaceClass
from referee.engine import hands, legality
from referee.engine.engine import PLAYING, Engine, GameState
from referee.engine.state import Due, Penalty
from referee.errors import RefereeError, escape
from referee.log import events as ev
from referee.log.reader import PAIRS, CardForm, LogReader
from referee.log.writer import format_event
from referee.records import dataclass

_ONE_SIDE = CardForm(pairs=False)  # how a game of one side writes cards: the face is the card


class MoveError(RefereeError, ValueError):
    """A move that is not written as an event line (exit 2 at the command line)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One event of a round: ``Ann plays red-5``, ``Bob draws``, ``reshuffle``, ``Cat scores 40`` ...

    >>> move = Move.parse("Ann plays wild-draw-two/pink-1 blue")
    >>> move.player, move.verb, move.card, move.colour
    ('Ann', 'plays', 'wild-draw-two/pink-1', 'blue')
    >>> str(move)
    'Ann plays wild-draw-two/pink-1 blue'
    >>> str(Move.parse("reshuffle"))
    'reshuffle'
    """

    event: ev.Event  # with line 0: the line is given when the move is pushed

    @staticmethod
    def parse(text: str, form: CardForm | None = None) -> Move:
        """A move written as a log line; ``MoveError`` when it is not one (the reader's syntax message).

        ``form`` is how the game writes cards (``Game.parse`` passes its own); without it, a line is read as a game
        of two sides writes it (``red-7/teal-3``) or else as a game of one side does (``red-7``): any game's move.
        """
        forms = (form,) if form is not None else (PAIRS, _ONE_SIDE)
        problem = "not an event of a round"
        for candidate in forms:
            reader = LogReader()
            reader.set_form(candidate)
            event = reader.parse_event_line(0, text)
            if event is not None and not reader.errors and type(event) in ev.MOVES:
                return Move(event)
            if candidate is forms[0]:
                problem = reader.errors[0].message if reader.errors else problem
        raise MoveError(f"'{escape(text)}' is not a move: {problem}")

    @staticmethod
    def of(event: ev.Event) -> Move:
        """The move of an event (its line dropped)."""
        return Move(at_line(event, 0))

    def at_line(self, line: int) -> ev.Event:
        """The event this move is at ``line`` of a log."""
        return at_line(self.event, line)

    @property
    def player(self) -> str | None:
        return getattr(self.event, "player", None)

    @property
    def verb(self) -> str:
        """``plays``, ``draws``, ``passes``, ``chooses``, ``calls``, ``catches``, ``challenges``, ``scores`` or
        ``reshuffle``: read from the event's type (no line is formatted)."""
        return ev.KINDS[type(self.event)].keyword

    @property
    def target(self) -> str | None:
        """The other player of a catch or a challenge."""
        return self.event.target if "target" in ev.KINDS[type(self.event)].names else None  # type: ignore[union-attr]

    @property
    def card(self) -> str | None:
        return self.event.card if isinstance(self.event, ev.Play) else None

    @property
    def also(self) -> tuple[str, ...]:
        """The cards played with the first under the house rule doubles (``Ann plays red-7 red-7``)."""
        return self.event.also if isinstance(self.event, ev.Play) else ()

    @property
    def colour(self) -> str | None:
        return self.event.colour if isinstance(self.event, ev.Play | ev.Choose) else None

    @property
    def cards(self) -> tuple[str, ...]:
        return self.event.cards if isinstance(self.event, ev.Draw | ev.Reshuffle | ev.ShuffleHands) else ()

    def __str__(self) -> str:
        return format_event(self.event)

    def __reduce__(self) -> tuple[type[Move], tuple[ev.Event]]:
        """Pickled as a constructor call: works for the compiled class too (a move mid-search, over processes)."""
        return (Move, (self.event,))

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def at_line(event: ev.Event, line: int) -> ev.Event:
    """The event at another line: every event's constructor call (``__reduce__``) gives its line first."""
    kind, fields = cast("tuple[Callable[..., ev.Event], tuple[object, ...]]", event.__reduce__())
    return kind(line, *fields[1:])


def legal_moves(engine: Engine, *, draw_cards: bool = True) -> list[Move]:
    """Every move the rules allow in the engine's state, in a stable order.

    Draws: in full mode the bare ``P draws`` (the referee knows the pile); in
    observed mode one draw naming one card of the draw pile, as chance would
    give it (``drawn_by_chance``; every other card of the pile is as legal to
    push), or, with ``draw_cards=False``, one bare ``P draws`` for a caller who
    knows the real pile and names the card itself (``simulate`` does). Plays are written as physical cards, a
    wild once per colour of the side. After a round: each player's score
    claim. The next round's setup is ``Game.next_round``, not a move.
    """
    state = engine.state
    if not state.players:
        return []
    names = state.players
    if state.phase is not PLAYING:
        result = state.last_result
        if result is None:
            return []
        return [Move(ev.Score(0, names[seat], engine.round_points(seat, result))) for seat in range(len(names))]
    if state.due is not None:  # a card's player owes its effect's line (a swap, a deal): UNO first, if they like
        return _due(engine, state.due)
    penalty = state.penalties[0] if state.penalties else None
    reshuffle = _reshuffle(engine)
    if penalty is not None and penalty.catch:  # a caught player draws at once, before anything else
        return reshuffle or _draws(engine, penalty.player, draw_cards)
    moves: list[Move] = []
    window = state.uno_player
    if window is not None and not state.uno_called and not state.uno_caught:  # a second call is legal, and changes nothing
        moves.append(_made(ev.Call, names[window]))
        moves += [_made(ev.Catch, names[seat], names[window]) for seat in range(len(names)) if seat != window]
    moves += reshuffle
    if penalty is not None:
        return moves + _owed(engine, penalty, draw_cards)
    if state.choose_by is not None:
        colours = sorted(engine.rules.side_colours[state.side])
        return moves + [_made(ev.Choose, names[state.choose_by], colour) for colour in colours]
    return moves + _turn(engine, draw_cards)


def _turn(engine: Engine, draw_cards: bool) -> list[Move]:
    """The turn: a draw going on (draw until playable); after a draw, the card drawn or a pass, and the next
    player's moves (which end the turn); else the player's plays and draw; and anyone's jump-ins."""
    state = engine.state
    seat = state.turn
    moves: list[Move] = []
    if state.drawing:  # draw until playable: the draw goes on (after a reshuffle when the pile is empty)
        return _draws(engine, seat, draw_cards) if state.draw_pile_size() > 0 else moves
    if state.drew:
        drawn = state.drawn_card
        if drawn is not None and drawn in state.hands[seat] and _matches(engine, drawn):
            moves += _plays(engine, seat, drawn)
            if engine.rules.forced_play:  # the card drawn must be played: no pass, and nobody else moves
                return moves
        moves.append(_made(ev.Pass, state.players[seat]))
        seat = state.next_player(seat)  # the turn ends when the next player moves
    for card in _playable(engine, state.hands[seat]):
        moves += _plays(engine, seat, card)
    if engine.rules.doubles:
        moves += _doubles(engine, seat)
    if state.draw_pile_size() > 0 or not engine.can_reshuffle():
        moves += _draws(engine, seat, draw_cards)
    if engine.rules.jump_in:
        moves += _jump_ins(engine, {state.turn, seat})
    return moves


def _doubles(engine: Engine, seat: int) -> list[Move]:
    """The plays of several cards at once (house rule doubles, ruling 29): every set of two or more playable number
    cards of the hand showing the same face, the cards in token order."""
    state = engine.state
    side = state.side
    hand = state.hands[seat]
    groups: dict[object, dict[str, int]] = {}
    for card in _playable(engine, hand):
        if card.faces[side].face_class is FaceClass.NUMBER:
            groups.setdefault(card.faces[side], {})[card.token] = hand[card]
    name = state.players[seat]
    return [_made(ev.Play, name, chosen[0], None, chosen[1:]) for counts in groups.values() for chosen in identical_sets(counts)]


def identical_sets(counts: dict[str, int]) -> list[tuple[str, ...]]:
    """Every set of two or more of the cards ``counts`` holds (token -> copies, all showing one face), each in token
    order: built from the counts, so that many copies of one card give one set per size, not every combination."""
    sets: list[tuple[str, ...]] = [()]
    for token in sorted(counts):
        sets = [chosen + (token,) * taken for chosen in sets for taken in range(counts[token] + 1)]
    return sorted(chosen for chosen in sets if len(chosen) >= 2)


def _due(engine: Engine, due: Due) -> list[Move]:
    """A duty owed (``hands.DUTIES``): its player may say UNO, then makes the line that pays it."""
    state = engine.state
    moves = [_made(ev.Call, state.players[due.seat])] if state.uno_player == due.seat and not state.uno_called else []
    return moves + [Move(event) for event in hands.DUTIES[due.duty].lines(engine, due.seat)]


def _reshuffle(engine: Engine) -> list[Move]:
    """The reshuffle, when the draw pile is empty and the discard pile has cards to give (one that moves no card is
    legal to push, but changes nothing, so it is not listed)."""
    state = engine.state
    if state.draw_pile_size() != 0:
        return []
    rest = state.discard_pile[:-1] if engine.rules.reshuffle_keeps_top else state.discard_pile
    if not rest:
        return []
    return [Move(ev.Reshuffle(0, state.knowledge.reshuffled(rest)))]


def _owed(engine: Engine, penalty: Penalty, draw_cards: bool) -> list[Move]:
    """A penalty owed: its player draws, challenges the wild draw card, or (stacking) passes it on."""
    state = engine.state
    names = state.players
    owner = penalty.player
    moves: list[Move] = []
    if state.draw_pile_size() > 0 or not engine.can_reshuffle():
        moves += _draws(engine, owner, draw_cards)
    if penalty.challengeable and not penalty.started and penalty.played_by is not None:
        moves.append(_made(ev.Challenge, names[owner], names[penalty.played_by]))
    if engine.rules.stacking:  # the plays that pass the penalty on: the engine's own test (legality.stacking)
        for card in sorted(state.hands[owner], key=lambda card: card.token):
            if legality.stacking(engine, owner, card.token, penalty) is not None:
                moves += _plays(engine, owner, card)
    return moves


def _jump_ins(engine: Engine, excluded: set[int]) -> list[Move]:
    """Jump-ins (house rule jump-in): every other player's cards identical to the top card (never a wild)."""
    state = engine.state
    top = state.top_face()
    if top is None or not legality.may_jump_in_on(engine.rules, top):
        return []
    moves: list[Move] = []
    for seat in range(len(state.players)):
        if seat not in excluded:
            for card in sorted(state.hands[seat], key=lambda card: card.token):
                if card.faces[state.side] == top:
                    moves += _plays(engine, seat, card)
    return moves


def _playable(engine: Engine, hand: dict[Card, int]) -> list[Card]:
    """The distinct cards of a hand that match the top card now, by token: the engine's own matching (play.match)."""
    state = engine.state
    side, matches = state.side, legality.match_test(state, engine.rules)
    playable = [card for card in hand if matches(card.faces[side])]
    playable.sort(key=_token)
    return playable


def _token(card: Card) -> str:
    return card.token


def _matches(engine: Engine, card: object) -> bool:
    """Whether the card may be played on the top card now: the engine's own matching (rule play.match)."""
    return engine.matches(card.faces[engine.state.side])  # type: ignore[attr-defined]


def _plays(engine: Engine, seat: int, card: object) -> list[Move]:
    state = engine.state
    name = state.players[seat]
    token = card.token  # type: ignore[attr-defined]
    face = card.faces[state.side]  # type: ignore[attr-defined]
    if engine.rules.faces[face].choose_colour:
        return [_made(ev.Play, name, token, colour) for colour in sorted(engine.rules.side_colours[state.side])]
    return [_made(ev.Play, name, token, None)]


_MADE: dict[tuple[object, ...], Move] = {}  # moves are values: a move listed once is listed again as the same object


def _made(kind: Callable[..., ev.Event], *fields: object) -> Move:
    """The move of an event of ``kind`` with ``fields`` (after its line): made once, then shared (cheaper to list,
    and ``Game`` knows a listed move by its identity)."""
    key = (kind, *fields)
    move = _MADE.get(key)
    if move is None:
        if len(_MADE) > 100_000:  # bounded: names differ from game to game
            _MADE.clear()
        move = _MADE[key] = Move(kind(0, *fields))
    return move


def _draws(engine: Engine, seat: int, draw_cards: bool) -> list[Move]:
    """The turn's draw, once: bare in full mode (the referee knows the pile) or when asked; in observed mode naming one
    card of the draw pile, as chance would give it (``drawn_by_chance``). Any other card of the pile may be pushed."""
    state = engine.state
    name = state.players[seat]
    if state.knowledge.takes_top() or state.draw_pile_size() == 0 or not draw_cards:
        return [_made(ev.Draw, name, ())]
    card = drawn_by_chance(state)
    return [_made(ev.Draw, name, (card.token,))] if card is not None else [_made(ev.Draw, name, ())]


def drawn_by_chance(state: GameState) -> Card | None:
    """The card an observed game's draw names in ``legal_moves``: each card of the draw pile as likely as the pile
    holds copies of it, chosen by a stable function of the state (the same state lists the same draw, in any
    process: no randomness), so that a bot choosing uniformly among the moves draws as often as in a full game, not
    once per distinct card."""
    from zlib import crc32

    total = state.observed_size
    if total <= 0:
        return None
    key = f"{state.round_number}:{state.turn}:{len(state.discard_pile)}:{total}:{state.hand_sizes}:{state.side}"
    index = crc32(key.encode("ascii")) % total
    for card, count in state.draw_counts.items():
        if index < count:
            return card
        index -= max(count, 0)
    return next((card for card, count in state.draw_counts.items() if count > 0), None)  # the size and counts disagree
