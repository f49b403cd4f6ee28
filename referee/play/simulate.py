"""Random self-play under any spec, written as game logs.

The simulator decides what the players do and hands every event to the
engine, which must accept it (so a simulated log is legal by construction,
and the tests re-check it through ``referee check``). It keeps the real order
of the draw pile itself, so observed-mode logs can name the cards drawn.
Players behave like real tables: they sometimes draw while holding a playable
card, keep or play what they drew, bluff wild draws, challenge rightly and
wrongly, forget to say UNO, catch each other and claim scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import field, replace

from referee.cards import Card, FaceClass
from referee.engine import hands
from referee.engine.deal import hands_from
from referee.engine.engine import GAME_OVER, PLAYING, ROUND_OVER, START_AGAIN, Engine
from referee.engine.moves import legal_moves
from referee.engine.state import DEALT, Due, Duty
from referee.log import events as ev
from referee.log.writer import format_event
from referee.records import dataclass
from referee.rules.compiler import Rules

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Kim", "Max", "Ned")
MAX_EVENTS_PER_ROUND = 20_000


class SimulationError(AssertionError):
    """The engine refused an event the simulator made: a bug in one of them."""


@dataclass
class _Choices:
    """What the engine allows at one step, as a table sees it: each player's playable cards (a wild once, not once per
    colour), the catches, the challenges, whether the piles may be reshuffled, a seven's swap and its UNO call."""

    plays: dict[str, list[Card]] = field(default_factory=dict)
    catches: list[ev.Catch] = field(default_factory=list)
    challenges: list[ev.Challenge] = field(default_factory=list)
    reshuffle: bool = False


class Simulator:
    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        mode: str,
        spec_line: str | None = None,
        max_rounds: int = 200,
        on_step: Callable[[Engine, ev.Event], None] | None = None,
        target: int | None = None,
    ) -> None:
        self.rules = rules
        self.target = target
        self.random = random.Random(seed)
        pool = NAMES + tuple(f"Player{number}" for number in range(len(NAMES) + 1, players + 1))
        self.names = tuple(self.random.sample(pool, players))
        # The engine's mode of card knowledge decides who keeps the draw pile's order: the engine in full mode (a
        # draw takes its top card), the simulator in observed mode (the engine knows counts, and a draw names cards).
        self.own_pile = not DEALT[mode].takes_top()
        self.spec_line = spec_line
        self.max_rounds = max_rounds
        self.on_step = on_step
        self.engine = Engine(rules)
        self.hidden: list[Card] = []
        self.before_step: Callable[[Engine, ev.Event], None] | None = None
        # Full mode: asked first at each decision, with its line: an event to make instead of the table's own choice,
        # or None (``referee diff`` steers towards a move another spec would reject).
        self.steer: Callable[[int], ev.Event | None] | None = None
        self.optional_header = True

    def _emit(self, event: ev.Event) -> ev.Event:
        if self.before_step is not None:
            self.before_step(self.engine, event)
        diagnostic = self.engine.apply(event)
        if diagnostic is not None:
            raise SimulationError(
                f"engine refused simulated line {event.line} '{format_event(event)}': {diagnostic.code}: {diagnostic.message}"
            )
        if self.on_step is not None:
            self.on_step(self.engine, event)
        return event

    def events(self) -> Iterator[ev.Event]:
        rng = self.random
        line = 1

        def next_line() -> int:
            nonlocal line
            line += 1
            return line

        yield self._emit(ev.Players(next_line(), self.names))
        if self.spec_line:
            yield self._emit(ev.SpecName(next_line(), self.spec_line))
        if self.optional_header and rng.random() < 0.3:
            deck = list(self.rules.spec.deck)
            rng.shuffle(deck)
            yield self._emit(ev.Deck(next_line(), tuple(deck)))
        if self.target is not None:  # only when asked: a game is played to its spec's own target otherwise
            yield self._emit(ev.Target(next_line(), self.target))
        state = self.engine.state
        dealer = rng.randrange(len(self.names))
        for number in range(1, self.max_rounds + 1):
            yield self._emit(ev.Round(next_line(), number))
            if number > 1:
                dealer = (dealer + self.rules.dealer_step) % len(self.names)
            yield self._emit(ev.Dealer(next_line(), self.names[dealer]))
            yield from self._deal(dealer, next_line)
            for _ in range(MAX_EVENTS_PER_ROUND):
                if state.phase is not PLAYING:
                    break
                event = self._step(next_line)
                yield self._emit(event)
                self._follow(event)
            else:
                return
            if state.phase in (ROUND_OVER, GAME_OVER):
                result = state.last_result
                assert result is not None
                if rng.random() < 0.5:
                    for seat in rng.sample(range(len(self.names)), k=min(2, len(self.names))):
                        points = self.engine.round_points(seat, result)
                        yield self._emit(ev.Score(next_line(), self.names[seat], points))
            if state.phase is GAME_OVER:
                return

    # -- the deal

    def _deal(self, dealer: int, next_line: Callable[[], int]) -> Iterator[ev.Event]:
        rng = self.random
        state = self.engine.state
        pile = list(state.deck)
        rng.shuffle(pile)
        if not self.own_pile:
            yield self._emit(ev.Shuffle(next_line(), tuple(card.token for card in pile)))
            self.hidden = state.draw_pile
            return
        n = len(self.names)
        hands = hands_from(pile, dealer, n, self.rules.spec.hand_size)
        written = list(range(n))  # the hands are written in any order
        rng.shuffle(written)
        for seat in written:
            yield self._emit(ev.Hand(next_line(), self.names[seat], tuple(card.token for card in hands[seat])))
        self.hidden = pile[n * self.rules.spec.hand_size :][::-1]
        while True:
            card = self.hidden.pop()
            yield self._emit(ev.Start(next_line(), card.token))
            if state.phase is not START_AGAIN:
                break
            self.hidden.insert(rng.randrange(len(self.hidden) + 1), card)
        if state.discard_pile and state.side != self.rules.spec.start_side:
            self.hidden.reverse()

    def _follow(self, event: ev.Event) -> None:
        """Keep the simulator's own draw-pile order in step with the engine (observed mode)."""
        if not self.own_pile:
            self.hidden = self.engine.state.draw_pile
            return
        if isinstance(event, ev.Play) and self._flipped:
            self.hidden.reverse()

    # -- one decision

    def _step(self, next_line: Callable[[], int]) -> ev.Event:
        """One event, chosen among ``legal_moves()`` the way a real table behaves, then written as a table writes it
        (a face when it names one card, a penalty drawn as several cards at once, the real card drawn). What is
        asked in turn: a reshuffle, a seven's swap, a shuffle of hands, the UNO window, a penalty owed, a colour to choose, a draw
        going on, a jump-in, then the turn; the random choices are drawn in that order, so a seed's game is fixed."""
        state = self.engine.state
        self._flipped = False
        names = self.names
        line = next_line()
        if self.steer is not None and not self.own_pile:  # full mode: the pile is the engine's, whatever was played
            steered = self.steer(line)
            if steered is not None:
                return steered
        choices = self._choices()
        if choices.reshuffle and len(state.discard_pile) > (1 if self.rules.reshuffle_keeps_top else 0):  # only when cards move
            return self._reshuffle(line)
        if state.due is not None:  # a card's player says UNO (often), then names whom to swap with or deals every hand
            return self._pay_due(line, state.due)
        called = self._uno_window(line, choices.catches)
        if called is not None:
            return called
        if state.penalties:
            return self._owed(line, choices)
        if state.choose_by is not None:
            return ev.Choose(line, names[state.choose_by], self._best_colour(state.choose_by))
        seat = state.turn
        if state.drawing:
            return self._turn_draw(line, seat)
        jumped = self._jump_in(line, seat, choices.plays)
        if jumped is not None:
            return jumped
        if state.drew:
            drawn = state.drawn_card
            playable = drawn is not None and drawn in choices.plays.get(names[seat], ())
            if drawn is not None and playable and (self.rules.forced_play or self.random.random() < 0.8):
                return self._play_event(line, seat, drawn)
            if self.random.random() < 0.5:
                return ev.Pass(line, names[seat])
            seat = state.next_player(seat)  # the next player moves, which ends the turn
        return self._turn(line, seat, choices.plays.get(names[seat], []))

    def _choices(self) -> _Choices:
        """What the engine allows now, sorted as the table sees it (the draws are the table's own to make)."""
        choices = _Choices()
        for move in legal_moves(self.engine, draw_cards=False):
            event = move.event
            if type(event) is ev.Draw:
                continue
            if isinstance(event, ev.Play):
                cards = choices.plays.setdefault(event.player, [])
                card = self.rules.catalogue.card(event.card)
                if card is not None and card not in cards:
                    cards.append(card)
            elif isinstance(event, ev.Catch):
                choices.catches.append(event)
            elif isinstance(event, ev.Challenge):
                choices.challenges.append(event)
            elif isinstance(event, ev.Reshuffle):
                choices.reshuffle = True
        return choices

    def _pay_due(self, line: int, due: Due) -> ev.Event:
        """A duty owed: its player says UNO first (often, when holding one card), then pays it as the table would."""
        state = self.engine.state
        if state.uno_player == due.seat and not state.uno_called and self.random.random() < 0.6:
            return ev.Call(line, self.names[due.seat])
        if due.duty is Duty.SHUFFLE:  # the table deals: every hand's cards in an order of chance
            cards = [card for hand in state.hands for card, count in hand.items() for _ in range(count)]
            self.random.shuffle(cards)
            return ev.ShuffleHands(line, self.names[due.seat], tuple(card.token for card in cards))
        return replace(self.random.choice(hands.DUTIES[due.duty].lines(self.engine, due.seat)), line=line)

    def _uno_window(self, line: int, catches: list[ev.Catch]) -> ev.Event | None:
        """An open UNO window: its player says UNO, or another catches them, or neither (yet)."""
        state = self.engine.state
        window = state.uno_player
        if window is None or state.uno_called or state.uno_caught:
            return None
        chance = self.random.random()
        if chance < 0.55:
            return ev.Call(line, self.names[window])
        if chance < 0.8 and catches:
            return replace(self.random.choice(catches), line=line)
        return None

    def _owed(self, line: int, choices: _Choices) -> ev.Event:
        """A penalty owed: challenged (more often when the play was a bluff), passed on by a stack, or drawn."""
        penalty = self.engine.state.penalties[0]
        if choices.challenges and self.random.random() < (0.6 if penalty.guilty else 0.2):
            return replace(choices.challenges[0], line=line)
        stack = choices.plays.get(self.names[penalty.player])
        if stack and self.random.random() < 0.6:  # a stacking house rule: pass the penalty on
            return self._play_event(line, penalty.player, stack[0])
        return self._penalty_draw(line, penalty.player)

    def _jump_in(self, line: int, seat: int, plays: dict[str, list[Card]]) -> ev.Event | None:
        """Under the house rule, sometimes someone holding the top card's twin jumps in."""
        if not self.rules.jump_in or self.random.random() >= 0.3:
            return None
        names = self.names
        state = self.engine.state
        jumpers = [
            (name, card) for name, cards in plays.items() if name not in (names[seat], names[state.next_player(seat)]) for card in cards
        ]
        if not jumpers:
            return None
        name, card = self.random.choice(jumpers)
        return self._play_event(line, names.index(name), card)

    def _turn(self, line: int, seat: int, playable: list[Card]) -> ev.Event:
        rng = self.random
        state = self.engine.state
        honest = [card for card in playable if not self._is_bluff(seat, card)]
        bluffs = [card for card in playable if self._is_bluff(seat, card)]
        if bluffs and rng.random() < 0.15:
            return self._play_event(line, seat, rng.choice(bluffs))
        if honest and rng.random() < 0.92:
            plain = [card for card in honest if not card.faces[state.side].is_wild]
            choice = rng.choice(plain if plain and rng.random() < 0.8 else honest)
            played = self._play_event(line, seat, choice)
            return self._doubled(played, seat, choice) if self.rules.doubles else played
        return self._turn_draw(line, seat)

    def _doubled(self, played: ev.Play, seat: int, card: Card) -> ev.Play:
        """Under the house rule doubles, a number card held more than once is often played with its copies."""
        state = self.engine.state
        face = card.faces[state.side]
        if face.face_class is not FaceClass.NUMBER:
            return played
        copies = [
            other.token
            for other, count in sorted(state.hands[seat].items(), key=lambda item: item[0].token)
            if other.faces[state.side] == face
            for _ in range(count)
        ]
        if len(copies) < 2 or self.random.random() < 0.4:
            return played
        copies.remove(card.token)
        return ev.Play(played.line, played.player, card.token, None, tuple(copies))

    def _is_bluff(self, seat: int, card: Card) -> bool:
        state = self.engine.state
        face_rules = self.rules.faces[card.faces[state.side]]
        if not face_rules.restricted:
            return False
        return any(c.faces[state.side].colour == state.colour for c in state.hands[seat])

    def _best_colour(self, seat: int) -> str:
        state = self.engine.state
        colours = sorted(self.rules.side_colours[state.side])
        counts = {colour: 0 for colour in colours}
        for card, count in state.hands[seat].items():
            colour = card.faces[state.side].colour
            if colour in counts:
                counts[colour] += count
        best = max(counts.values())
        return self.random.choice([colour for colour in colours if counts[colour] == best])

    def _play_event(self, line: int, seat: int, card: Card) -> ev.Play:
        state = self.engine.state
        face = card.faces[state.side]
        same_face = {c for c in state.hands[seat] if c.faces[state.side] == face}
        token = face.token if len(same_face) == 1 and self.random.random() < 0.6 else card.token
        colour = None
        face_rules = self.rules.faces[face]
        if face_rules.choose_colour:
            colour = (
                self._best_colour(seat) if self.random.random() < 0.8 else self.random.choice(sorted(self.rules.side_colours[state.side]))
            )
        self._flipped = face_rules.flip
        return ev.Play(line, self.names[seat], token, colour)

    def _turn_draw(self, line: int, seat: int) -> ev.Draw:
        if not self.hidden:
            return ev.Draw(line, self.names[seat], ())
        if self.rules.draw_until_playable:
            return self._draw_to_match(line, seat)
        card = self.hidden[-1]
        if self.own_pile:
            self.hidden.pop()
            return ev.Draw(line, self.names[seat], (card.token,))
        return ev.Draw(line, self.names[seat], (card.token,) if self.random.random() < 0.5 else ())

    def _draw_to_match(self, line: int, seat: int) -> ev.Draw:
        """Draw until playable: the cards from the top of the pile to the first playable one, sometimes on several
        lines (in full mode sometimes bare)."""
        state = self.engine.state
        if not self.own_pile and self.random.random() < 0.4:
            return ev.Draw(line, self.names[seat], ())
        taken: list[Card] = []
        for card in reversed(self.hidden):
            taken.append(card)
            if self.engine.matches(card.faces[state.side]):
                break
        if len(taken) > 1 and self.random.random() < 0.3:
            taken = taken[: self.random.randrange(1, len(taken))]
        if self.own_pile:
            del self.hidden[len(self.hidden) - len(taken) :]
        return ev.Draw(line, self.names[seat], tuple(card.token for card in taken))

    def _penalty_draw(self, line: int, seat: int) -> ev.Draw:
        state = self.engine.state
        penalty = state.penalties[0]
        if not self.own_pile and self.random.random() < 0.5:
            return ev.Draw(line, self.names[seat], ())
        taken: list[Card] = []
        count, until, extra = penalty.count, penalty.until_colour, penalty.extra
        index = len(self.hidden) - 1
        while index >= 0 and (count > 0 or until is not None or extra > 0):
            card = self.hidden[index]
            taken.append(card)
            index -= 1
            if count > 0:
                count -= 1
            elif until is not None:
                if card.faces[state.side].colour == until:
                    until = None
            else:
                extra -= 1
        if len(taken) > 1 and self.random.random() < 0.2:
            taken = taken[: self.random.randrange(1, len(taken))]
        if self.own_pile:
            del self.hidden[len(self.hidden) - len(taken) :]
        return ev.Draw(line, self.names[seat], tuple(card.token for card in taken))

    def _reshuffle(self, line: int) -> ev.Reshuffle:
        state = self.engine.state
        rest = list(state.discard_pile[:-1] if self.rules.reshuffle_keeps_top else state.discard_pile)
        self.random.shuffle(rest)
        if not self.own_pile:
            return ev.Reshuffle(line, tuple(card.token for card in rest))
        self.hidden = rest[::-1]
        return ev.Reshuffle(line, ())


def simulate_events(
    rules: Rules,
    players: int,
    seed: int,
    mode: str = "full",
    spec_line: str | None = None,
    max_rounds: int = 200,
    on_step: Callable[[Engine, ev.Event], None] | None = None,
    target: int | None = None,
) -> Iterator[ev.Event]:
    """The events of one simulated game, each already accepted by the engine."""
    return Simulator(rules, players, seed, mode, spec_line, max_rounds, on_step, target).events()


def simulate_game(
    rules: Rules,
    players: int,
    seed: int,
    mode: str = "full",
    spec_line: str | None = None,
    max_rounds: int = 200,
    target: int | None = None,
) -> str:
    """One simulated game as log text."""
    lines = [f"# simulated by referee: {players} players, seed {seed}, {mode} mode"]
    events = simulate_events(rules, players, seed, "full" if mode == "public" else mode, spec_line, max_rounds, target=target)
    if mode == "public":
        from referee.public.projection import public_record

        events = public_record(list(events), rules)
    lines.extend(format_event(event) for event in events)
    return "\n".join(lines) + "\n"
