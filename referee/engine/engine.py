"""The rules engine: one mutable ``GameState``, advanced one event at a time.

``Engine.apply(event)`` checks an event against the compiled rules and, when it
is legal, applies it; when it is not, it returns a ``Diagnostic`` (replay
stops there; ``referee.Game`` restores the ``snapshot`` taken before, so a
rejected move leaves no trace). The order of the checks is the one the log
format page prescribes, so that two careful implementations agree on the
code. Every fact of the game (faces, effects, points, options, rule ids) is
read from ``Rules``.

The engine package is a module per responsibility:

- ``referee.engine.state``: the records it changes (``GameState``, ``Penalty``, ``Dispute``) and how a
  round's cards are known (``Knowledge``: full, observed; ``public_knowledge`` for a public round);
- ``referee.engine.legality``: matching, which card a token names, whose turn it is;
- ``referee.engine.deal``: the header, each round's setup, the deal and the card turned up;
- this module: the turn (plays, draws, passes, colour choices, penalties, reshuffles, scores)
  and the dispatch, the snapshots and the helpers the others share;
- ``referee.engine.disputes``: saying UNO, catches and challenges;
- ``referee.engine.hands``: hands moved whole (the house rules seven swaps and zero rotates);
- ``referee.engine.reject``: a rule broken, raised at the check that fails;

with ``referee.rules.effects`` (what a face does, shared with the Z3 model) and
``referee.engine.scoring``. The helpers without a leading underscore are the ones the
other engine modules call (through ``state.EngineApi``); code outside the engine uses ``apply``,
``judge`` (a "what if"), ``snapshot``/``restore``, ``matches``, ``playable``, ``resolve_in_hand`` and
``round_points``.
"""

from __future__ import annotations

from collections import Counter

from referee.cards import Card, Face
from referee.engine import deal, disputes, hands, legality, scoring
from referee.engine.reject import Reject
from referee.engine.state import (
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    START_AGAIN,
    STATE_FIELDS,
    Dispute,
    DrawKind,
    Due,
    Duty,
    GameState,
    Penalty,
    Phase,
    Snapshot,
    from_hand,
)
from referee.log import events as ev
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules
from referee.spec.vocabulary import Check, FlipColourChooser
from referee.verdicts import Code, Diagnostic, RoundResult

__all__ = ["GAME_OVER", "PLAYING", "ROUND_OVER", "START_AGAIN", "Dispute", "Engine", "GameState", "Penalty", "Phase", "Reject", "Snapshot"]


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
            ev.Swap: lambda event: hands.swap(self, event),
            ev.ShuffleHands: lambda event: hands.shuffle_hands(self, event),
            ev.Reshuffle: self._reshuffle,
            ev.Score: self._score,
        }

    # -- the public face

    def apply(self, event: ev.Event) -> Diagnostic | None:
        """Check ``event`` and apply it; a ``Diagnostic`` when it breaks a rule."""
        state = self.state
        self.line = event.line
        try:
            if state.phase is GAME_OVER or state.phase is START_AGAIN or state.due is not None:
                self._names_known(event)  # names first, on every line: before what these states allow
            if state.phase is GAME_OVER and type(event) is not ev.Score:
                raise Reject(
                    Code.AFTER_GAME_END,
                    Check.GAME_OVER,
                    f"the game ended ({self._winner_text()} won); nothing may follow but score claims",
                )
            if state.phase is START_AGAIN and type(event) is not ev.Start:
                raise Reject(
                    Code.BAD_SETUP,
                    Check.START_AGAIN,
                    "the card turned up went back into the draw pile: another 'start' line must follow",
                )
            if state.due is not None:
                hands.DUTIES[state.due.duty].gate(self, event)
            self._handlers[type(event)](event)
        except Reject as reject:
            rule = self.rules.check_rules[reject.check]
            return Diagnostic(event.line, reject.code, reject.message, rule.id, reject.allowed, reject.reasons)
        return None

    def snapshot(self) -> Snapshot:
        """The engine as it is now, for ``restore``: the undo of ``referee.Game.pop`` and of a rejected move, and
        every "what if" (``explain``, ``adjudicate``): apply, look, restore."""
        return Snapshot(self.state.copy(), len(self.warnings), tuple(self.rounds), len(self.disputes))

    def judge(self, event: ev.Event) -> Diagnostic | None:
        """The verdict on ``event`` in the state as it is, which stays as it is: every "what if" (``Game.is_legal``,
        ``explain``, the claims' probes) asks this, the one snapshot, apply and restore."""
        snapshot = self.snapshot()
        try:
            return self.apply(event)
        finally:
            self.restore(snapshot)

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

    def _names_known(self, event: ev.Event) -> None:
        """Every player a line names is one (unknown-player), whatever else is wrong with the line."""
        for attribute in ev.KINDS[type(event)].names:  # the fields of its kind that name a player
            self.seat_of(getattr(event, attribute))

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name`` (unknown-player when nobody is)."""
        seat = self.state.seat.get(name)
        if seat is None:
            known = " ".join(self.state.players)
            raise Reject(Code.UNKNOWN_PLAYER, Check.KNOWN_PLAYER, f"'{name}' is not a player (players: {known})")
        return seat

    def card(self, token: str) -> Card:
        """The physical card ``token`` names in this deck (unknown-card when none), memoised per token."""
        known = self._deck_cards.get(token)
        if known is not None:
            return known
        card = self.rules.catalogue.card(token)
        if card is None:
            raise Reject(
                Code.UNKNOWN_CARD, Check.KNOWN_CARD, f"'{token}' is not a card of the deck: {legality.why_unknown(self.rules, token)}"
            )
        if card not in self.state.deck_counts:
            pairs = legality.pairing(self.rules, self.state.deck_counts, token)
            raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, f"'{token}' is not a physical card of this deck{pairs}")
        if len(self._deck_cards) < 10_000:
            self._deck_cards[token] = card
        return card

    def cards(self, tokens: tuple[str, ...]) -> list[Card]:
        """``card`` of each token, in order."""
        return [self.card(token) for token in tokens]

    def _winner_text(self) -> str:
        winner = self.state.game_winner
        return " and ".join(winner) if isinstance(winner, list) else str(winner)

    def warn(self, line: int, code: Code, check: Check, message: str) -> None:
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
            self.warn(state.uno_line, Code.UNCAUGHT_UNO, Check.UNCAUGHT, f"{self.name_of(state.uno_player)} did not say UNO")
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False

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
            raise Reject(Code.UNKNOWN_CARD, Check.KNOWN_CARD, legality.not_a_face(self.rules, token))
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
            raise Reject(Code.ILLEGAL_PLAY, Check.MATCH, f"{event.player} played {face} on {self._colour_text()}; playable: {shown}")
        if self._same_as is not None and state.knowledge.drawn_playable(self) is False:  # a public round's replay that
            raise Reject(Code.ILLEGAL_PLAY, Check.FORCED_PLAY, f"{event.player} drew a card that cannot be played")  # took it so
        face_rules = self.rules.faces[face]
        self._colour_gate(face, face_rules, event.colour)
        also = self._doubles_gate(seat, card, event.also, jumped or stacked is not None) if event.also else ()
        if state.uno_player is not None:
            self.close_window()
        if jumped:
            state.turn = seat
        self._apply_play(seat, card, face_rules, event.colour, event.line, stacked, also)

    def _doubles_gate(self, seat: int, card: Card, tokens: tuple[str, ...], out_of_turn: bool) -> tuple[Card, ...]:
        """Several cards in one play: only under the house rule doubles, on the player's own turn before any draw
        (``referee.engine.legality.doubles`` says which cards)."""
        state = self.state
        name = state.players[seat]
        if not self.rules.doubles:
            raise Reject(Code.ILLEGAL_PLAY, Check.MATCH, f"{name} played {1 + len(tokens)} cards: a play is one card")
        if out_of_turn or state.drew:
            when = "after drawing" if state.drew else "out of turn or on a penalty"
            raise Reject(Code.ILLEGAL_PLAY, Check.DOUBLES, f"{name} may not play cards together {when}: only one card")
        return legality.doubles(self, seat, card, tokens)

    def _owed_gate(self, seat: int, token: str, player: str) -> Penalty | None:
        """A penalty is owed: its player may stack on it (the penalty passed on is returned), or must draw it first;
        anyone else waits for it to be drawn."""
        state = self.state
        penalty = state.penalties[0]
        if penalty.player != seat:
            raise Reject(Code.BAD_PENALTY, Check.PENALTY, f"{self.name_of(penalty.player)} still owes {penalty.describe()}")
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
        raise Reject(Code.ILLEGAL_PLAY, Check.PENALTY_OWED, message, ("draws",))

    def _out_of_turn(self, seat: int, token: str) -> bool:
        """A play out of turn: a jump-in under the house rule (play goes on from the jumper, and the turn player's
        draw is over), else not this player's turn."""
        state = self.state
        legality.forced_play(self, seat)
        if self.rules.jump_in and legality.jumps_in(self, seat, token):
            state.drew = False
            state.drawn_card = None
            return True
        legality.turn_of(self, seat)
        return False

    def _drawn_gate(self, card: Card, player: str) -> None:
        """After a draw only the card drawn may be played (in a public round that is a fact to record, not a check)."""
        state = self.state
        self._same_as = None
        if not state.drew:
            return
        self._same_as = state.knowledge.drawn_unknown(state)  # a public round: the card drawn is unknown, and the
        if self._same_as is None and card != state.drawn_card:  # card played is it: a fact to record, not a check
            drawn = state.drawn_card
            raise Reject(
                Code.ILLEGAL_PLAY,
                Check.DRAWN_CARD_ONLY,
                f"after drawing, {player} may play only the card drawn ({drawn if drawn else 'none was drawn'})",
                (drawn.token,) if drawn else (),
            )

    def _colour_gate(self, face: Face, face_rules: FaceRules, colour: str | None) -> None:
        """A wild names one of its side's colours; any other card names none."""
        state = self.state
        colours = self.rules.side_colours[state.side]
        if face_rules.choose_colour:
            if colour is None:
                raise Reject(Code.BAD_COLOUR, Check.WILD_COLOUR, f"{face} needs a colour: one of {', '.join(sorted(colours))}")
            if colour not in colours:
                side_name = self.rules.spec.side_names[state.side]
                raise Reject(Code.BAD_COLOUR, Check.WILD_COLOUR, f"{colour} is not a colour of the {side_name} side")
        elif colour is not None:
            raise Reject(Code.BAD_COLOUR, Check.WILD_COLOUR, f"{face} is not a wild and takes no colour")

    def _apply_play(
        self,
        seat: int,
        card: Card,
        face_rules: FaceRules,
        colour: str | None,
        line: int,
        stacked: Penalty | None,
        also: tuple[Card, ...] = (),
    ) -> None:
        state = self.state
        knowledge = state.knowledge
        knowledge.play_from_hand(self, seat, card, line, self._same_as)
        self._same_as = None
        state.discard_pile.append(card)
        for other in also:  # doubles: the cards go down in the order written, the last on top; the play acts once
            knowledge.play_from_hand(self, seat, other, line, None)
            state.discard_pile.append(other)
        state.top_by = seat
        state.drew = False
        state.drawn_card = None
        colour_before = state.colour
        held = False
        evidence: tuple[Card, ...] = ()
        asked = -1
        if face_rules.restricted:
            evidence, asked = knowledge.held_colour(self, seat, line, colour_before)
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
            state.turn_rule = None
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
                Code.UNCHALLENGED_BLUFF,
                Check.BLUFF,
                f"{self.name_of(seat)} played {face_rules.face} while holding {colour_before}, and it cannot be challenged",
            )
        if face_rules.shuffles_hands:
            state.due = Due(seat, Duty.SHUFFLE)  # the next line deals every hand anew, also when this was the player's last card
        elif state.hand_sizes[seat] == 0 and not state.penalties:
            self.finish_round(seat)
        elif state.hand_sizes[seat] and (face_rules.swaps_hands or face_rules.passes_hands):
            hands.move_hands(self, seat, face_rules)
        if state.penalties:
            self.settle()

    def _open_window(self, seat: int, line: int) -> None:
        """A play to one card opens the UNO window: until the next player acts, the player may say UNO or be caught."""
        state = self.state
        state.uno_player = seat
        state.uno_line = line
        state.uno_called = False
        state.uno_caught = False

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
        direction_before = state.direction
        effect = effects.play(face_rules, seat, direction_before, state.player_count, rules.two_player_reverse_skips)
        state.direction = effect.direction
        following = effect.following
        if face_rules.flip:
            self.flip(face_rules)
            top = state.top_face()
            assert top is not None
            uncovered_wild = top.is_wild
            flipped = effects.after_flip(
                top.colour, uncovered_wild, state.hand_sizes[seat], rules.flip_chooser is not FlipColourChooser.NOBODY, effects.every
            )
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
            in_order = following == (seat + direction_before) % state.player_count and effect.victim is None
            state.turn = following
            state.turn_rule = None if in_order else face_rules.rule

    def flip(self, face_rules: FaceRules) -> None:
        """Turn the discard pile, then the draw pile, then every hand (ruling 16)."""
        state = self.state
        state.side = (state.side + 1) % self.rules.spec.sides
        effects.turn_over(state.discard_pile, face_rules.flip_discard_pile)
        state.knowledge.flip(self, face_rules)

    def settle(self) -> None:
        """Drop penalties that can no longer be drawn (ruling 17), then end the round if it is over."""
        state = self.state
        while state.penalties and state.draw_pile_size() == 0 and len(state.discard_pile) <= 1:
            penalty = state.penalties.pop(0)
            self.penalty_ends(penalty)

    def penalty_ends(self, penalty: Penalty) -> None:
        state = self.state
        if penalty.bluff:
            self._warn_bluff(penalty)
        if penalty.next_turn is not None:
            state.turn = penalty.next_turn
            if penalty.rule is not None:  # a ruling's (a challenge's) next player; a card's penalty keeps the card's rule
                state.turn_rule = penalty.rule
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
            Code.UNCHALLENGED_BLUFF,
            Check.BLUFF,
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
        card = state.knowledge.take(state, seat, named)
        if penalty.into_discard:
            from_hand(state, seat, card)
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
            self.penalty_ends(penalty)
        self.settle()

    # -- drawing and passing

    def _draw(self, event: ev.Draw) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        cards = self.cards(event.cards)
        kind = self.draw_kind(seat, event.player, len(cards))
        if kind is DrawKind.PENALTY:
            self._penalty_draw(seat, cards)
        elif kind is DrawKind.UNTIL_PLAYABLE:
            self._draw_until_playable(seat, cards)
        elif not self._nothing_to_draw(cards):
            if not cards:
                state.knowledge.bare_draw()
            self.close_window()
            state.drawn_card = state.knowledge.take(state, seat, cards[0] if cards else None)
            state.drew = True

    def draw_kind(self, seat: int, name: str, count: int) -> DrawKind:
        """The gates every draw line passes, named cards or a count (a round in play; a penalty is its owner's; no
        colour to choose; the turn; one card a turn): which draw it is, a penalty's, a draw until playable or a turn's
        draw of one card."""
        state = self.state
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        if state.penalties:
            self._owes(seat)
            self.close_window()
            return DrawKind.PENALTY
        legality.must_not_choose(state, seat)
        if self.rules.draw_until_playable:
            if state.drawing and seat != state.turn:
                self._draw_unfinished()
            legality.turn_of(self, seat)
            return DrawKind.UNTIL_PLAYABLE
        legality.turn_of(self, seat)
        if state.drew:
            raise Reject(Code.WRONG_DRAW, Check.TURN_DRAW, f"{name} already drew this turn: play the card drawn or pass")
        if count > 1:
            raise Reject(Code.WRONG_DRAW, Check.TURN_DRAW, f"a turn draw is one card, not {count}")
        return DrawKind.TURN

    def _owes(self, seat: int) -> None:
        """A draw while a penalty is owed is that penalty's, by the player who owes it (bad-penalty)."""
        penalty = self.state.penalties[0]
        if penalty.player != seat:
            owner = self.name_of(penalty.player)
            raise Reject(Code.BAD_PENALTY, Check.PENALTY, f"{owner} owes {penalty.describe()}, not {self.name_of(seat)}", (owner,))

    def _draw_count(self, event: ev.DrawCount) -> None:
        """``P draws N``: a public round's draw (``referee.engine.public_knowledge``); in any other round, wrong-draw."""
        state = self.state
        seat = self.seat_of(event.player)
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        state.knowledge.draw_count(self, seat, event)

    def pile_has(self, count: int) -> None:
        """A hidden draw of ``count`` cards needs them in the draw pile (a reshuffle first, or nothing left to draw)."""
        if self.state.draw_pile_size() >= count:
            return
        if self.can_reshuffle() or self.state.draw_pile_size():
            raise Reject(
                Code.WRONG_DRAW,
                Check.DRAW_SOURCE,
                f"the draw pile holds {self.state.draw_pile_size()} cards: a 'reshuffle' must come first",
            )
        raise Reject(Code.WRONG_DRAW, Check.EMPTY_DRAW, "nothing is left to draw: the draw is written without cards")

    def last_cards(self, count: int) -> bool:
        """Whether drawing ``count`` cards takes the last ones there are (the draw pile, and nothing to reshuffle)."""
        return self.state.draw_pile_size() == count and not self.can_reshuffle()

    def _nothing_to_draw(self, cards: list[Card]) -> bool:
        """A turn draw on an empty draw pile: a reshuffle must come first, or, when nothing is left (ruling 17), the draw
        is written without cards and ends the draw at once (True)."""
        state = self.state
        if state.draw_pile_size():
            return False
        if self.can_reshuffle():
            raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "the draw pile is empty: a 'reshuffle' must come first")
        if cards:
            raise Reject(Code.WRONG_DRAW, Check.EMPTY_DRAW, "nothing is left to draw: the draw is written without cards")
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
            Code.DRAW_TOO_FEW,
            Check.DRAW_UNTIL_PLAYABLE,
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
                raise Reject(
                    Code.DRAW_TOO_MANY, Check.DRAW_UNTIL_PLAYABLE, f"{name} already drew a playable card ({drawn}): play it or pass"
                )
            raise Reject(Code.WRONG_DRAW, Check.TURN_DRAW, f"{name} already drew this turn and nothing is left to draw: pass")
        if self._nothing_to_draw(cards):
            return
        if not cards:
            state.knowledge.bare_draw()
        self.close_window()
        queue: list[Card | None] = list(cards) if cards else []
        while True:
            if state.drew and not state.drawing:
                if queue:
                    raise Reject(
                        Code.DRAW_TOO_MANY,
                        Check.DRAW_UNTIL_PLAYABLE,
                        f"{name} drew {state.drawn_card}, a playable card: {queue[0]} is one too many",
                    )
                return
            if not queue:
                if cards or not state.draw_pile:
                    return  # what the line names is drawn; the draw goes on on a later line (after a reshuffle)
                queue.append(None)  # full mode, a bare draw: the next card of the pile
            if state.draw_pile_size() == 0:
                if self.can_reshuffle():
                    raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "the draw pile is empty: a 'reshuffle' must come first")
                raise Reject(Code.WRONG_DRAW, Check.EMPTY_DRAW, f"nothing is left to draw: {queue[0]} cannot be drawn")
            card = state.knowledge.take(state, seat, queue.pop(0))
            state.drew = True
            state.drawn_card = card
            state.drawing = not self.matches(card.faces[state.side]) and self.cards_remain()

    def _penalty_draw(self, seat: int, cards: list[Card]) -> None:
        state = self.state
        if not cards:
            state.knowledge.bare_draw()
            if state.draw_pile_size() == 0:
                raise Reject(Code.WRONG_DRAW, Check.DRAW_SOURCE, "the draw pile is empty: a 'reshuffle' must come first")
            while state.penalties and state.penalties[0].player == seat and state.draw_pile:
                self._pay(seat, None)
            return
        for card in cards:
            if not state.penalties or state.penalties[0].player != seat:
                raise Reject(
                    Code.BAD_PENALTY, Check.PENALTY, f"{self.name_of(seat)} drew more cards than the penalty ({card} is one too many)"
                )
            self._pay(seat, card)

    def _pass(self, event: ev.Pass) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        if state.phase is not PLAYING:
            legality.not_in_play(state)
        if state.penalties:
            penalty = state.penalties[0]
            raise Reject(Code.BAD_PENALTY, Check.PENALTY, f"{self.name_of(penalty.player)} owes {penalty.describe()}: no passing")
        if state.drawing:
            self._draw_unfinished()
        legality.must_not_choose(state, seat)
        legality.turn_of(self, seat)
        if not state.drew:
            raise Reject(Code.OUT_OF_TURN, Check.PASS, f"{event.player} may pass only right after their turn's draw", ("draws",))
        legality.forced_play(self, seat)
        self.close_window()
        state.turn = state.next_player(seat)
        state.turn_rule = None
        state.drew = False
        state.drawn_card = None

    def _choose(self, event: ev.Choose) -> None:
        state = self.state
        seat = self.seat_of(event.player)
        if state.phase is not PLAYING or state.choose_by is None:
            raise Reject(Code.BAD_COLOUR, Check.CHOOSE, "no colour is to be chosen now")
        legality.no_catch_owed(state)
        if seat != state.choose_by:
            raise Reject(
                Code.OUT_OF_TURN,
                Check.TURN,
                f"{self.name_of(state.choose_by)} chooses the colour, not {event.player}",
                (self.name_of(state.choose_by),),
            )
        colours = self.rules.side_colours[state.side]
        if event.colour not in colours:
            raise Reject(
                Code.BAD_COLOUR,
                Check.CHOOSE,
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
            raise Reject(Code.INVALID_RESHUFFLE, Check.RESHUFFLE, f"round {state.round_number} is over")
        if state.draw_pile_size():
            raise Reject(Code.INVALID_RESHUFFLE, Check.RESHUFFLE, f"the draw pile still holds {state.draw_pile_size()} cards")
        keep_top = self.rules.reshuffle_keeps_top
        rest = state.discard_pile[:-1] if keep_top else list(state.discard_pile)
        state.knowledge.reshuffle(self, cards, rest, event.line)
        del state.discard_pile[: len(rest)]
        self.settle()

    def _score(self, event: ev.Score) -> None:
        seat = self.seat_of(event.player)
        self.shows_done()
        scoring.check_score(self.state, self.rules, seat, event.points)

    def shows_done(self) -> None:
        """A public round's hands are all shown before its scores or the next round (missing-shows)."""
        self.state.knowledge.shows_done(self)

    def _shows(self, event: ev.Shows) -> None:
        """``shows P FACE ...``: a hand at a public round's end; the last one shown scores the round."""
        state = self.state
        seat = self.seat_of(event.player)
        shown = state.knowledge.shows(self, seat, event)
        if shown is not None:
            winner, points = shown
            self.rounds[-1] = scoring.finish_round(state, self.rules, winner, points)

    def round_points(self, seat: int, result: RoundResult) -> int:
        """What ``seat`` won in a finished round (``referee.engine.scoring``)."""
        return scoring.round_points(self.state, self.rules, seat, result)

    def finish_round(self, winner: int) -> None:
        """``winner`` went out: score the round (``referee.engine.scoring``) and close any UNO window. A public round is
        scored once its hands are shown (``_shows``)."""
        state = self.state
        if not state.knowledge.round_won(self, winner):
            self.rounds[-1] = scoring.finish_round(state, self.rules, winner)
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False
