"""What one seat may know: a game seen from one player's chair.

A match host, an environment or a bot must never see what the seat could not:
another hand's faces, the draw pile's order, a card another player drew. The
view is built from the state and from the round's public record (the same
projection ``Game.log(mode="public")`` writes, ``referee.public.projection``), so what
it holds is exactly: the seat's own hand (both faces of each card in a game of
two sides), what lies face up on the table, what every player did as the
table saw it, and in a game of two sides the backs the table sees (the other
side of every other player's cards and of the draw pile's top card).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

from referee.cards import Card
from referee.engine.state import PLAYING, Dispute, GameState, direction_token, phase_token
from referee.log import events as ev
from referee.log.writer import format_event
from referee.public.projection import public_event, shows, start_cards
from referee.records import dataclass
from referee.rules.compiler import Rules


@dataclass(frozen=True, slots=True)
class Seen:
    """One line of the round as the whole table saw it: the public record's line (``Bob draws 2``, ``Ann plays
    red-5``), and for a challenge or a catch its ruling (``guilty``/``innocent``, ``valid``/``invalid``)."""

    line: int
    event: str
    ruling: str | None = None

    def __reduce__(self) -> tuple[type[Seen], tuple[int, str, str | None]]:
        """Pickled as a constructor call, as every compiled record is (``setup.py``)."""
        return (Seen, (self.line, self.event, self.ruling))

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

    def __reduce__(self) -> tuple[type[Owed], tuple[str, str, int | None, bool]]:
        return (Owed, (self.player, self.owes, self.cards, self.challengeable))


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

    def __reduce__(self) -> tuple[type[SeatView], tuple[Any, ...]]:
        fields = (self.player, self.players, self.round, self.phase, self.turn, self.hand, self.top, self.discard_pile)
        more = (self.colour, self.side, self.direction, self.hand_sizes, self.draw_pile, self.scores, self.target, self.owed)
        return (SeatView, (*fields, *more, self.uno, self.history, self.backs, self.draw_pile_back))

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
    pile_top = state.knowledge.top_card(state) if two_sides else None
    pile_back = pile_top.faces[back].token if pile_top is not None else None
    hand = state.hands[seat]
    return SeatView(
        player=names[seat],
        players=names,
        round=state.round_number,
        phase=phase_token(state.phase),
        turn=turn,
        hand=tuple(sorted(card.token for card, count in hand.items() for _ in range(count))),
        top=top.token if top is not None else None,
        discard_pile=tuple(card.token for card in state.discard_pile),
        colour=state.colour,
        side=rules.spec.side_names[state.side],
        direction=direction_token(state.direction),
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


HIGH = 1_000_000.0  # no count, size or score in an encoded view is larger (a score is clipped to it)


class Encoding:
    """A seat's view as a fixed vector of numbers (the environment's observation, ``referee.play.env``): named parts,
    each a slice (``parts``), with the highest value each dimension can take (``high``: one-hots 1, counts bounded by
    the deck). ``vector`` reads the state directly, not a ``SeatView``: an agent observes at every step."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules, self.players = rules, players
        tokens = sorted({card.token for card in rules.deck})
        self.types = {token: number for number, token in enumerate(tokens)}
        self.faces = {token: number for number, token in enumerate(sorted({face.token for card in rules.deck for face in card.faces}))}
        self.colours = {colour: number for number, colour in enumerate(sorted(set().union(*rules.side_colours)))}
        self.sides = rules.spec.side_names
        sizes = self._sizes(tokens)
        self.parts: dict[str, slice] = {}
        self.high: list[float] = []
        for name, size, high in sizes:
            self.parts[name] = slice(len(self.high), len(self.high) + size)
            self.high += high
        self.size = len(self.high)
        self._offsets()

    def _sizes(self, tokens: list[str]) -> list[tuple[str, int, list[float]]]:
        """Each part's name, size and the highest value of each of its dimensions."""
        rules = self.rules
        n, t, f, deck = self.players, len(tokens), len(self.faces), float(len(rules.deck))
        copies = {token: float(sum(1 for card in rules.deck if card.token == token)) for token in tokens}  # a count's bound
        per_face = [float(sum(1 for card in rules.deck if face in {side.token for side in card.faces})) for face in self.faces]
        sizes: list[tuple[str, int, list[float]]] = [  # (name, size, the highest value of each dimension)
            ("hand", t, [copies[token] for token in tokens]),  # how many of each physical card the observer holds
            ("discard_pile", t, [copies[token] for token in tokens]),  # how many of each lie in the discard pile
            ("top", f, [1.0] * f),  # the face showing on the discard pile (one-hot)
            ("colour", len(self.colours), [1.0] * len(self.colours)),  # the colour in play (one-hot)
            ("direction", 1, [1.0]),  # 1 when play goes left
            ("hand_sizes", n, [deck] * n),  # by relative seat
            ("draw_pile", 1, [deck]),
            ("scores", n, [HIGH] * n),  # by relative seat, clipped to 1,000,000
            ("to_act", n, [1.0] * n),  # who must act (one-hot by relative seat)
            ("optional", 1, [1.0]),  # 1 when the observer is asked out of turn and may wait
            ("owes", n, [HIGH] * n),  # cards owed, by relative seat (a draw until a colour counts as 1; stacks add up)
            ("uno", n, [1.0] * n),  # whose UNO window is open (one-hot by relative seat)
        ]
        if len(self.sides) > 1:  # what only a game of two sides has: the side in play, and the backs the table sees
            sizes += [
                ("side", 1, [1.0]),  # 1 on the second side (dark)
                ("backs", (n - 1) * f, per_face * (n - 1)),  # each other seat's hand as the table sees its back
                ("draw_pile_back", f, [1.0] * f),  # the face on the back of the draw pile's top card (one-hot)
            ]
        return sizes

    def _offsets(self) -> None:
        """Where each card, face and colour is written: read at every observation, so worked out once."""
        n, f = self.players, len(self.faces)
        at = {name: part.start for name, part in self.parts.items()}
        self._hand = {token: at["hand"] + number for token, number in self.types.items()}
        self._discard = {token: at["discard_pile"] + number for token, number in self.types.items()}
        self._top = {token: at["top"] + number for token, number in self.faces.items()}
        self._colour = {colour: at["colour"] + number for colour, number in self.colours.items()}
        self._backs = [{token: at.get("backs", 0) + (seat - 1) * f + number for token, number in self.faces.items()} for seat in range(n)]
        self._pile_back = {token: at.get("draw_pile_back", 0) + number for token, number in self.faces.items()}
        self._at = at
        self._to_act, self._optional, self._direction = at["to_act"], at["optional"], at["direction"]
        self._hand_sizes, self._scores, self._draw_pile = at["hand_sizes"], at["scores"], at["draw_pile"]
        self._owes, self._uno = at["owes"], at["uno"]
        self._discards_seen: tuple[list[Card], list[int]] = ([], [0] * len(self.types))  # the pile last counted, its counts

    def __reduce__(self) -> tuple[type[Encoding], tuple[Rules, int]]:
        return (Encoding, (self.rules, self.players))

    def vector(self, state: GameState, seat: int, asked: int = -1, optional: bool = False) -> list[float]:
        """The vector of ``seat``'s view; ``asked`` is the seat the host asks (-1: nobody), ``optional`` whether
        that seat may let the chance go by (the host's question, not the state's)."""
        vector = [0.0] * self.size
        self.fill(vector, state, seat, asked, optional)
        return vector

    def fill(self, vector: MutableSequence[float], state: GameState, seat: int, asked: int = -1, optional: bool = False) -> None:
        """``vector`` but written into ``vector``, a sequence of ``size`` zeros: an environment's float32 buffer,
        which numpy then reads without a copy (cheaper than a list turned into an array)."""
        at = self._at
        n = len(state.players)
        if asked >= 0:
            vector[self._to_act + (asked - seat) % n] = 1.0
            if optional and asked == seat:
                vector[self._optional] = 1.0
        hand = self._hand
        for card, count in state.hands[seat].items():
            vector[hand[card.token]] += count
        self._count_discards(vector, state)
        top = state.top_face()
        if top is not None:
            vector[self._top[top.token]] = 1.0
        if state.colour is not None:
            vector[self._colour[state.colour]] = 1.0
        if state.direction == 1:
            vector[self._direction] = 1.0
        totals, sizes = state.totals, state.hand_sizes
        first_size, first_score = self._hand_sizes, self._scores
        for relative in range(n):
            other = (seat + relative) % n
            vector[first_size + relative] = float(sizes[other])
            if other < len(totals):
                vector[first_score + relative] = float(min(totals[other], HIGH))
        vector[self._draw_pile] = float(state.draw_pile_size())
        if state.phase is PLAYING:
            for penalty in state.penalties:
                owed = penalty.count + penalty.extra if penalty.until_colour is None else 1
                vector[self._owes + (penalty.player - seat) % n] += owed
            if state.uno_player is not None and not state.uno_called and not state.uno_caught:
                vector[self._uno + (state.uno_player - seat) % n] = 1.0
        if "backs" in at:
            self._two_sides(vector, state, seat)

    def _count_discards(self, vector: MutableSequence[float], state: GameState) -> None:
        """How many of each physical card lie in the discard pile, by card type. The pile mostly grows at its end
        between two observations, so the counts of the pile last seen are kept and only the cards added since are
        counted; the kept pile is compared first (in C, element by element: equal cards count alike), and any
        other change counts the pile anew."""
        pile = state.discard_pile
        seen, counts = self._discards_seen  # read once: an encoding shared between threads stays right
        if len(pile) < len(seen) or pile[: len(seen)] != seen:
            seen, counts = [], [0] * len(self.types)
        else:
            counts = list(counts)
        types = self.types
        for card in pile[len(seen) :]:
            counts[types[card.token]] += 1
        self._discards_seen = (list(pile), counts)
        first = self._at["discard_pile"]
        for number, count in enumerate(counts):
            if count:
                vector[first + number] = float(count)

    def _two_sides(self, vector: MutableSequence[float], state: GameState, seat: int) -> None:
        """The side in play, each other hand's backs and the draw pile's back (a game of two sides)."""
        vector[self._at["side"]] = float(state.side != 0)
        back, n = 1 - state.side, len(state.players)
        for relative in range(1, n):
            backs = self._backs[relative]
            for card, count in state.hands[(seat + relative) % n].items():
                vector[backs[card.faces[back].token]] += count
        top = state.knowledge.top_card(state)
        if top is not None:
            vector[self._pile_back[top.faces[back].token]] = 1.0
