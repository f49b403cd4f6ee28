"""The rules engine: one mutable ``GameState``, advanced one event at a time.

``Engine.apply(event)`` checks an event against the compiled rules and, when it
is legal, applies it; when it is not, it returns a ``Diagnostic`` (replay
stops there; ``referee.Game`` restores the ``snapshot`` taken before, so a
rejected move leaves no trace). The order of the checks is the one the log
format page prescribes, so that two careful implementations agree on the
code. Every fact of the game (faces, effects, points, options, rule ids) is
read from ``Rules``.

The engine is five modules, one per responsibility:

- ``referee.engine.state``: the records it changes (``GameState``, ``Penalty``, ``Dispute``);
- ``referee.engine.legality``: matching, which card a token names, whose turn it is (and ``Reject``);
- ``referee.engine.deal``: the header, each round's setup, the deal and the card turned up;
- this module: the turn (plays, draws, passes, colour choices, penalties, reshuffles, scores)
  and the dispatch, the snapshots and the helpers the others share;
- ``referee.engine.disputes``: saying UNO, catches and challenges;

with ``referee.rules.effects`` (what a face does, shared with the Z3 model) and
``referee.engine.scoring``. The helpers without a leading underscore are the ones the
other engine modules call; code outside the engine uses ``apply``,
``snapshot``/``restore``, ``matches``, ``playable``, ``resolve_in_hand`` and
``round_points``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from referee.cards import Card, Face
from referee.engine import deal, disputes, legality, scoring
from referee.engine.hidden import Batch, Fixed, Pick, Question, Refill, Same, Shown, hand_story, is_unseen, term_add
from referee.engine.legality import Reject
from referee.engine.state import (
    GAME_OVER,
    NO_ROUND,
    PLAYING,
    ROUND_OVER,
    START_AGAIN,
    STATE_FIELDS,
    Dispute,
    GameState,
    Penalty,
    Phase,
    Snapshot,
)
from referee.log import events as ev
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules
from referee.verdicts import Diagnostic, RoundResult

# What a draw line is, once its gates are passed (Engine._draw_kind).
_PENALTY, _UNTIL_PLAYABLE, _TURN = "penalty", "until-playable", "turn"

__all__ = ["GAME_OVER", "PLAYING", "ROUND_OVER", "START_AGAIN", "Dispute", "Engine", "GameState", "Penalty", "Phase", "Reject", "Snapshot"]


_NAMED: dict[type, tuple[str, ...]] = {
    kind: ("player", "target") if kind in (ev.Catch, ev.Challenge, ev.Swap) else ("player",)
    for kind in (
        ev.Dealer,
        ev.Hand,
        ev.Play,
        ev.Draw,
        ev.DrawCount,
        ev.Shows,
        ev.Pass,
        ev.Choose,
        ev.Call,
        ev.Catch,
        ev.Challenge,
        ev.Swap,
        ev.Score,
    )
}
"""The fields of each kind of line that name a player."""


class Engine:
    """Checks and applies events; collects warnings, round results and disputes."""

    def __init__(self, rules: Rules, record_disputes: bool = True) -> None:
        self.rules = rules
        self.record_disputes = record_disputes
        self._deck_cards: dict[str, Card] = {}
        self._same_colour = rules.spec.matching.same_colour
        self.state = GameState(deck=rules.deck, deck_counts=Counter(rules.deck), target=rules.target)
        self.warnings: list[Diagnostic] = []
        self.rounds: list[RoundResult] = []
        self.disputes: list[Dispute] = []
        # A public round's replay tries each way a hidden card can go (referee.public.rounds): ``decide`` takes the
        # next choice of ``script`` (0 once it runs out) and records how many there were in ``arities``.
        self.script: list[int] = []
        self.arities: list[int] = []
        self._ids = 0
        self._same_as: int | None = None
        self.line = 0
        self._handlers = {
            ev.Players: lambda event: deal.players(self, event),
            ev.SpecName: lambda event: deal.spec_name(self, event),
            ev.Deck: lambda event: deal.deck(self, event),
            ev.Target: lambda event: deal.target(self, event),
            ev.Round: lambda event: deal.round_(self, event),
            ev.Dealer: lambda event: deal.dealer(self, event),
            ev.Shuffle: lambda event: deal.shuffle(self, event),
            ev.Hand: lambda event: deal.hand(self, event),
            ev.Public: lambda event: deal.public(self, event),
            ev.DrawCount: self._draw_count,
            ev.Shows: self._shows,
            ev.Start: lambda event: deal.start(self, event),
            ev.Play: self._play,
            ev.Draw: self._draw,
            ev.Pass: self._pass,
            ev.Choose: self._choose,
            ev.Call: lambda event: disputes.call(self, event),
            ev.Catch: lambda event: disputes.catch(self, event),
            ev.Challenge: lambda event: disputes.challenge(self, event),
            ev.Swap: self._swap,
            ev.Reshuffle: self._reshuffle,
            ev.Score: self._score,
        }

    # -- the public face

    def apply(self, event: ev.Event) -> Diagnostic | None:
        """Check ``event`` and apply it; a ``Diagnostic`` when it breaks a rule."""
        state = self.state
        self.line = event.line
        try:
            if state.phase is GAME_OVER or state.phase is START_AGAIN or state.swap_by is not None:
                self._names_known(event)  # names first, on every line: before what these states allow
            if state.phase is GAME_OVER and type(event) is not ev.Score:
                raise Reject(
                    "after-game-end",
                    "game-over",
                    f"the game ended ({self._winner_text()} won); nothing may follow but score claims",
                )
            if state.phase is START_AGAIN and type(event) is not ev.Start:
                raise Reject(
                    "bad-setup",
                    "start-again",
                    "the card turned up went back into the draw pile: another 'start' line must follow",
                )
            if state.swap_by is not None:
                self._swap_due(event)
            self._handlers[type(event)](event)
        except Reject as reject:
            rule = self.rules.check_rules[reject.check]
            return Diagnostic(event.line, reject.code, reject.message, rule.id, reject.allowed, reject.reasons)
        return None

    def snapshot(self) -> Snapshot:
        """The engine as it is now, for ``restore``: the undo of ``referee.Game.pop`` and of a rejected move, and
        every "what if" (``explain``, ``adjudicate``): apply, look, restore."""
        return Snapshot(self.state.copy(), len(self.warnings), tuple(self.rounds), len(self.disputes))

    def restore(self, snapshot: Snapshot) -> None:
        """Put the engine back as it was at ``snapshot`` (which stays usable: restoring copies it again). The state
        object stays the same one, so whoever holds ``engine.state`` sees it restored."""
        saved = snapshot.state.copy()
        state = self.state
        for name in STATE_FIELDS:
            setattr(state, name, getattr(saved, name))
        del self.warnings[snapshot.warnings :]
        self.rounds[:] = snapshot.rounds
        del self.disputes[snapshot.disputes :]

    # -- helpers

    def decide(self, options: int) -> int:
        """Which of ``options`` ways a hidden card went (a public round): the driver tries each in turn."""
        index = len(self.arities)
        self.arities.append(options)
        return self.script[index] if index < len(self.script) else 0

    def new_id(self) -> int:
        """A fresh id for an unknown or a fact (unique across every branch of a replay)."""
        self._ids += 1
        return self._ids

    def hidden_draw(self, seat: int | None, size: int, types: tuple[int, ...] | None, line: int, check: str, what: str) -> int:
        """``size`` cards leave the draw pile unseen (a public round), to ``seat``'s hand (None: onto no hand)."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        batch = self.new_id()
        hidden.add(Batch(batch, line, check, size, types, hidden.pile, seat, what))
        hidden.pile = batch
        state.observed_size -= size
        if seat is not None:
            term_add(hidden.hands[seat], batch, 1)
            state.hand_sizes[seat] += size
        return batch

    def _names_known(self, event: ev.Event) -> None:
        """Every player a line names is one (unknown-player), whatever else is wrong with the line."""
        for attribute in _NAMED.get(type(event), ()):
            self.seat_of(getattr(event, attribute))

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name`` (unknown-player when nobody is)."""
        seat = self.state.seat.get(name)
        if seat is None:
            known = " ".join(self.state.players)
            raise Reject("unknown-player", "known-player", f"'{name}' is not a player (players: {known})")
        return seat

    def card(self, token: str) -> Card:
        """The physical card ``token`` names in this deck (unknown-card when none), memoised per token."""
        known = self._deck_cards.get(token)
        if known is not None:
            return known
        card = self.rules.catalogue.card(token)
        if card is None:
            raise Reject("unknown-card", "known-card", f"'{token}' is not a card of the deck: {legality.why_unknown(self.rules, token)}")
        if card not in self.state.deck_counts:
            pairs = legality.pairing(self.rules, self.state.deck_counts, token)
            raise Reject("unknown-card", "known-card", f"'{token}' is not a physical card of this deck{pairs}")
        if len(self._deck_cards) < 10_000:
            self._deck_cards[token] = card
        return card

    def cards(self, tokens: tuple[str, ...]) -> list[Card]:
        """``card`` of each token, in order."""
        return [self.card(token) for token in tokens]

    def _winner_text(self) -> str:
        winner = self.state.game_winner
        return " and ".join(winner) if isinstance(winner, list) else str(winner)

    def warn(self, line: int, code: str, check: str, message: str) -> None:
        """Record a warning at ``line``, citing the rule of ``check``."""
        self.warnings.append(Diagnostic(line, code, message, self.rules.check_rules[check].id))

    def name_of(self, seat: int) -> str:
        """The name of the player at ``seat``."""
        return self.state.players[seat]

    def _colour_text(self) -> str:
        state = self.state
        top = state.top_face()
        if state.colour is None:
            return f"{top} (colour still to be chosen)"
        if top is not None and top.colour == state.colour:
            return str(top)
        return f"{top} (colour in play {state.colour})"

    def matches(self, face: Face) -> bool:
        """Whether ``face`` may be played on the top card (rule play.match; ``referee.engine.legality.matches``)."""
        return legality.matches(self.state, self.rules, face)

    def playable(self, seat: int) -> list[Card]:
        """The distinct cards in a hand that match the top card now."""
        state = self.state
        side = state.side
        return [card for card in state.hands[seat] if legality.matches(state, self.rules, card.faces[side])]

    def resolve_in_hand(self, seat: int, token: str) -> Card:
        """The physical card a ``plays`` token names in ``seat``'s hand; ``Reject`` (card-not-in-hand, ambiguous-card,
        unknown-card) when it names none, or more than one (``referee.engine.legality.resolve_in_hand``)."""
        return legality.resolve_in_hand(self, seat, token)

    def forget_cards(self) -> None:
        """Drop the token-to-card memo (a ``deck`` line changed which physical cards exist)."""
        self._deck_cards = {}

    def can_reshuffle(self) -> bool:
        """Whether the discard pile holds cards under its top one: then an empty draw pile is refilled before a draw."""
        return len(self.state.discard_pile) > 1

    def close_window(self) -> None:
        """The next move ends an UNO window: a player who did not say UNO and was not caught gets a warning."""
        state = self.state
        if state.uno_player is None:
            return
        if not state.uno_called and not state.uno_caught:
            self.warn(state.uno_line, "uncaught-uno", "uncaught", f"{self.name_of(state.uno_player)} did not say UNO")
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False

    def remove_from_hand(self, seat: int, card: Card) -> None:
        """Take one copy of ``card`` out of ``seat``'s hand (the caller knows it is there)."""
        state = self.state
        hand = state.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1
        state.hand_sizes[seat] -= 1

    def take(self, seat: int, named: Card | None) -> Card:
        """Move one card from the draw pile to a hand (wrong-draw when it is not there)."""
        state = self.state
        if state.full_mode:
            if not state.draw_pile:
                raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
            top = state.draw_pile[-1]
            if named is not None and named != top:
                raise Reject("wrong-draw", "draw-source", f"{named} is not the top of the draw pile ({top} is)", (top.token,))
            state.draw_pile.pop()
            card = top
        else:
            if named is None:
                raise Reject("wrong-draw", "draw-source", "in observed mode a draw names its cards")
            left = state.draw_counts.get(named, 0)
            if left <= 0:
                raise Reject("wrong-draw", "draw-source", f"{named} is not in the draw pile")
            if left == 1:
                del state.draw_counts[named]
            else:
                state.draw_counts[named] = left - 1
            state.observed_size -= 1
            card = named
        hand = state.hands[seat]
        hand[card] = hand.get(card, 0) + 1
        state.hand_sizes[seat] += 1
        return card

    # -- playing

    def _play(self, event: ev.Play) -> None:
        """A play, through the checks in their order: the card is known, the round is on, a penalty owed is stacked
        on or drawn first, no colour or draw is pending, it is the player's turn (or a jump-in), the card is held
        (after a draw: the card drawn), it matches, and a wild names a colour of the side."""
        state = self.state
        seat = state.seat.get(event.player)
        if seat is None:
            seat = self.seat_of(event.player)
        token = event.card
        if "/" in token:
            self.card(token)
        elif not self.rules.catalogue.is_face(token):
            raise Reject("unknown-card", "known-card", legality.not_a_face(self.rules, token))
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        stacked = self._owed_gate(seat, token, event.player) if state.penalties else None
        if state.choose_by is not None:
            legality.must_not_choose(state, seat, play=True)
        if state.drawing:
            self._draw_unfinished()
        jumped = False
        if stacked is None and state.turn != seat:
            jumped = self._out_of_turn(seat, token)
        card = self.resolve_in_hand(seat, token)
        self._drawn_gate(card, event.player)
        face = card.faces[state.side]
        same_colour = self._same_colour and face.colour is not None and face.colour == state.colour
        if not same_colour and not self.matches(face):
            playable = self.playable(seat)
            shown = ", ".join(sorted(c.faces[state.side].token for c in playable)) or "none (draw a card)"
            raise Reject("illegal-play", "match", f"{event.player} played {face} on {self._colour_text()}; playable: {shown}")
        face_rules = self.rules.faces[face]
        self._colour_gate(face, face_rules, event.colour)
        if state.uno_player is not None:
            self.close_window()
        if jumped:
            state.turn = seat
        self._apply_play(seat, card, face_rules, event.colour, event.line, stacked)

    def _owed_gate(self, seat: int, token: str, player: str) -> Penalty | None:
        """A penalty is owed: its player may stack on it (the penalty passed on is returned), or must draw it first;
        anyone else waits for it to be drawn."""
        state = self.state
        penalty = state.penalties[0]
        if penalty.player != seat:
            raise Reject("bad-penalty", "penalty", f"{self.name_of(penalty.player)} still owes {penalty.describe()}")
        stacked = legality.stacking(self, seat, token, penalty)
        if stacked is not None:
            return stacked
        table = self.rules.stacking or {}
        kinds = sorted(table.get(penalty.stack_kind or "", ())) if not penalty.started and not penalty.ruled else []
        owes = f"{player} owes {penalty.describe()}"
        if kinds and 0 not in state.hand_sizes:
            message = f"{owes}: draw them, or stack a {' or a '.join(kinds)} on them"
        else:
            message = f"{owes} and must draw before playing"
        raise Reject("illegal-play", "penalty-owed", message, ("draws",))

    def _out_of_turn(self, seat: int, token: str) -> bool:
        """A play out of turn: a jump-in under the house rule (play goes on from the jumper, and the turn player's
        draw is over), else not this player's turn."""
        state = self.state
        if self.rules.jump_in and legality.jumps_in(self, seat, token):
            state.drew = False
            state.drawn_card = None
            return True
        legality.turn_gate(state, seat)
        return False

    def _drawn_gate(self, card: Card, player: str) -> None:
        """After a draw only the card drawn may be played (in a public round that is a fact to record, not a check)."""
        state = self.state
        hidden = state.hidden
        self._same_as = None
        if hidden is not None and state.drew and hidden.drawn is not None:
            self._same_as = hidden.drawn  # the card played is the one drawn: a fact, not a check
        elif state.drew and card != state.drawn_card:
            drawn = state.drawn_card
            raise Reject(
                "illegal-play",
                "drawn-card-only",
                f"after drawing, {player} may play only the card drawn ({drawn if drawn else 'none was drawn'})",
                (drawn.token,) if drawn else (),
            )

    def _colour_gate(self, face: Face, face_rules: FaceRules, colour: str | None) -> None:
        """A wild names one of its side's colours; any other card names none."""
        state = self.state
        colours = self.rules.side_colours[state.side]
        if face_rules.choose_colour:
            if colour is None:
                raise Reject("bad-colour", "wild-colour", f"{face} needs a colour: one of {', '.join(sorted(colours))}")
            if colour not in colours:
                side_name = self.rules.spec.side_names[state.side]
                raise Reject("bad-colour", "wild-colour", f"{colour} is not a colour of the {side_name} side")
        elif colour is not None:
            raise Reject("bad-colour", "wild-colour", f"{face} is not a wild and takes no colour")

    def _apply_play(self, seat: int, card: Card, face_rules: FaceRules, colour: str | None, line: int, stacked: Penalty | None) -> None:
        state = self.state
        hidden = state.hidden
        if hidden is not None:
            self._hidden_play(seat, card, line)
        else:
            self.remove_from_hand(seat, card)
        hand = state.hands[seat]
        state.discard_pile.append(card)
        state.top_by = seat
        state.drew = False
        state.drawn_card = None
        colour_before = state.colour
        held = False
        evidence: tuple[Card, ...] = ()
        asked = -1
        if face_rules.restricted and hidden is not None:
            asked = self._ask(seat, line, colour_before)
        elif face_rules.restricted:
            side = state.side
            evidence = tuple(sorted((c for c in hand if c.faces[side].colour == colour_before), key=lambda c: c.token))
            held = bool(evidence)
        if state.hand_sizes[seat] == 1:
            self._open_window(seat, line)
        state.colour = colour if face_rules.choose_colour else face_rules.face.colour
        extra = 0
        if stacked is not None:
            state.penalties.pop(0)
            extra = stacked.count
            if stacked.bluff:  # a bluff stacked on can no longer be challenged: warned at its own line
                self._warn_bluff(stacked)
        if face_rules.plain and extra == 0:  # effects.play for a face without effects, inlined: the hot path
            state.turn = (seat + state.direction) % len(state.players)
        else:
            self.apply_effects(seat, face_rules, extra, held=held, line=line, colour_before=colour_before, evidence=evidence)
        if asked >= 0:
            for penalty in state.penalties:
                if penalty.line == line and penalty.played_by == seat:
                    penalty.asked = asked
        if held and not (face_rules.challengeable and face_rules.gives_penalty):
            # a restricted face nobody can challenge: the bluff stands at once (rule of the 'bluff' check)
            self.warn(
                line,
                "unchallenged-bluff",
                "bluff",
                f"{self.name_of(seat)} played {face_rules.face} while holding {colour_before}, and it cannot be challenged",
            )
        if state.hand_sizes[seat] == 0 and not state.penalties:
            self.finish_round(seat)
        elif state.hand_sizes[seat] and face_rules.face.number is not None:
            self._seven_or_zero(seat, face_rules.face.number)
        if state.penalties:
            self.settle()

    def _open_window(self, seat: int, line: int) -> None:
        """A play to one card opens the UNO window: until the next player acts, the player may say UNO or be caught."""
        state = self.state
        state.uno_player = seat
        state.uno_line = line
        state.uno_called = False
        state.uno_caught = False

    def _seven_or_zero(self, seat: int, number: int) -> None:
        """The house rules on a 7 (the player names whom to swap hands with) and a 0 (every hand passes on)."""
        if number == 7 and self.rules.seven_swaps:
            self.state.swap_by = seat  # the next line names whom P swaps with (house rule seven swaps)
        elif number == 0 and self.rules.zero_rotates:
            self.rotate_hands()

    def _hidden_play(self, seat: int, card: Card, line: int) -> None:
        """A play from a hidden hand: one card showing the face leaves it (a pick), and goes on the discard pile."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        face = card.faces[state.side]
        pick = self.new_id()
        name = self.name_of(seat)
        hidden.add(Pick(pick, line, "in-hand", hidden.hand_terms(seat), hidden.deck.showing(face, state.side), f"{name} plays {face}"))
        if self._same_as is not None:
            hidden.add(Same(self.new_id(), line, "drawn-card-only", pick, self._same_as, f"{name} plays the card just drawn"))
            self._same_as = None
        term_add(hidden.hands[seat], pick, -1)
        state.hand_sizes[seat] -= 1
        hidden.discard.append(pick)

    def _ask(self, seat: int, line: int, colour: str | None) -> int:
        """A wild draw card from a hidden hand: record the question whether its player held the colour in play."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        side = state.side
        types = hidden.deck.where(side, lambda face: colour is not None and face.colour == colour)
        question = Question(line, self.name_of(seat), colour or "", hidden.hand_terms(seat), types)
        hidden.questions = (*hidden.questions, question)
        return len(hidden.questions) - 1

    def rotate_hands(self) -> None:
        """Zero rotates: every hand passes to the next player in the direction of play, and every UNO window closes
        (a player handed one card owes no call for it)."""
        state = self.state
        hands, sizes = list(state.hands), list(state.hand_sizes)
        for seat in range(state.player_count):
            source = effects.rotation_source(seat, state.direction, state.player_count)
            state.hands[seat] = hands[source]
            state.hand_sizes[seat] = sizes[source]
        if state.hidden is not None:
            terms = list(state.hidden.hands)
            for seat in range(state.player_count):
                state.hidden.hands[seat] = terms[effects.rotation_source(seat, state.direction, state.player_count)]
        self.close_window()

    def _swap_due(self, event: ev.Event) -> None:
        """After a 7 with cards left, only its player's valid UNO call or a valid ``P swaps Q`` may come (swap-missing)."""
        state = self.state
        swapper = state.swap_by
        assert swapper is not None
        name = self.name_of(swapper)
        if isinstance(event, ev.Swap) and event.player == name and event.target != name and event.target in state.seat:
            return
        if isinstance(event, ev.Call) and event.player == name and state.uno_player == swapper and state.hand_sizes[swapper] == 1:
            return
        others = tuple(f"{name} swaps {other}" for other in state.players if other != name)
        raise Reject("swap-missing", "swap", f"{name} played a 7 and must first swap hands with another player ('{name} swaps Q')", others)

    def _swap(self, event: ev.Swap) -> None:
        state = self.state
        self.seat_of(event.player)  # names first, as for every line
        self.seat_of(event.target)
        swapper = state.swap_by
        if swapper is None or not self.rules.seven_swaps:
            if not self.rules.seven_swaps:
                why = "a swap comes only after a 7, under the house rule seven swaps"
            elif state.phase is not PLAYING:
                why = f"round {state.round_number} is over" if state.phase is not NO_ROUND else "no round is in play"
            else:
                why = "no 7 with cards left was just played"
            raise Reject("out-of-turn", "turn", f"{event.player} may not swap hands now: {why}")
        other = self.seat_of(event.target)
        self.close_window()  # the 7's player's UNO window closes at the swap
        hands, sizes = list(state.hands), list(state.hand_sizes)
        terms = list(state.hidden.hands) if state.hidden is not None else []
        for seat in (swapper, other):
            source = effects.swap_source(seat, swapper, other, effects.python_choice)
            state.hands[seat] = hands[source]
            state.hand_sizes[seat] = sizes[source]
            if state.hidden is not None:
                state.hidden.hands[seat] = terms[source]
        state.swap_by = None

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
    ) -> None:
        """What a played face does to the turn, the direction, the piles and the next player."""
        state = self.state
        rules = self.rules
        effect = effects.play(face_rules, seat, state.direction, state.player_count, rules.two_player_reverse_skips)
        state.direction = effect.direction
        following = effect.following
        if face_rules.flip:
            self.flip(face_rules)
            top = state.top_face()
            assert top is not None
            uncovered_wild = top.is_wild
            flipped = effects.after_flip(top.colour, uncovered_wild, state.hand_sizes[seat], rules.flip_chooser != "nobody", effects.every)
            state.colour = flipped.colour
            if flipped.names:
                state.choose_by = seat if rules.flip_colour_by_player else following
        if effect.victim is not None:
            victim = effect.victim
            challengeable = face_rules.challengeable and not start
            stacking = rules.stacking
            state.penalties.append(
                Penalty(
                    player=victim,
                    count=effects.stacked_total(face_rules.draw, stacked),
                    until_colour=state.colour if face_rules.draw_until_colour else None,
                    loses_turn=True,
                    next_turn=state.next_player(victim),
                    line=line,
                    played_by=None if start else seat,
                    challengeable=challengeable,
                    wild_draw=challengeable,
                    guilty=held,
                    bluff=held and challengeable,
                    stack_kind=face_rules.face.kind if stacking and face_rules.face.kind in stacking else None,
                    into_discard=face_rules.penalty_into_discard,
                    colour_before=colour_before,
                    evidence=evidence,
                )
            )
        if not start or effect.moves_turn:
            state.turn = following

    def flip(self, face_rules: FaceRules) -> None:
        """Turn the discard pile, then the draw pile, then every hand (ruling 16)."""
        state = self.state
        state.side = (state.side + 1) % self.rules.spec.sides
        effects.turn_over(state.discard_pile, face_rules.flip_discard_pile)
        if state.full_mode:
            effects.turn_over(state.draw_pile, face_rules.flip_draw_pile)
        hidden = state.hidden
        if hidden is not None:
            effects.turn_over(hidden.discard, face_rules.flip_discard_pile)
            top = state.discard_pile[-1]
            if is_unseen(top.faces[state.side]):
                self._uncover(top)

    def _uncover(self, top: Card) -> None:
        """A Flip uncovers the other face of a card played from a hidden hand: each face it can have is one branch of
        the replay (the record's next lines rule out the others)."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        pick = hidden.discard[-1]
        assert pick is not None
        played = next(face for face in top.faces if not is_unseen(face))
        types = hidden.deck.showing(played, played.side)
        chosen = types[self.decide(len(types))]
        card = hidden.deck.types[chosen]
        hidden.add(Fixed(self.new_id(), self.line, "match", pick, chosen, f"the card uncovered is {card}"))
        state.discard_pile[-1] = card

    def settle(self) -> None:
        """Drop penalties that can no longer be drawn (ruling 17), then end the round if it is over."""
        state = self.state
        while state.penalties and state.draw_pile_size() == 0 and len(state.discard_pile) <= 1:
            penalty = state.penalties.pop(0)
            self._penalty_ends(penalty)

    def _penalty_ends(self, penalty: Penalty) -> None:
        state = self.state
        if penalty.bluff:
            self._warn_bluff(penalty)
        if penalty.next_turn is not None:
            state.turn = penalty.next_turn
            state.drew = False
            state.drawn_card = None
        if not state.penalties and state.phase is PLAYING:
            for seat, size in enumerate(state.hand_sizes):
                if size == 0:
                    self.finish_round(seat)
                    break

    def _warn_bluff(self, penalty: Penalty) -> None:
        penalty.bluff = False
        assert penalty.played_by is not None
        self.warn(
            penalty.line,
            "unchallenged-bluff",
            "bluff",
            f"{self.name_of(penalty.played_by)} played a wild draw card while holding {penalty.colour_before}, and was not challenged",
        )

    def _pay(self, seat: int, named: Card | None) -> None:
        """Draw one card of the penalty at the front of the queue."""
        state = self.state
        penalty = state.penalties[0]
        if penalty.bluff:
            self._warn_bluff(penalty)
        penalty.started = True
        penalty.challengeable = False
        card = self.take(seat, named)
        if penalty.into_discard:
            self.remove_from_hand(seat, card)
            state.discard_pile.insert(len(state.discard_pile) - 1, card)
        if penalty.count > 0:
            penalty.count -= 1
        elif penalty.until_colour is not None:
            if card.faces[state.side].colour == penalty.until_colour:
                penalty.until_colour = None
        else:
            penalty.extra -= 1
        if not penalty.owed:
            state.penalties.pop(0)
            self._penalty_ends(penalty)
        self.settle()

    # -- drawing and passing

    def _draw(self, event: ev.Draw) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        cards = self.cards(event.cards)
        kind = self._draw_kind(seat, event.player, len(cards))
        if kind == _PENALTY:
            self._penalty_draw(seat, cards)
        elif kind == _UNTIL_PLAYABLE:
            self._draw_until_playable(seat, cards)
        elif not self._nothing_to_draw(cards):
            if not state.full_mode and not cards:
                raise Reject("wrong-draw", "draw-source", self._unnamed())
            self.close_window()
            state.drawn_card = self.take(seat, cards[0] if cards else None)
            state.drew = True

    def _draw_kind(self, seat: int, name: str, count: int) -> str:
        """The gates every draw line passes, named cards or a count (a round in play; a penalty is its owner's; no
        colour to choose; the turn; one card a turn): which draw it is, a penalty's, a draw until playable or a turn's
        draw of one card."""
        state = self.state
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        if state.penalties:
            self._owes(seat)
            self.close_window()
            return _PENALTY
        legality.must_not_choose(state, seat)
        if self.rules.draw_until_playable:
            if state.drawing and seat != state.turn:
                self._draw_unfinished()
            legality.turn_gate(state, seat)
            return _UNTIL_PLAYABLE
        legality.turn_gate(state, seat)
        if state.drew:
            raise Reject("wrong-draw", "turn-draw", f"{name} already drew this turn: play the card drawn or pass")
        if count > 1:
            raise Reject("wrong-draw", "turn-draw", f"a turn draw is one card, not {count}")
        return _TURN

    def _owes(self, seat: int) -> None:
        """A draw while a penalty is owed is that penalty's, by the player who owes it (bad-penalty)."""
        penalty = self.state.penalties[0]
        if penalty.player != seat:
            owner = self.name_of(penalty.player)
            raise Reject("bad-penalty", "penalty", f"{owner} owes {penalty.describe()}, not {self.name_of(seat)}", (owner,))

    def _unnamed(self) -> str:
        """Why a bare ``P draws`` is not enough here (cards remain to be drawn)."""
        if self.state.hidden is not None:
            return "cards remain to be drawn: a public round's draw gives its count ('P draws N')"
        return "in observed mode a draw names its cards"

    def _draw_count(self, event: ev.DrawCount) -> None:
        """``P draws N`` in a public round: the same gates as a draw of named cards; the cards are unknowns."""
        state = self.state
        seat = self.seat_of(event.player)
        hidden = state.hidden
        if hidden is None:
            if state.phase is not PLAYING:
                legality.not_in_play(state)
            raise Reject("wrong-draw", "draw-source", "only a public round's draw is a count: name the cards drawn")
        kind = self._draw_kind(seat, event.player, event.count)
        if kind == _PENALTY:
            if hidden.ruling is not None:  # this draw shows the challenge's ruling
                hidden.add(dataclasses.replace(hidden.ruling, line=event.line))
                hidden.ruling = None
            self._hidden_penalty_draw(seat, event.count, event.line)
        elif kind == _UNTIL_PLAYABLE:
            self._hidden_draw_until_playable(seat, event.count, event.line)
        else:
            self._pile_has(1)
            self.close_window()
            hidden.drawn = self.hidden_draw(seat, 1, None, event.line, "draw-source", f"{event.player} draws 1")
            state.drew = True
            state.drawn_card = None

    def _pile_has(self, count: int) -> None:
        """A hidden draw of ``count`` cards needs them in the draw pile (a reshuffle first, or nothing left to draw)."""
        if self.state.draw_pile_size() >= count:
            return
        if self.can_reshuffle() or self.state.draw_pile_size():
            raise Reject(
                "wrong-draw", "draw-source", f"the draw pile holds {self.state.draw_pile_size()} cards: a 'reshuffle' must come first"
            )
        raise Reject("wrong-draw", "empty-draw", "nothing is left to draw: the draw is written without cards")

    def _split_draw(self, seat: int, count: int, ending: tuple[int, ...], line: int, check: str, what: str) -> bool:
        """``count`` hidden cards drawn until one of the types ``ending``: either the last of them is the first such
        card (True), or none is (False); the replay tries both."""
        others = tuple(k for k in range(len(self.state.hidden.deck.types)) if k not in set(ending))  # type: ignore[union-attr]
        if self._last_cards(count):  # nothing is left after these: the draw ends either way, the last card is any
            if count > 1:
                self.hidden_draw(seat, count - 1, others, line, check, f"{what}: the cards before the last")
            self.hidden_draw(seat, 1, None, line, check, f"{what}: the last card there was")
            return True
        ends = self.decide(2) == 0
        if ends:
            if count > 1:
                self.hidden_draw(seat, count - 1, others, line, check, f"{what}: the cards before the last")
            self.hidden_draw(seat, 1, ending, line, check, f"{what}: the last card")
        else:
            self.hidden_draw(seat, count, others, line, check, f"{what}: none ends the draw")
        return ends

    def _last_cards(self, count: int) -> bool:
        """Whether drawing ``count`` cards takes the last ones there are (the draw pile, and nothing to reshuffle)."""
        return self.state.draw_pile_size() == count and not self.can_reshuffle()

    def _hidden_penalty_draw(self, seat: int, count: int, line: int) -> None:
        """Draw ``count`` hidden cards of the penalties ``seat`` owes (ruling 17 and the penalty's kind)."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        name = self.name_of(seat)
        while count > 0:
            if not state.penalties or state.penalties[0].player != seat:
                raise Reject("bad-penalty", "penalty", f"{name} drew more cards than the penalty ({count} too many)")
            penalty = state.penalties[0]
            self._pile_has(1)
            room = state.draw_pile_size()
            penalty.started = True
            penalty.challengeable = False
            if penalty.into_discard:
                raise Reject("wrong-draw", "draw-source", "a penalty drawn into the discard pile is not judged in a public round")
            if penalty.count > 0:
                taken = min(count, penalty.count, room)
                self.hidden_draw(seat, taken, None, line, "penalty", f"{name} draws {taken} of a penalty")
                penalty.count -= taken
            elif penalty.until_colour is not None:
                taken = min(count, room)
                colour = penalty.until_colour
                ending = hidden.deck.where(state.side, lambda face, colour=colour: face.colour == colour)
                others = tuple(k for k in range(len(hidden.deck.types)) if k not in set(ending))
                # where the first card of the colour is among the line's cards (the rest are the extra cards), or nowhere
                places = [place for place in range(taken, 0, -1) if taken - place <= penalty.extra]
                what = f"{name} draws until a {colour} card"
                if not penalty.extra and self._last_cards(taken):  # the penalty ends either way: the last card is any
                    if taken > 1:
                        self.hidden_draw(seat, taken - 1, others, line, "penalty", f"{what}: the cards before the last")
                    self.hidden_draw(seat, 1, None, line, "penalty", f"{what}: the last card there was")
                    penalty.until_colour = None
                    count -= taken
                    if not penalty.owed:
                        state.penalties.pop(0)
                        self._penalty_ends(penalty)
                    self.settle()
                    continue
                choice = self.decide(len(places) + 1)
                if choice < len(places):
                    taken = places[choice]
                    if taken > 1:
                        self.hidden_draw(seat, taken - 1, others, line, "penalty", f"{what}: the cards before it")
                    self.hidden_draw(seat, 1, ending, line, "penalty", f"{what}: the {colour} card")
                    penalty.until_colour = None
                else:
                    self.hidden_draw(seat, taken, others, line, "penalty", f"{what}: none of the colour")
            else:
                taken = min(count, penalty.extra, room)
                self.hidden_draw(seat, taken, None, line, "penalty", f"{name} draws {taken} more")
                penalty.extra -= taken
            count -= taken
            if not penalty.owed:
                state.penalties.pop(0)
                self._penalty_ends(penalty)
            self.settle()

    def _hidden_draw_until_playable(self, seat: int, count: int, line: int) -> None:
        """Draw until playable with hidden cards: the line's last card is the first playable one, or none is."""
        state = self.state
        hidden = state.hidden
        assert hidden is not None
        name = self.name_of(seat)
        if state.drew and not state.drawing:
            if hidden.drawn is not None:
                raise Reject("draw-too-many", "draw-until-playable", f"{name} already drew a playable card: play it or pass")
            raise Reject("wrong-draw", "turn-draw", f"{name} already drew this turn and nothing is left to draw: pass")
        self._pile_has(count)
        self.close_window()
        playable = hidden.deck.where(state.side, self.matches)
        ends = self._split_draw(seat, count, playable, line, "draw-until-playable", f"{name} draws until playable")
        state.drew = True
        state.drawn_card = None
        hidden.drawn = hidden.pile if ends else None
        state.drawing = not ends and self.cards_remain()

    def _nothing_to_draw(self, cards: list[Card]) -> bool:
        """A turn draw on an empty draw pile: a reshuffle must come first, or, when nothing is left (ruling 17), the draw
        is written without cards and ends the draw at once (True)."""
        state = self.state
        if state.draw_pile_size():
            return False
        if self.can_reshuffle():
            raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
        if cards:
            raise Reject("wrong-draw", "empty-draw", "nothing is left to draw: the draw is written without cards")
        self.close_window()
        state.drew = True
        state.drawn_card = None
        state.drawing = False
        return True

    def cards_remain(self) -> bool:
        """Whether a card can still be drawn: the draw pile holds one, or the discard pile can refill it (ruling 17)."""
        return self.state.draw_pile_size() > 0 or self.can_reshuffle()

    def _draw_unfinished(self) -> None:
        """Draw until playable: nothing but the drawer's next card (or a reshuffle) while the draw goes on."""
        state = self.state
        name = self.name_of(state.turn)
        raise Reject(
            "draw-too-few",
            "draw-until-playable",
            f"{name} has drawn no playable card yet and cards remain: {name} draws on",
            (f"{name} draws",),
        )

    def _draw_until_playable(self, seat: int, cards: list[Card]) -> None:
        """The turn's draw under draw until playable: card by card, up to the first playable one or until nothing is
        left (a line may hold part of the draw; in full mode a bare ``draws`` draws it all, or to the pile's end)."""
        state = self.state
        name = self.name_of(seat)
        if state.drew and not state.drawing:
            drawn = state.drawn_card
            if drawn is not None and self.matches(drawn.faces[state.side]):
                raise Reject("draw-too-many", "draw-until-playable", f"{name} already drew a playable card ({drawn}): play it or pass")
            raise Reject("wrong-draw", "turn-draw", f"{name} already drew this turn and nothing is left to draw: pass")
        if self._nothing_to_draw(cards):
            return
        if not state.full_mode and not cards:
            raise Reject("wrong-draw", "draw-source", self._unnamed())
        self.close_window()
        queue: list[Card | None] = list(cards) if cards else []
        while True:
            if state.drew and not state.drawing:
                if queue:
                    raise Reject(
                        "draw-too-many",
                        "draw-until-playable",
                        f"{name} drew {state.drawn_card}, a playable card: {queue[0]} is one too many",
                    )
                return
            if not queue:
                if cards or not state.draw_pile:
                    return  # what the line names is drawn; the draw goes on on a later line (after a reshuffle)
                queue.append(None)  # full mode, a bare draw: the next card of the pile
            if state.draw_pile_size() == 0:
                if self.can_reshuffle():
                    raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
                raise Reject("wrong-draw", "empty-draw", f"nothing is left to draw: {queue[0]} cannot be drawn")
            card = self.take(seat, queue.pop(0))
            state.drew = True
            state.drawn_card = card
            state.drawing = not self.matches(card.faces[state.side]) and self.cards_remain()

    def _penalty_draw(self, seat: int, cards: list[Card]) -> None:
        state = self.state
        if not cards:
            if not state.full_mode:
                raise Reject("wrong-draw", "draw-source", self._unnamed())
            if state.draw_pile_size() == 0:
                raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
            while state.penalties and state.penalties[0].player == seat and state.draw_pile:
                self._pay(seat, None)
            return
        for card in cards:
            if not state.penalties or state.penalties[0].player != seat:
                raise Reject("bad-penalty", "penalty", f"{self.name_of(seat)} drew more cards than the penalty ({card} is one too many)")
            self._pay(seat, card)

    def _pass(self, event: ev.Pass) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        if state.penalties:
            penalty = state.penalties[0]
            raise Reject("bad-penalty", "penalty", f"{self.name_of(penalty.player)} owes {penalty.describe()}: no passing")
        if state.drawing:
            self._draw_unfinished()
        legality.must_not_choose(state, seat)
        legality.turn_gate(state, seat)
        if not state.drew:
            raise Reject("out-of-turn", "pass", f"{event.player} may pass only right after their turn's draw", ("draws",))
        self.close_window()
        state.turn = state.next_player(seat)
        state.drew = False
        state.drawn_card = None

    def _choose(self, event: ev.Choose) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        if state.phase is not PLAYING or state.choose_by is None:
            raise Reject("bad-colour", "choose", "no colour is to be chosen now")
        legality.no_catch_owed(state)
        if seat != state.choose_by:
            raise Reject(
                "out-of-turn",
                "turn",
                f"{self.name_of(state.choose_by)} chooses the colour, not {event.player}",
                (self.name_of(state.choose_by),),
            )
        colours = self.rules.side_colours[state.side]
        if event.colour not in colours:
            raise Reject(
                "bad-colour",
                "choose",
                f"{event.colour} is not a colour of the {self.rules.spec.side_names[state.side]} side",
                tuple(sorted(colours)),
            )
        self.close_window()
        state.colour = event.colour
        state.choose_by = None

    # -- reshuffles and scores

    def _reshuffle(self, event: ev.Reshuffle) -> None:
        state = self.state
        cards = self.cards(event.cards)
        if state.phase is not PLAYING:
            raise Reject("invalid-reshuffle", "reshuffle", f"round {state.round_number} is over")
        if state.draw_pile_size():
            raise Reject("invalid-reshuffle", "reshuffle", f"the draw pile still holds {state.draw_pile_size()} cards")
        keep_top = self.rules.reshuffle_keeps_top
        rest = state.discard_pile[:-1] if keep_top else list(state.discard_pile)
        if state.full_mode:
            if Counter(cards).items() != Counter(rest).items():
                under = "under its top card" if keep_top else "with its top card"
                raise Reject(
                    "invalid-reshuffle",
                    "reshuffle",
                    f"the new draw pile must be the {len(rest)} cards of the discard pile {under}",
                )
            state.draw_pile = cards[::-1]
        else:
            if cards:
                mode = "a public round" if state.hidden is not None else "observed mode"
                raise Reject("invalid-reshuffle", "reshuffle", f"in {mode} a reshuffle names no cards")
            hidden = state.hidden
            if hidden is not None:
                beneath = hidden.discard[: len(rest)]
                refill = self.new_id()
                terms = tuple((term, 1) for term in beneath if term is not None)
                known = tuple(hidden.deck.index[card] for card, term in zip(rest, beneath, strict=True) if term is None)
                hidden.add(Refill(refill, event.line, "reshuffle", terms, known, "the reshuffled draw pile"))
                hidden.pile = refill
                del hidden.discard[: len(rest)]
            else:
                state.draw_counts = dict(Counter(rest))
            state.observed_size = len(rest)
        del state.discard_pile[: len(rest)]
        self.settle()

    def _score(self, event: ev.Score) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        self.shows_done()
        result = state.last_result
        if result is None:
            raise Reject("wrong-score", "score", "no round has finished yet")
        expected = self.round_points(seat, result)
        if event.points != expected:
            raise Reject(
                "wrong-score",
                "score",
                f"{event.player} won {expected} points in round {result.number}, not {event.points}",
                (str(expected),),
            )

    def shows_done(self) -> None:
        """A public round's hands are all shown before its scores or the next round (missing-shows)."""
        hidden = self.state.hidden
        if hidden is None or hidden.winner is None:
            return
        missing = [name for seat, name in enumerate(self.state.players) if seat != hidden.winner and seat not in hidden.shown]
        if missing:
            raise Reject(
                "missing-shows",
                "score",
                f"round {self.state.round_number} is public: show the hand of {' and '.join(missing)} first",
                tuple(f"shows {name}" for name in missing),
            )

    def _shows(self, event: ev.Shows) -> None:
        """``shows P FACE ...``: a hand at a public round's end; the last one shown scores the round."""
        state = self.state
        seat = self.seat_of(event.player)
        hidden = state.hidden
        if hidden is None:
            raise Reject("bad-shows", "score", "only a public round's hands are shown ('shows' lines)")
        if hidden.winner is None:
            raise Reject("bad-shows", "score", f"round {state.round_number} is not over: hands are shown once it ends")
        if seat == hidden.winner:
            raise Reject("bad-shows", "score", f"{event.player} won the round and holds no card to show")
        if seat in hidden.shown:
            raise Reject("bad-shows", "score", f"{event.player}'s hand was already shown")
        side = state.side
        catalogue = self.rules.catalogue
        faces = []
        for token in event.faces:
            face = catalogue.faces[side].get(token)
            if face is None:
                if any(catalogue.face(token, other) for other in range(self.rules.spec.sides)):
                    side_name = self.rules.spec.side_names[side]
                    raise Reject("bad-shows", "score", f"{token} is not a face of the {side_name} side, the side in play")
                raise Reject("unknown-card", "known-card", legality.not_a_face(self.rules, token))
            faces.append(face)
        held = state.hand_sizes[seat]
        if len(faces) != held:  # a count the record fixes: inconsistent at this line, with the lines that fix it
            story = hand_story(hidden, seat, state.players)
            message = f"{event.player} holds {held} card{'' if held == 1 else 's'} ({story.text()}); {len(faces)} shown"
            raise Reject("inconsistent", "score", message, reasons=story.lines)
        counts = Counter(faces)
        groups = tuple((hidden.deck.showing(face, side), counts.get(face, 0)) for face in catalogue.faces[side].values())
        hidden.add(Shown(self.new_id(), event.line, "score", hidden.hand_terms(seat), groups, f"{event.player}'s hand shown"))
        hidden.shown[seat] = tuple(faces)
        if len(hidden.shown) == state.player_count - 1:
            points = [sum(self.rules.faces[face].points for face in hidden.shown.get(other, ())) for other in range(state.player_count)]
            self.rounds[-1] = scoring.finish_round(state, self.rules, hidden.winner, points)

    def round_points(self, seat: int, result: RoundResult) -> int:
        """What ``seat`` won in a finished round (``referee.engine.scoring``)."""
        return scoring.round_points(self.state, self.rules, seat, result)

    def finish_round(self, winner: int) -> None:
        """``winner`` went out: score the round (``referee.engine.scoring``) and close any UNO window. A public round is
        scored once its hands are shown (``_shows``)."""
        state = self.state
        hidden = state.hidden
        if hidden is not None and hidden.winner is None:
            hidden.winner = winner
            state.phase = ROUND_OVER
            self.rounds[-1] = RoundResult(state.round_number, True, state.players[winner], self.rules.spec.side_names[state.side])
        else:
            self.rounds[-1] = scoring.finish_round(state, self.rules, winner)
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False
