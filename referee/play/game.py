"""``referee.Game``: the referee as a library, modelled on python-chess's ``Board``.

A game holds one engine (the one mutable state) and the log so far. Moves
are checked by the same engine that checks logs, so a bot, a server or a
test that plays through ``Game`` writes logs that ``referee check`` accepts.

>>> game = Game.new("uno-flip", ["Ann", "Bob"], seed=7)
>>> game.turn
'Ann'
>>> move = game.legal_moves()[0]
>>> game.is_legal(move).legal
True
>>> game.push(move)
>>> game.pop() == move
True
>>> check(game.log()).valid
True
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from pathlib import Path
from typing import Any, TypeVar, overload

from referee.cards import Card, Face
from referee.checking.replay import Replay, card_form
from referee.engine.deal import goes_back, hands_from
from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, START_AGAIN, Engine, Snapshot
from referee.engine.moves import Move, at_line, legal_moves
from referee.engine.state import direction_token
from referee.errors import IllegalMove, UsageError
from referee.log import events as ev
from referee.log.writer import format_event
from referee.play.seat import Encoding, History, SeatView, seat_view
from referee.records import dataclass
from referee.rules.compiler import Rules, load_rules
from referee.spec.extends import default_spec_name, resolve_spec
from referee.verdicts import Diagnostic, FileVerdict

MODES = ("full", "observed")
_Buffer = TypeVar("_Buffer", bound=MutableSequence[float])  # what Game.encode fills


class HeldCard(str):
    """A card as ``Game.hand`` and ``Game.top`` give it: the card's token (so it prints, compares and is pushed as the log
    writes it), with ``card`` (the physical ``Card``), ``face`` (the face showing on the side in play), ``colour``
    (that face's colour, None for a wild) and ``points`` (what it scores on that side)."""

    card: Card
    face: Face
    points: int

    def __new__(cls, token: str, card: Card, face: Face, points: int) -> HeldCard:
        held = super().__new__(cls, token)
        held.card, held.face, held.points = card, face, points
        return held

    @property
    def colour(self) -> str | None:
        return self.face.colour

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (HeldCard, (str(self), self.card, self.face, self.points))


@dataclass(frozen=True, slots=True)
class Legality:
    """Whether a move is legal now, and if not why: the diagnostic ``referee check`` would give at its line."""

    move: Move
    diagnostic: Diagnostic | None

    @property
    def legal(self) -> bool:
        return self.diagnostic is None

    @property
    def code(self) -> str | None:
        return self.diagnostic.code if self.diagnostic else None

    @property
    def rule(self) -> str | None:
        return self.diagnostic.rule if self.diagnostic else None

    @property
    def message(self) -> str | None:
        return self.diagnostic.message if self.diagnostic else None

    @property
    def allowed(self) -> tuple[str, ...]:
        return self.diagnostic.allowed if self.diagnostic else ()


def check_names(players: Sequence[str]) -> tuple[str, ...]:
    """Player names exactly as the log reader accepts them, or ``ValueError``: a name the log cannot hold would write
    a log that reads back differently (``"Ann Bob"`` is two players; a newline would add header lines)."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players is a sequence of names, not {type(players).__name__}")
    from referee.log.reader import name_problem

    names = tuple(players)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a player's name is a str, not {type(name).__name__}")
        problem = name_problem(name)
        if problem is not None:
            raise ValueError(problem)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"player names must differ: {', '.join(repeated)} appears more than once")
    if not names:
        raise ValueError("a game needs players")
    return names


def _move(move: object, game: Game) -> Move:
    """A move pushed or asked about: a ``Move``, or a line of log text; anything else is a ``TypeError``."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return game.parse(move)
    raise TypeError(f"a move is a referee.Move or a line of log text, not {type(move).__name__}")


def _log_text(log: str | Path) -> tuple[str | None, Path | None]:
    """``str`` is the text of a log, ``Path`` (any ``os.PathLike``) a file: a string is never taken for a path, so text
    from a user (``"/etc/passwd"``) is checked as a log, not read as a file."""
    import os

    if isinstance(log, str):
        return log, None
    if isinstance(log, os.PathLike):
        return None, Path(log)
    raise TypeError(f"a log is its text (str) or a path (pathlib.Path), not {type(log).__name__}")


def _rules(spec: str | Path | Rules | None, relative_to: Path | None = None) -> Rules:
    if isinstance(spec, Rules):
        return spec
    return load_rules(resolve_spec(str(spec or default_spec_name()), relative_to))


class Game:
    """One game: the state, the log so far, and moves to push and pop.

    Build one with ``Game.new`` (a fresh deal) or ``Game.from_log`` (a recorded game, up to its first error).
    """

    def __init__(self, rules: Rules, header: Sequence[ev.Event] = ()) -> None:
        self.rules = rules
        self._engine = Engine(rules, record_disputes=True)
        self._events: list[ev.Event] = []
        self._before: list[tuple[int, int]] = []  # by event: the side in play and the draw pile's size before it (views)
        self._history = History()  # the events' public record, kept for views
        self._undo: list[tuple[int, Snapshot | None, Move | None]] = []  # events before the step, the engine before it, its move
        self._undo_limit: int | None = None  # how many steps ``pop`` can undo (None: all); a host that never pops keeps 0
        self._listed: tuple[int, list[Move]] = (-1, [])  # the last ``legal_moves`` and the event count it was made at
        if header:
            self._step(header, None)
            self._undo.clear()  # the header is not undone

    # -- building a game

    @classmethod
    def new(
        cls,
        spec: str | Path | Rules | None = None,
        players: Sequence[str] = ("Ann", "Bob"),
        dealer: str | None = None,
        mode: str = "full",
        shuffle: Sequence[str] | None = None,
        seed: int | None = None,
        target: int | None = None,
        options: Mapping[str, Any] | None = None,
        spec_line: str | None = None,
    ) -> Game:
        """A new game dealt for round 1: ``spec`` a shipped name, a file or compiled rules (default: UNO Flip).

        ``mode`` ``full`` writes the shuffle (the referee knows the draw pile);
        ``observed`` writes each hand and the card turned up, as a table
        record would. ``shuffle`` (the draw pile, top card first) or ``seed``
        (a shuffle of the spec's deck) decide the cards; ``dealer`` defaults
        to the last player. ``target`` plays to that score instead of the spec's (the log gets a ``target`` line).
        ``options`` sets what a log's header can state besides its spec: ``target`` (as above) and ``deck`` (the
        physical cards, in any order: another pairing of the same faces; the log gets a ``deck`` line). Any other
        option is a ``ValueError``: a log names only its spec, so another rule needs a house spec file.
        ``spec_line`` is what the log's ``spec`` line says instead of the spec's name or path (a copy of the spec
        file beside the log, named relative to it, as ``referee simulate --out`` and ``referee play`` write).
        """
        players = check_names(players)
        rules = _rules(spec)
        if mode not in MODES:
            raise UsageError(f"mode is full or observed, not '{mode}'")
        header: list[ev.Event] = [ev.Players(1, tuple(players))]
        if spec_line is not None:
            header.append(ev.SpecName(2, spec_line))
        elif rules.spec.name != default_spec_name():
            header.append(ev.SpecName(2, spec if isinstance(spec, str) and not spec.endswith((".yaml", ".yml")) else rules.spec.path))
        chosen = dict(options or {})
        unknown = sorted(set(chosen) - {"target", "deck"})
        if unknown:
            raise ValueError(
                f"option {unknown[0]!r} cannot be set by Game.new: a log states only its spec, its deck and its target; "
                "write a house spec (docs/spec-language.md) and pass its file as spec"
            )
        if target is not None and chosen.get("target", target) != target:
            raise ValueError("target is given twice, with two values")
        target = chosen.get("target", target)
        deck = chosen.get("deck")
        if deck is not None:
            if isinstance(deck, str) or not all(isinstance(card, str) for card in deck):
                raise ValueError("deck is a sequence of physical cards, each a str such as 'red-1/pink-3'")
            header.append(ev.Deck(len(header) + 1, tuple(deck)))
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 999_999:
                raise ValueError(f"target is a whole number of points from 1 to 999999, not {target!r}")
            header.append(ev.Target(len(header) + 1, target))
        game = cls(rules, header)
        game.next_round(dealer=dealer, mode=mode, shuffle=shuffle, seed=seed)
        return game

    @classmethod
    def from_log(cls, log: str | Path, spec: str | Path | None = None) -> Game:
        """The game a log records, replayed up to its end or its first error (``Game.error`` then says which).

        ``log`` is the text of a log (a ``str``) or a file (a ``pathlib.Path``):
        a string is never read as a path. The undo history starts at the end of
        the log. ``spec`` overrides the log's ``spec`` line: a shipped name, or a
        file relative to the current folder (as ``--spec`` is; the log's own ``spec`` line is relative to the log).
        """
        text, path = _log_text(log)
        base = Path.cwd() if path is None else path.parent
        display = "<text>" if path is None else str(path)
        spec_path = resolve_spec(str(spec), Path.cwd()) if spec is not None else None  # as --spec and check(): from here
        applied: list[ev.Event] = []

        def keep(engine: Engine, event: ev.Event, diagnostic: Diagnostic | None) -> None:
            if diagnostic is None:
                applied.append(event)

        replay = Replay(display, base, spec_path, after_event=keep, record_disputes=True)
        if path is None:
            verdict = replay.run(io.BytesIO((text or "").encode("utf-8")))
        else:
            try:
                with path.open("rb") as stream:
                    verdict = replay.run(stream)
            except OSError as error:
                raise UsageError(f"{display}: cannot read: {error.strerror or error}") from None
        if verdict.input_error is not None:
            raise UsageError(verdict.input_error)
        if replay.engine is None:
            problem = verdict.errors[0] if verdict.errors else None
            raise UsageError(f"{display}:{problem.line}: {problem.message}" if problem else f"{display}: the log has no complete header")
        game = cls(replay.engine.rules, sorted(replay.header, key=lambda event: event.line))
        game._replay(applied)
        game.error = verdict.errors[0] if verdict.errors else None
        return game

    def _replay(self, events: Sequence[ev.Event]) -> None:
        """Apply a log's events (already judged legal) as steps ``pop`` undoes: each round's setup as one step (as
        ``next_round`` makes it), each move as one."""
        setup: list[ev.Event] = []
        for event in events:
            if isinstance(event, _SETUP):
                setup.append(event)
                continue
            if setup:
                self._step(setup, None)
                setup = []
            if self._step([event], Move.of(event)) is not None:  # pragma: no cover - the replay judged it legal
                raise UsageError(f"line {event.line}: the replayed move was not accepted again")
        if setup:
            self._step(setup, None)

    error: Diagnostic | None = None

    def next_round(
        self, dealer: str | None = None, mode: str = "full", shuffle: Sequence[str] | None = None, seed: int | None = None
    ) -> None:
        """Deal the next round (round 1 of a new game): its ``round``, ``dealer`` and cards, as one step ``pop`` undoes."""
        state = self._engine.state
        if state.phase in (PLAYING, START_AGAIN) or state.phase is GAME_OVER:
            raise UsageError("the round is still being played" if state.phase is not GAME_OVER else "the game is over")
        names = state.players
        if dealer is None:
            previous = state.dealer
            dealer = names[(previous + self.rules.dealer_step) % len(names)] if previous >= 0 else names[-1]
        rng = random.Random(seed)
        pile = list(shuffle) if shuffle is not None else [card.token for card in state.deck]
        if shuffle is None:
            rng.shuffle(pile)
        setup: list[ev.Event] = [ev.Round(0, state.round_number + 1), ev.Dealer(0, dealer)]
        if mode == "full":
            setup.append(ev.Shuffle(0, tuple(pile)))
        else:
            setup += self._observed_deal(names, names.index(dealer) if dealer in names else 0, pile)
        self._step(setup, None)

    def _observed_deal(self, names: Sequence[str], dealer: int, pile: list[str]) -> list[ev.Event]:
        """Hands dealt as the full mode would from ``pile`` (``deal.deal_order``), then the card turned up (again,
        after a card that goes back)."""
        hand_size = self.rules.spec.hand_size
        hands = hands_from(pile, dealer, len(names), hand_size)
        events: list[ev.Event] = [ev.Hand(0, name, tuple(hand)) for name, hand in zip(names, hands, strict=True)]
        for token in pile[hand_size * len(names) :]:
            events.append(ev.Start(0, token))
            card = self.rules.catalogue.card(token)
            if card is None or not goes_back(self.rules, card):
                break
        return events

    def _step(self, events: Iterable[ev.Event], move: Move | None) -> Diagnostic | None:
        """Apply events as one step: all of them, or (at the first rejected one) none."""
        before = len(self._events)
        if self._undo_limit == 0 and move is not None and self._was_listed(move):
            self._apply_listed(move)  # nothing to undo and nothing to reject: no copy of the state
            self._undo.append((before, None, move))
            return None
        snapshot = self._engine.snapshot()
        state = self._engine.state
        for event in events:
            placed = _placed(event, len(self._events) + 1)
            self._before.append((state.side, state.draw_pile_size()))
            diagnostic = self._engine.apply(placed)
            if diagnostic is not None:
                self._engine.restore(snapshot)
                del self._events[before:]
                del self._before[before:]
                self._history.truncate(before)
                if move is None:
                    raise UsageError(f"the setup is not legal: {diagnostic.code} [{diagnostic.rule}]: {diagnostic.message}")
                return diagnostic
            self._events.append(placed)
        self._undo.append((before, snapshot, move))
        limit = self._undo_limit
        if limit is not None and len(self._undo) > limit:  # a snapshot is the whole state: keep only those pop can reach
            index = len(self._undo) - 1 - limit
            count, kept, made = self._undo[index]
            if kept is not None:
                self._undo[index] = (count, None, made)
        return None

    def _was_listed(self, move: Move) -> bool:
        """Whether ``move`` is one of the moves ``legal_moves`` just listed (the very object): legal, so no copy of
        the state is needed to undo a rejection."""
        at, listed = self._listed
        if at != len(self._events):
            return False
        for other in listed:  # noqa: SIM110 - a loop, not any() over a generator: this runs at every step
            if other is move:
                return True
        return False

    def _apply_listed(self, move: Move) -> None:
        state = self._engine.state
        placed = _placed(move.event, len(self._events) + 1)
        self._before.append((state.side, state.draw_pile_size()))
        diagnostic = self._engine.apply(placed)
        if diagnostic is not None:  # pragma: no cover - legal_moves lists only what the engine accepts
            raise RuntimeError(f"a listed move was rejected: {move}: {diagnostic.code}: {diagnostic.message}")
        self._events.append(placed)

    # -- moves

    def legal_moves(self, *, draw_cards: bool = True) -> list[Move]:
        """Every move the rules allow now (see ``referee.engine.moves.legal_moves``; ``draw_cards=False`` lists an observed
        game's draw once, bare, for a caller who names the card drawn)."""
        moves = legal_moves(self._engine, draw_cards=draw_cards)
        if moves and isinstance(moves[0].event, ev.Score):  # the round is over: each player's claim is listed until made
            claimed = set()
            for event in reversed(self._events):
                if not isinstance(event, ev.Score):
                    break
                claimed.add(event.player)
            moves = [move for move in moves if not (isinstance(move.event, ev.Score) and move.event.player in claimed)]
        self._listed = (len(self._events), moves)
        return moves

    def parse(self, text: str) -> Move:
        """A move written as a log line, read as this game writes cards."""
        return Move.parse(text, card_form(self.rules))

    def is_legal(self, move: Move | str) -> Legality:
        """Whether ``move`` is legal now, with the diagnostic if not; the game does not change."""
        move = _move(move, self)
        return Legality(move, self._engine.judge(move.at_line(len(self._events) + 1)))

    def push(self, move: Move | str) -> None:
        """Make a move; ``IllegalMove`` (with the diagnostic) if the rules forbid it, and then nothing changes.

        ``move`` is a ``Move`` or a line of log text; anything else is a ``TypeError``.
        """
        if self._undo_limit == 0 and isinstance(move, Move) and self._was_listed(move):  # a host's step: no state copy
            before = len(self._events)
            self._apply_listed(move)
            self._undo.append((before, None, move))
            return
        move = _move(move, self)
        diagnostic = self._step([move.event], move)
        if diagnostic is not None:
            raise IllegalMove(str(move), diagnostic)

    @property
    def undo_limit(self) -> int | None:
        """How many steps ``pop`` can undo: None (the default) all of them; N keeps a state copy for the last N steps
        only (a host that never pops sets 0, and a long game then holds no state per move)."""
        return self._undo_limit

    @undo_limit.setter
    def undo_limit(self, limit: int | None) -> None:
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise ValueError(f"undo_limit is None or a whole number from 0, not {limit!r}")
        self._undo_limit = limit
        if limit is not None:  # forget the state copies beyond the limit
            for index in range(max(0, len(self._undo) - limit)):
                count, _, made = self._undo[index]
                self._undo[index] = (count, None, made)

    def pop(self) -> Move | None:
        """Undo the last step (a move, or a round's deal) and return its move (None for a deal)."""
        if not self._undo:
            raise IndexError("pop from a game with nothing to undo")
        if self._undo[-1][1] is None:
            raise IndexError(f"pop beyond the last {self._undo_limit} steps (Game.undo_limit keeps only those)")
        before, snapshot, move = self._undo.pop()
        assert snapshot is not None
        self._listed = (-1, [])  # a later position may have as many events: its moves are listed anew
        self._engine.restore(snapshot)
        del self._events[before:]
        del self._before[before:]
        self._history.truncate(before)
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed (or replayed from a log), oldest first; round deals are not moves."""
        return [move for _, _, move in self._undo if move is not None]

    def peek(self) -> Move | None:
        """The last move, or None when there is none (``IndexError`` never: python-chess raises, a bot asks)."""
        stack = self.move_stack
        return stack[-1] if stack else None

    # -- copies, pickling and positions

    def copy(self) -> Game:
        """An independent game in the same position with the same history: pushing on one never changes the other.
        Costs one state copy (cards, faces and rules are immutable and shared)."""
        other = Game(self.rules)
        engine, mine = other._engine, self._engine
        engine.restore(mine.snapshot())
        engine.warnings[:] = mine.warnings
        engine.rounds[:] = mine.rounds
        engine.disputes[:] = mine.disputes
        other._events = list(self._events)
        other._before = list(self._before)
        other._history = self._history.copy()
        other._undo = list(self._undo)  # snapshots are never changed: restoring copies them
        other._undo_limit = self._undo_limit
        other.error = self.error
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its spec and its log, replayed when loaded (the same on the compiled and the pure build)."""
        return (_unpickle, (self.rules.spec.path, self.log(), self.undo_limit))

    def position(self) -> tuple[Any, ...]:
        """What decides the rest of the game, as a hashable value: where every card is, whose move it is and what is
        owed, the scores; not how it came about (line numbers, the moves made)."""
        state = self._engine.state
        pile = state.knowledge.pile(state)
        penalties = tuple(
            (p.player, p.count, p.until_colour, p.extra, p.catch, p.loses_turn, p.next_turn, p.played_by, p.challengeable, p.guilty,
             p.started, p.stack_kind, p.colour_before, p.into_discard, p.ruled)
            for p in state.penalties
        )  # fmt: skip
        return (
            self.rules.spec.name,
            state.players,
            state.round_number,
            state.phase,
            state.dealer,
            state.side,
            state.direction,
            state.turn,
            state.colour,
            state.choose_by,
            state.knowledge.name,
            pile,
            tuple(state.discard_pile),
            tuple(tuple(sorted((card.token, n) for card, n in hand.items() if n)) for hand in state.hands),
            penalties,
            state.drew,
            state.drawn_card,
            state.drawing,
            state.due,
            state.uno_player,
            state.uno_called,
            state.uno_caught,
            tuple(state.totals),
            state.target,
        )

    def __eq__(self, other: object) -> bool:
        """Two games are equal when they are in the same position (``position()``), whatever the moves that led there."""
        return isinstance(other, Game) and self.position() == other.position()

    def __hash__(self) -> int:
        return hash(self.position())

    # -- what is there

    @property
    def players(self) -> tuple[str, ...]:
        return self._engine.state.players

    @property
    def turn(self) -> str | None:
        """The one player who must act now while a round is played: a 7's player who owes a swap (or a shuffle), the drawer of a penalty
        owed (or its challenger), the chooser of a colour, else the player whose turn it is; None between rounds. Others
        may still act too (a catch, the next player after a draw, a jump-in): ``to_move`` lists them all."""
        state = self._engine.state
        seat = state.acting_seat
        return None if seat is None else state.players[seat]

    @property
    def to_move(self) -> tuple[str, ...]:
        """Every player who has a legal move now, in the order of ``legal_moves()`` (a catch is anyone's; after a
        draw the next player may move; after a round each player who has not claimed a score). A reshuffle is the
        table's, nobody's: when it is the only move, ``to_move`` is empty."""
        players = (getattr(move.event, "player", None) for move in self.legal_moves(draw_cards=False))
        return tuple(dict.fromkeys(player for player in players if player is not None))

    def is_round_over(self) -> bool:
        return self._engine.state.phase in (ROUND_OVER, GAME_OVER)

    def is_game_over(self) -> bool:
        return self._engine.state.phase is GAME_OVER

    @property
    def winner(self) -> str | list[str] | None:
        return self._engine.state.game_winner

    def is_blocked(self, choosing: Iterable[str] | None = None) -> bool:
        """Whether no sequence of moves can change the position any more: a round is being played, nothing is left to
        draw or to reshuffle (the discard pile is its top card alone), nobody owes a penalty, no colour or swap is due,
        and no card in any hand may be played on the top card. Only draws of nothing, passes, waits and UNO calls
        remain, round after round of turns: the match host stops such a game. ``choosing`` names the players who
        choose their moves (default: all); the others' cards are not looked at: their moves are made for them, and
        never play a card (the host's fallback for a bot that left the match: draw, pass, wait)."""
        from referee.engine.legality import matches

        state = self._engine.state
        if state.phase is not PLAYING or state.knowledge.hides_hands() or not state.hands:
            return False
        kept = 1 if self.rules.reshuffle_keeps_top else 0  # what a reshuffle leaves on the pile
        if state.draw_pile_size() or len(state.discard_pile) > kept or state.penalties:
            return False
        if state.choose_by is not None or state.due is not None or state.colour is None:
            return False
        side = state.side
        seats = range(len(state.hands)) if choosing is None else [state.seat[name] for name in choosing]
        return not any(matches(state, self.rules, card.faces[side]) for seat in seats for card in state.hands[seat])

    def state(self) -> dict[str, Any]:
        """A JSON-ready snapshot of everything ``referee explain`` shows (see docs/json.md, ``state``)."""
        from referee.checking.explain import state_data

        return state_data(self._engine)

    def hand(self, player: str) -> list[HeldCard]:
        """The cards ``player`` holds, sorted: each a ``HeldCard``, the card's token (a ``str``, as a log writes it)
        that also says its ``face`` showing now, that face's ``colour`` and its ``points``."""
        state = self._engine.state
        hand = state.hands[state.seat[player]]
        return [self._held(card) for card in sorted(hand, key=lambda card: card.token) for _ in range(hand[card])]

    def view(self, player: str, *, history: bool = True, since: int = 0) -> SeatView:
        """What ``player`` may know now, and nothing else: their own hand, what lies face up, every hand's size, the
        scores, the round's public record, and in a game of two sides the backs the table sees (``referee.play.seat``).
        ``history=False`` leaves the record out (it costs the round's length; an environment's encoding needs none);
        ``since=K`` leaves out its first K lines (a seat that has seen them: the match host's protocol).
        A ``ValueError`` for a name that is not a player; a ``UsageError`` for a public round (no hand is known)."""
        state = self._engine.state
        seat = self._seat_seeing(player)
        engine = self._engine
        seen = (
            self._history.round(self.rules, self._events, self._before, state, engine.disputes, self.round_winner, since) if history else ()
        )
        return seat_view(state, self.rules, seat, self.turn, seen)

    def _seat_seeing(self, player: str) -> int:
        """``player``'s seat, for a view of it: a ``ValueError`` for a name that is not a player, a ``UsageError`` in
        a public round (no hand is known)."""
        state = self._engine.state
        if player not in state.seat:
            raise ValueError(f"{player!r} is not a player of this game")
        if state.knowledge.hides_hands() or not state.hands:
            raise UsageError("a public round's hands are hidden: there is no seat's view of it")
        return state.seat[player]

    @overload
    def encode(
        self, player: str, encoding: Encoding, asked: str | None = None, optional: bool = False, out: None = None
    ) -> list[float]: ...
    @overload
    def encode(self, player: str, encoding: Encoding, asked: str | None, optional: bool, out: _Buffer) -> _Buffer: ...
    def encode(
        self, player: str, encoding: Encoding, asked: str | None = None, optional: bool = False, out: MutableSequence[float] | None = None
    ) -> MutableSequence[float]:
        """``player``'s view as ``encoding``'s vector (``referee.play.seat.Encoding``): what ``view`` holds, as numbers, at a
        fraction of its cost (an environment observes at every step), with who is ``asked`` to act and whether it is
        ``optional`` (a chance out of turn). A new list, or ``out`` filled (``encoding.size`` zeros, for instance an
        ``array('f')`` that numpy reads in place) and returned. The same errors as ``view``."""
        state = self._engine.state
        seat, asked_seat = self._seat_seeing(player), state.seat[asked] if asked is not None else -1
        if out is None:
            return encoding.vector(state, seat, asked_seat, optional)
        encoding.fill(out, state, seat, asked_seat, optional)
        return out

    @property
    def round_winner(self) -> str | None:
        """Who won the round just played, once it is over (None while a round is played, and before the first)."""
        rounds = self._engine.rounds
        return rounds[-1].winner if rounds and self._engine.state.phase in (ROUND_OVER, GAME_OVER) else None

    def _held(self, card: Card) -> HeldCard:
        face = card.faces[self._engine.state.side]
        return HeldCard(card.token, card, face, self.rules.faces[face].points)

    @property
    def top(self) -> HeldCard | None:
        """The top card of the discard pile (None before a card is turned up)."""
        pile = self._engine.state.discard_pile
        return self._held(pile[-1]) if pile else None

    @property
    def colour(self) -> str | None:
        """The colour in play (None while a colour is still to be chosen, or between rounds)."""
        return self._engine.state.colour

    @property
    def side(self) -> str:
        """The side in play, by the spec's name for it (``light`` or ``dark`` in UNO Flip)."""
        return self.rules.spec.side_names[self._engine.state.side]

    @property
    def direction(self) -> str:
        """``left`` (clockwise, the first seat after the dealer moves next) or ``right``, as ``state()`` says."""
        return direction_token(self._engine.state.direction)

    @property
    def scores(self) -> dict[str, int]:
        """Each player's total so far (0 for all before a round is scored)."""
        state = self._engine.state
        return {name: state.totals[seat] if seat < len(state.totals) else 0 for seat, name in enumerate(state.players)}

    @property
    def draw_pile_size(self) -> int:
        """How many cards the draw pile holds."""
        return self._engine.state.draw_pile_size()

    def log(self, mode: str = "as-played") -> str:
        """The game so far as a log that ``referee check`` accepts: as it was played (``as-played``), or its public
        record (``public``: what the table saw; ``referee.public.projection``)."""
        if mode == "public":
            from referee.public.projection import public_record

            return "".join(format_event(event) + "\n" for event in public_record(self._events, self.rules))
        if mode != "as-played":
            raise UsageError(f"a log is written as-played or public, not '{mode}'")
        return "\n".join(map(format_event, self._events)) + "\n" if self._events else ""

    def verdict(self) -> Report:
        """The game so far, checked as ``referee check`` checks its log."""
        return check(self.log(), spec=self.rules.spec.path)


_SETUP = (ev.Round, ev.Dealer, ev.Shuffle, ev.Hand, ev.Start)


def _unpickle(spec: str, log: str, undo_limit: int | None = None) -> Game:
    game = Game.from_log(log, spec=spec)
    game.undo_limit = undo_limit
    return game


def _placed(event: ev.Event, line: int) -> ev.Event:
    return at_line(event, line) if event.line != line else event


class Report:
    """``referee.check``'s answer: the verdict on one log, and its JSON exactly as ``referee check --format json``."""

    def __init__(self, verdict: FileVerdict) -> None:
        self.verdict = verdict

    @property
    def valid(self) -> bool:
        return self.verdict.valid

    @property
    def errors(self) -> list[Diagnostic]:
        return self.verdict.errors

    @property
    def warnings(self) -> list[Diagnostic]:
        return self.verdict.warnings

    def to_json(self) -> dict[str, Any]:
        """The entry for this log in the ``files`` list of ``referee check --format json``."""
        return self.verdict.to_json()


def check(log: str | Path, spec: str | Path | None = None) -> Report:
    """Check one log as ``referee check`` does: ``log`` is its text (a ``str``) or a file (a ``pathlib.Path``).

    A string is always log text, never a path: ``check("/etc/passwd")`` checks
    that one line as a log (and finds no ``players`` line), it does not read
    the file. A log's ``spec`` line may name a shipped spec or a file in the
    log's folder tree (the current folder, for text); ``spec`` overrides it.

    >>> report = check("players Ann Bob\\nround 1\\ndealer Ann\\n")
    >>> report.valid, report.to_json()["rounds"][0]["finished"]
    (True, False)
    """
    from referee.checking.replay import check_source, check_stream
    from referee.log.inputs import LogSource

    text, path = _log_text(log)
    spec_path = None
    if spec is not None:
        spec_path = resolve_spec(str(spec), Path.cwd())
    if path is None:
        return Report(check_stream(io.BytesIO((text or "").encode("utf-8")), "<text>", Path.cwd(), spec_path))
    return Report(check_source(LogSource(str(path), path), spec_path))
