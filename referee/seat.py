"""What one seat may know: a game seen from one player's chair.

A match host, an environment or a bot must never see what the seat could not:
another hand's faces, the draw pile's order, a card another player drew. The
view is built from the state and from the round's public record (the same
projection ``Game.log(mode="public")`` writes, ``referee.projection``), so what
it holds is exactly: the seat's own hand (both faces of each card in a game of
two sides), what lies face up on the table, what every player did as the
table saw it, and in a game of two sides the backs the table sees (the other
side of every other player's cards and of the draw pile's top card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee import events as ev
from referee.compiler import Rules
from referee.log_writer import format_event
from referee.projection import public_event, shows, start_cards
from referee.state import GAME_OVER, PLAYING, ROUND_OVER, Dispute, GameState

PHASES = {PLAYING: "playing", ROUND_OVER: "round-over", GAME_OVER: "game-over"}


@dataclass(frozen=True, slots=True)
class Seen:
    """One line of the round as the whole table saw it: the public record's line (``Bob draws 2``, ``Ann plays
    red-5``), and for a challenge or a catch its ruling (``guilty``/``innocent``, ``valid``/``invalid``)."""

    line: int
    event: str
    ruling: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "event": self.event, "ruling": self.ruling}


@dataclass(frozen=True, slots=True)
class Owed:
    """A penalty owed, as the table knows it: who owes, what in words (``4 cards``, ``cards until a pink one``), how
    many cards (None for a draw until a colour), and whether it may still be challenged."""

    player: str
    owes: str
    cards: int | None
    challengeable: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know now, and nothing else (``Game.view``; ``to_json`` for the wire)."""

    player: str
    players: tuple[str, ...]
    round: int
    phase: str  # playing, round-over or game-over
    turn: str | None  # who must act (``Game.turn``)
    hand: tuple[str, ...]  # the seat's own cards, sorted, as physical cards (both faces in a game of two sides)
    top: str | None  # the face showing on the discard pile
    discard_pile: tuple[str, ...]  # its cards, bottom to top: each was seen on both sides (in a hand or on the pile, then played)
    colour: str | None  # the colour in play
    side: str
    direction: str
    hand_sizes: tuple[int, ...]  # by seat, in the order of ``players``
    draw_pile: int  # how many cards it holds
    scores: tuple[int, ...]  # by seat
    target: int
    owed: tuple[Owed, ...]  # penalties owed now
    uno: str | None  # the player whose UNO window is open (down to one card, nobody has called or caught yet)
    history: tuple[Seen, ...]  # the round so far, as the table saw it
    backs: tuple[tuple[str, ...], ...]  # by seat: the faces the table sees on the back of each hand (two sides only)
    draw_pile_back: str | None  # the face on the back of the draw pile's top card (two sides, full mode only)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (the ``view`` of the match host's protocol, docs/protocol.md)."""
        return {
            "player": self.player,
            "players": list(self.players),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "hand": list(self.hand),
            "top": self.top,
            "discard_pile": list(self.discard_pile),
            "colour": self.colour,
            "side": self.side,
            "direction": self.direction,
            "hand_sizes": dict(zip(self.players, self.hand_sizes, strict=True)),
            "draw_pile": self.draw_pile,
            "scores": dict(zip(self.players, self.scores, strict=True)),
            "target": self.target,
            "owed": [
                {"player": owed.player, "owes": owed.owes, "cards": owed.cards, "challengeable": owed.challengeable} for owed in self.owed
            ],
            "uno": self.uno,
            "history": [seen.to_json() for seen in self.history],
            "backs": {name: list(back) for name, back in zip(self.players, self.backs, strict=True) if name != self.player},
            "draw_pile_back": self.draw_pile_back,
        }


def seat_view(
    state: GameState,
    rules: Rules,
    seat: int,
    turn: str | None,
    history: tuple[Seen, ...],
) -> SeatView:
    """The view of ``seat`` in ``state``; ``history`` is the round's public record (``round_history``)."""
    names = state.players
    two_sides = len(rules.spec.side_names) > 1
    back = 1 - state.side if two_sides else state.side
    playing = state.phase is PLAYING
    top = state.top_face()
    backs: list[tuple[str, ...]] = []
    for other, hand in enumerate(state.hands):
        if not two_sides or other == seat:
            backs.append(())
        else:
            backs.append(tuple(sorted(card.faces[back].token for card, count in hand.items() for _ in range(count))))
    pile_back = None
    if two_sides and state.full_mode and state.draw_pile:
        pile_back = state.draw_pile[-1].faces[back].token
    hand = state.hands[seat]
    return SeatView(
        player=names[seat],
        players=names,
        round=state.round_number,
        phase=PHASES.get(state.phase, "setup"),
        turn=turn,
        hand=tuple(sorted(card.token for card, count in hand.items() for _ in range(count))),
        top=top.token if top is not None else None,
        discard_pile=tuple(card.token for card in state.discard_pile),
        colour=state.colour,
        side=rules.spec.side_names[state.side],
        direction="left" if state.direction == 1 else "right",
        hand_sizes=tuple(state.hand_sizes),
        draw_pile=state.draw_pile_size(),
        scores=tuple(state.totals[index] if index < len(state.totals) else 0 for index in range(len(names))),
        target=state.target,
        owed=tuple(
            Owed(names[p.player], p.describe(), p.count + p.extra if p.until_colour is None else None, p.challengeable and not p.started)
            for p in state.penalties
            if playing
        ),
        uno=names[state.uno_player] if playing and state.uno_player is not None and not state.uno_called and not state.uno_caught else None,
        history=history,
        backs=tuple(backs),
        draw_pile_back=pile_back,
    )


class History:
    """The public record of a game's events, kept as they are pushed (``Game.view`` reads the current round's).

    ``lines[i]`` is the public form of event ``i``: nothing for the deal, the ``start`` lines a shuffle turns up,
    one line for a move. A draw's count needs the pile's size after it, so the last event's line is made afresh at
    each view and the rest are kept; ``truncate`` follows ``Game.pop``.
    """

    def __init__(self) -> None:
        self.lines: list[tuple[Seen, ...]] = []
        self.flat: list[Seen] = []  # the lines of the current round's events in ``lines``, flattened: views cost no scan
        self.starts = [0]  # the index in ``lines`` of each round's first event (after its ``round`` line), the last now

    def copy(self) -> History:
        other = History()
        other.lines = list(self.lines)
        other.flat = list(self.flat)
        other.starts = list(self.starts)
        return other

    def truncate(self, events: int) -> None:
        """Forget the lines of events ``events`` on (``Game.pop``); the current round's are made again from the rest."""
        if events >= len(self.lines):
            return
        del self.lines[events:]
        while len(self.starts) > 1 and self.starts[-1] > len(self.lines):  # its ``round`` line was undone too
            self.starts.pop()
        self.flat = [line for index in range(self.starts[-1], len(self.lines)) for line in self.lines[index]]

    def _extend(
        self,
        rules: Rules,
        events: Sequence[ev.Event],
        before: Sequence[tuple[int, int]],
        upto: int,
        disputes: Sequence[Dispute],
        players: int,
    ) -> None:
        """Make the lines of events up to ``upto`` (excluded), keeping the current round's flattened."""
        lines = self.lines
        while len(lines) < upto:
            index = len(lines)
            made = _lines(rules, events[index], before[index], before[index + 1][1], disputes, players)
            lines.append(made)
            if isinstance(events[index], ev.Round):
                self.starts.append(index + 1)
                self.flat = []
            else:
                self.flat.extend(made)

    def round(
        self,
        rules: Rules,
        events: Sequence[ev.Event],
        before: Sequence[tuple[int, int]],
        state: GameState,
        disputes: Sequence[Dispute],
        winner: str | None,
        since: int = 0,
    ) -> tuple[Seen, ...]:
        """The public record of the round ``events`` end in (from its ``round`` line): ``before[i]`` is the side in
        play and the draw pile's size just before ``events[i]``; ``state`` is the state after the last event. Once
        the round is over, each player but its winner shows their hand (as the public record has it). ``since``
        leaves out the round's first lines, already seen: what comes after costs only its own length."""
        last = len(events) - 1
        if len(self.lines) > last:  # after a pop, the last event's lines were kept as a finished event's: drop them
            self.truncate(max(last, 0))
        self._extend(rules, events, before, last, disputes, state.player_count)
        if last < 0 or isinstance(events[last], ev.Round):
            return ()
        flat = self.flat
        seen = flat[since:]  # the lines of the round's events before the last, from the ``since``-th on
        tail = list(_lines(rules, events[last], before[last], state.draw_pile_size(), disputes, state.player_count))
        if state.phase is not PLAYING and winner is not None:
            line = events[last].line
            tail += [Seen(line, format_event(event)) for event in shows(state, winner, line)]
        return tuple(seen + tail[max(0, since - len(flat)) :])


def _lines(
    rules: Rules, event: ev.Event, before: tuple[int, int], after: int, disputes: Sequence[Dispute], players: int
) -> tuple[Seen, ...]:
    """The public lines of one event: none for the deal, the cards a shuffle turns up, else one (with a ruling)."""
    if isinstance(event, ev.Shuffle):  # the cards turned up are public; the deal is not
        return tuple(Seen(event.line, format_event(start)) for start in start_cards(rules, event, players))
    if isinstance(event, ev.Round | ev.Dealer | ev.Hand | ev.Players | ev.SpecName | ev.Deck | ev.Target):
        return ()
    side, pile = before
    ruling = None
    if isinstance(event, ev.Catch | ev.Challenge):
        ruling = next((str(dispute.ruling) for dispute in reversed(disputes) if dispute.line == event.line), None)
    return (Seen(event.line, format_event(public_event(rules, event, side, pile - after)), ruling),)
