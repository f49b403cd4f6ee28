"""The rules engine: one mutable ``GameState``, advanced one event at a time.

``Engine.apply(event)`` checks an event against the compiled rules and, when it
is legal, applies it; when it is not, it returns a ``Diagnostic`` (replay
stops there; ``referee.Game`` restores the ``snapshot`` taken before, so a
rejected move leaves no trace). The records it changes are in
``referee.state``. The order of the
checks is the one the log format page prescribes, so that two careful
implementations agree on the code. Every UNO Flip fact (faces, effects,
points, options, rule ids) is read from ``Rules``.
"""

from __future__ import annotations

from collections import Counter

from referee import effects, scoring
from referee import events as ev
from referee.cards import Card, Face, FaceClass
from referee.compiler import FaceRules, Rules
from referee.state import (
    DEALING,
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    SETUP,
    START_AGAIN,
    STATE_FIELDS,
    Dispute,
    GameState,
    Penalty,
    Snapshot,
)
from referee.verdicts import Diagnostic, RoundResult

__all__ = ["GAME_OVER", "PLAYING", "ROUND_OVER", "START_AGAIN", "Dispute", "Engine", "GameState", "Penalty", "Reject", "Snapshot"]


def _every(*values: bool) -> bool:
    """The conjunction ``effects.after_flip`` asks of the engine (the model passes ``z3.And``)."""
    return all(values)


class Reject(Exception):
    """Internal: raised inside the engine, turned into a ``Diagnostic`` by ``Engine.apply``."""

    def __init__(self, code: str, check: str, message: str, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.check = check
        self.message = message
        self.allowed = allowed


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
        self._handlers = {
            ev.Players: self._players,
            ev.SpecName: self._spec_name,
            ev.Deck: self._deck,
            ev.Target: self._target,
            ev.Round: self._round,
            ev.Dealer: self._dealer,
            ev.Shuffle: self._shuffle,
            ev.Hand: self._hand,
            ev.Start: self._start,
            ev.Play: self._play,
            ev.Draw: self._draw,
            ev.Pass: self._pass,
            ev.Choose: self._choose,
            ev.Call: self._call,
            ev.Catch: self._catch,
            ev.Challenge: self._challenge,
            ev.Reshuffle: self._reshuffle,
            ev.Score: self._score,
        }

    # -- the public face

    def apply(self, event: ev.Event) -> Diagnostic | None:
        """Check ``event`` and apply it; a ``Diagnostic`` when it breaks a rule."""
        state = self.state
        try:
            if state.phase == GAME_OVER and type(event) is not ev.Score:
                raise Reject(
                    "after-game-end",
                    "game-over",
                    f"the game ended ({self._winner_text()} won); nothing may follow but score claims",
                )
            if state.phase == START_AGAIN and type(event) is not ev.Start:
                raise Reject("bad-setup", "start-again", "a Wild Draw Two was turned up at the start: another 'start' line must follow")
            self._handlers[type(event)](event)  # type: ignore[operator]
        except Reject as reject:
            rule = self.rules.check_rules[reject.check]
            return Diagnostic(event.line, reject.code, reject.message, rule.id, reject.allowed)
        return None

    def _not_in_play(self) -> None:
        """Plays, draws and passes need a round in play (replay never gets here before the deal; ``explain --move`` may)."""
        state = self.state
        if state.phase == ROUND_OVER:
            raise Reject("out-of-turn", "round-over", f"round {state.round_number} is over")
        raise Reject("out-of-turn", "turn", "no round is in play: the cards are not dealt yet")

    def _dispute(self, dispute: Dispute) -> None:
        if self.record_disputes:
            self.disputes.append(dispute)

    def snapshot(self) -> Snapshot:
        """The engine as it is now, for ``restore``: the undo of ``referee.Game.pop`` and of a rejected move."""
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

    def clone(self) -> Engine:
        """An independent copy for asking "what if" (cards and rules are shared, being immutable)."""
        twin = Engine(self.rules, self.record_disputes)
        twin.state = self.state.copy()
        twin.rounds = list(self.rounds)
        twin.warnings = list(self.warnings)
        twin.disputes = list(self.disputes)
        twin._deck_cards = self._deck_cards
        return twin

    # -- helpers

    def _seat(self, name: str) -> int:
        seat = self.state.seat.get(name)
        if seat is None:
            known = " ".join(self.state.players)
            raise Reject("unknown-player", "known-player", f"'{name}' is not a player (players: {known})")
        return seat

    def _card(self, token: str) -> Card:
        known = self._deck_cards.get(token)
        if known is not None:
            return known
        card = self.rules.catalogue.card(token)
        if card is None:
            raise Reject("unknown-card", "known-card", f"'{token}' is not a card of the deck: {self._why_unknown(token)}")
        if card not in self.state.deck_counts:
            raise Reject("unknown-card", "known-card", f"'{token}' is not a physical card of this deck")
        if len(self._deck_cards) < 10_000:
            self._deck_cards[token] = card
        return card

    def _why_unknown(self, token: str) -> str:
        catalogue = self.rules.catalogue
        names = self.rules.spec.side_names
        if len(names) == 1:
            return "a card of this game is written as its face (red-7)" if "/" in token else f"'{token}' is not a face of this game"
        light, _, dark = token.partition("/")
        if catalogue.face(light, 0) is None:
            return f"'{light}' is not a {names[0]} face" + (f" (it is a {names[1]} face)" if catalogue.face(light, 1) else "")
        return f"'{dark}' is not a {names[1]} face" + (f" (it is a {names[0]} face)" if catalogue.face(dark, 0) else "")

    def _any_side(self) -> str:
        return "either side" if self.rules.spec.sides == 2 else "this game"

    def _cards(self, tokens: tuple[str, ...]) -> list[Card]:
        return [self._card(token) for token in tokens]

    def _winner_text(self) -> str:
        winner = self.state.game_winner
        return " and ".join(winner) if isinstance(winner, list) else str(winner)

    def _warn(self, line: int, code: str, check: str, message: str) -> None:
        self.warnings.append(Diagnostic(line, code, message, self.rules.check_rules[check].id))

    def _owner(self) -> int | None:
        penalties = self.state.penalties
        return penalties[0].player if penalties else None

    def _catch_owed(self) -> Penalty | None:
        penalties = self.state.penalties
        return penalties[0] if penalties and penalties[0].catch else None

    def _name(self, seat: int) -> str:
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
        """Whether ``face`` may be played on the top card (rule play.match)."""
        state = self.state
        matching = self.rules.spec.matching
        if face.face_class is FaceClass.WILD:
            return matching.wild_always
        if matching.same_colour and face.colour == state.colour:
            return True
        top = state.top_face()
        if top is None:
            return False
        if matching.same_number and face.number is not None and face.number == top.number:
            return True
        return (
            matching.same_action_kind
            and face.face_class is FaceClass.ACTION
            and top.face_class is FaceClass.ACTION
            and face.kind == top.kind
        )

    def playable(self, seat: int) -> list[Card]:
        """The distinct cards in a hand that match the top card now."""
        side = self.state.side
        return [card for card in self.state.hands[seat] if self.matches(card.faces[side])]

    def can_reshuffle(self) -> bool:
        return len(self.state.discard_pile) > 1

    def _close_window(self) -> None:
        state = self.state
        if state.uno_player is None:
            return
        if not state.uno_called and not state.uno_caught:
            self._warn(state.uno_line, "uncaught-uno", "uncaught", f"{self._name(state.uno_player)} did not say UNO")
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False

    def _turn_gate(self, seat: int) -> None:
        state = self.state
        if state.turn != seat and state.drew:
            state.turn = state.next_player(state.turn)
            state.drew = False
            state.drawn_card = None
        if state.turn != seat:
            raise Reject(
                "out-of-turn",
                "turn",
                f"{self._name(seat)} acted out of turn: it is {self._name(state.turn)}'s turn",
                (self._name(state.turn),),
            )

    def resolve_in_hand(self, seat: int, token: str) -> Card:
        """The physical card a ``plays`` token names in ``seat``'s hand; ``Reject`` (card-not-in-hand, ambiguous-card,
        unknown-card) when it names none, or more than one."""
        state = self.state
        hand = state.hands[seat]
        if "/" in token:
            card = self._card(token)
            if hand.get(card, 0) <= 0:
                raise Reject("card-not-in-hand", "in-hand", f"{self._name(seat)} does not hold {card}")
            return card
        catalogue = self.rules.catalogue
        face = catalogue.faces[state.side].get(token)
        if face is not None:
            side = state.side
            found = [card for card in hand if card.faces[side] is face]
            if len(found) == 1:
                return found[0]
        name = self._name(seat)
        if face is None:
            names = self.rules.spec.side_names
            other = next((side for side in range(len(names)) if side != state.side and catalogue.face(token, side)), None)
            if other is None:
                raise Reject("unknown-card", "known-card", f"'{token}' is not a face of {self._any_side()}")
            raise Reject("card-not-in-hand", "in-hand", f"{token} is a {names[other]} face; the {names[state.side]} side is in play")
        found = [card for card in hand if card.faces[state.side] == face]
        if not found:
            raise Reject("card-not-in-hand", "in-hand", f"{name} holds no {face}")
        if len(found) > 1:
            raise Reject(
                "ambiguous-card",
                "ambiguous",
                f"{face} could be {' or '.join(sorted(c.token for c in found))}: write the physical card",
                tuple(sorted(c.token for c in found)),
            )
        return found[0]

    def _remove_from_hand(self, seat: int, card: Card) -> None:
        state = self.state
        hand = state.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1
        state.hand_sizes[seat] -= 1

    def _take(self, seat: int, named: Card | None) -> Card:
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

    # -- header

    def _players(self, event: ev.Players) -> None:
        state = self.state
        names = event.names
        spec = self.rules.spec
        if not spec.min_players <= len(names) <= spec.max_players:
            raise Reject(
                "bad-setup",
                "players",
                f"{len(names)} player{'s' if len(names) != 1 else ''}: the game is for {spec.min_players} to {spec.max_players}",
            )
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise Reject("bad-setup", "players", f"player {repeated[0]} is named twice")
        state.players = names
        state.seat = {name: seat for seat, name in enumerate(names)}
        state.totals = [0] * len(names)

    def _spec_name(self, event: ev.SpecName) -> None:
        """The spec was resolved before replay began."""

    def _deck(self, event: ev.Deck) -> None:
        cards = []
        for token in event.cards:
            card = self.rules.catalogue.card(token)
            if card is None:
                raise Reject("unknown-card", "known-card", f"'{token}' is not a card: {self._why_unknown(token)}")
            cards.append(card)
        problems = self.rules.catalogue.composition_problems(list(event.cards)) if self.rules.spec.deck_official else []
        if len(cards) != len(self.rules.deck):
            problems.insert(0, f"{len(cards)} cards, not {len(self.rules.deck)}")
        if problems:
            raise Reject("bad-setup", "deck", "the deck is not official: " + "; ".join(problems))
        self.state.deck = tuple(cards)
        self.state.deck_counts = Counter(cards)
        self._deck_cards = {}

    def _target(self, event: ev.Target) -> None:
        self.state.target = event.points

    # -- rounds and the deal

    def _round(self, event: ev.Round) -> None:
        state = self.state
        if state.phase in (DEALING, SETUP, START_AGAIN, PLAYING):
            raise Reject("bad-setup", "round-order", f"round {state.round_number} is not finished")
        if event.number != state.round_number + 1:
            raise Reject(
                "bad-setup",
                "round-order",
                f"round {event.number} follows round {state.round_number}: expected round {state.round_number + 1}",
            )
        n = state.player_count
        state.round_number = event.number
        state.phase = DEALING
        state.side = self.rules.spec.start_side
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
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False
        self.rounds.append(RoundResult(event.number, False))

    def _dealer(self, event: ev.Dealer) -> None:
        state = self.state
        seat = self._seat(event.player)
        if state.round_number > 1:
            expected = (state.dealer + self.rules.dealer_step) % state.player_count
            if seat != expected:
                raise Reject(
                    "bad-setup",
                    "dealer",
                    f"the deal passes to {self._name(expected)} after {self._name(state.dealer)}, not to {event.player}",
                    (self._name(expected),),
                )
        state.dealer = seat
        state.phase = SETUP

    def _shuffle(self, event: ev.Shuffle) -> None:
        state = self.state
        cards = self._cards(event.cards)
        # items() compares in C (Counter's own == runs a Python loop); neither side holds a zero count
        if Counter(cards).items() != state.deck_counts.items():
            missing = state.deck_counts - Counter(cards)
            extra = Counter(cards) - state.deck_counts
            detail = []
            if missing:
                detail.append("missing " + ", ".join(sorted(c.token for c in missing.elements()))[:200])
            if extra:
                detail.append("extra " + ", ".join(sorted(c.token for c in extra.elements()))[:200])
            raise Reject("bad-setup", "shuffle", f"the shuffle is not the deck ({len(cards)} cards; {'; '.join(detail)})")
        state.full_mode = True
        state.draw_pile = cards[::-1]
        n = state.player_count
        hand_size = self.rules.spec.hand_size
        seat = state.dealer
        for _ in range(hand_size * n):
            seat = (seat + 1) % n
            card = state.draw_pile.pop()
            hand = state.hands[seat]
            hand[card] = hand.get(card, 0) + 1
            state.hand_sizes[seat] += 1
        self._turn_up(state.draw_pile.pop())

    def _hand(self, event: ev.Hand) -> None:
        state = self.state
        seat = self._seat(event.player)
        cards = self._cards(event.cards)
        if state.hand_sizes[seat] or any(state.hands[seat].values()):
            raise Reject("bad-setup", "hands", f"a second hand for {event.player}")
        hand_size = self.rules.spec.hand_size
        if len(cards) != hand_size:
            raise Reject("bad-setup", "hands", f"{event.player}'s hand has {len(cards)} cards, not {hand_size}")
        state.full_mode = False
        dealt = Counter(cards)
        for hand in state.hands:
            dealt.update(hand)
        for card, count in dealt.items():
            if count > state.deck_counts[card]:
                raise Reject("bad-setup", "hands", f"{card} is dealt {count} times; the deck has {state.deck_counts[card]}")
        state.hands[seat] = dict(Counter(cards))
        state.hand_sizes[seat] = len(cards)
        state.hands_given += 1

    def _start(self, event: ev.Start) -> None:
        state = self.state
        card = self._card(event.card)
        if state.hands_given < state.player_count:
            missing = [name for seat, name in enumerate(state.players) if not state.hand_sizes[seat]]
            raise Reject("bad-setup", "start-card", f"'start' before every hand is given (missing: {' '.join(missing)})")
        if state.phase == PLAYING or state.phase == ROUND_OVER:
            raise Reject("bad-setup", "start-card", "a second 'start' line, but the card turned up was not a Wild Draw Two")
        if state.phase == SETUP:
            pile = Counter(state.deck_counts)
            for hand in state.hands:
                pile.subtract(hand)
            state.draw_counts = dict(+pile)
            state.observed_size = sum(state.draw_counts.values())
        if state.draw_counts.get(card, 0) <= 0:
            raise Reject("bad-setup", "start-card", f"the start card {card} is not in the draw pile")
        state.draw_counts[card] -= 1
        state.observed_size -= 1
        if not state.draw_counts[card]:
            del state.draw_counts[card]
        self._turn_up(card)

    def _turn_up(self, card: Card) -> None:
        """The card turned up at the start, and what it does (rulings 4 to 10)."""
        state = self.state
        rules = self.rules
        face = card.faces[state.side]
        face_rules = rules.faces[face]
        if "return-to-draw-pile" in face_rules.at_start:
            if state.full_mode:
                for _ in range(len(state.draw_pile) + 1):
                    state.draw_pile.insert(0, card)
                    card = state.draw_pile.pop()
                    face = card.faces[state.side]
                    face_rules = rules.faces[face]
                    if "return-to-draw-pile" not in face_rules.at_start:
                        break
            else:
                state.draw_counts[card] = state.draw_counts.get(card, 0) + 1
                state.observed_size += 1
                state.phase = START_AGAIN
                return
        state.phase = PLAYING
        state.discard_pile = [card]
        dealer = state.dealer
        left = state.next_player(dealer)
        state.turn = left
        state.colour = face.colour
        chooser = dealer if rules.start_colour_by_dealer else left
        at_start = face_rules.at_start
        if "flip" in at_start:
            self._flip(face_rules)
            face = state.top_face()  # type: ignore[assignment]
            dealt = rules.spec.hand_size  # every hand is full at the start
            flipped = effects.after_flip(face.colour, face.face_class is FaceClass.WILD, dealt, True, _every)
            state.colour = flipped.colour
            if flipped.names:
                state.choose_by = chooser
            return
        state.direction, state.turn = effects.first_to_act(at_start, dealer, state.player_count)  # then apply-effects below
        if "choose-colour" in at_start:
            state.colour = None
            state.choose_by = chooser
        if "apply-effects" in at_start:
            self._effects(dealer, face_rules, 0, start=True)
        self._settle()

    # -- playing

    def _play(self, event: ev.Play) -> None:
        state = self.state
        seat = state.seat.get(event.player)
        if seat is None:
            seat = self._seat(event.player)
        token = event.card
        if "/" in token:
            self._card(token)
        elif not self.rules.catalogue.is_face(token):
            raise Reject("unknown-card", "known-card", f"'{token}' is not a face of {self._any_side()}")
        if state.phase != PLAYING:
            self._not_in_play()
        stacked: Penalty | None = None
        if state.penalties:
            penalty = state.penalties[0]
            if penalty.player == seat:
                stacked = self._stacking(seat, token, penalty)
                if stacked is None:
                    raise Reject(
                        "illegal-play",
                        "penalty-owed",
                        f"{event.player} owes {penalty.describe()} and must draw before playing",
                        ("draws",),
                    )
            else:
                raise Reject("bad-penalty", "penalty", f"{self._name(penalty.player)} still owes {penalty.describe()}")
        if state.choose_by is not None:
            if state.choose_by == seat:
                raise Reject("bad-colour", "choose", f"{event.player} must choose the colour first ('{event.player} chooses COLOUR')")
            raise Reject("out-of-turn", "turn", f"{self._name(state.choose_by)} must choose the colour first")
        if stacked is None and state.turn != seat:
            self._turn_gate(seat)
        card = self.resolve_in_hand(seat, token)
        if state.drew and card != state.drawn_card:
            drawn = state.drawn_card
            raise Reject(
                "illegal-play",
                "drawn-card-only",
                f"after drawing, {event.player} may play only the card drawn ({drawn if drawn else 'none was drawn'})",
                (drawn.token,) if drawn else (),
            )
        face = card.faces[state.side]
        same_colour = self._same_colour and face.colour is not None and face.colour == state.colour
        if not same_colour and not self.matches(face):
            playable = self.playable(seat)
            shown = ", ".join(sorted(c.faces[state.side].token for c in playable)) or "none (draw a card)"
            raise Reject(
                "illegal-play",
                "match",
                f"{event.player} played {face} on {self._colour_text()}; playable: {shown}",
            )
        face_rules = self.rules.faces[face]
        colours = self.rules.side_colours[state.side]
        if face_rules.choose_colour:
            if event.colour is None:
                raise Reject("bad-colour", "wild-colour", f"{face} needs a colour: one of {', '.join(sorted(colours))}")
            if event.colour not in colours:
                side_name = self.rules.spec.side_names[state.side]
                raise Reject("bad-colour", "wild-colour", f"{event.colour} is not a colour of the {side_name} side")
        elif event.colour is not None:
            raise Reject("bad-colour", "wild-colour", f"{face} is not a wild and takes no colour")
        if state.uno_player is not None:
            self._close_window()
        self._apply_play(seat, card, face_rules, event.colour, event.line, stacked)

    def _stacking(self, seat: int, token: str, penalty: Penalty) -> Penalty | None:
        """The owed penalty, when a house rule lets this play pass it on (option stacking)."""
        if penalty.started or penalty.catch or penalty.stack_kind is None:
            return None
        try:
            card = self.resolve_in_hand(seat, token)
        except Reject:
            return None
        face_rules = self.rules.faces[card.faces[self.state.side]]
        if face_rules.stackable and face_rules.face.kind == penalty.stack_kind:
            return penalty
        return None

    def _apply_play(self, seat: int, card: Card, face_rules: FaceRules, colour: str | None, line: int, stacked: Penalty | None) -> None:
        state = self.state
        self._remove_from_hand(seat, card)
        hand = state.hands[seat]
        state.discard_pile.append(card)
        state.drew = False
        state.drawn_card = None
        colour_before = state.colour
        held = False
        evidence: tuple[Card, ...] = ()
        if face_rules.restricted:
            side = state.side
            evidence = tuple(sorted((c for c in hand if c.faces[side].colour == colour_before), key=lambda c: c.token))
            held = bool(evidence)
        if state.hand_sizes[seat] == 1:
            state.uno_player = seat
            state.uno_line = line
            state.uno_called = False
            state.uno_caught = False
        state.colour = colour if face_rules.choose_colour else face_rules.face.colour
        extra = 0
        if stacked is not None:
            state.penalties.pop(0)
            extra = stacked.count
        if face_rules.plain and extra == 0:  # effects.play for a face without effects, inlined: the hot path
            state.turn = (seat + state.direction) % len(state.players)
        else:
            self._effects(seat, face_rules, extra, held=held, line=line, colour_before=colour_before, evidence=evidence)
        if state.hand_sizes[seat] == 0 and not state.penalties:
            self._finish_round(seat)
        if state.penalties:
            self._settle()

    def _effects(
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
            self._flip(face_rules)
            top = state.top_face()
            assert top is not None
            uncovered_wild = top.face_class is FaceClass.WILD
            flipped = effects.after_flip(top.colour, uncovered_wild, state.hand_sizes[seat], rules.flip_chooser != "nobody", _every)
            state.colour = flipped.colour
            if flipped.names:
                state.choose_by = seat if rules.flip_colour_by_player else following
        if effect.victim is not None:
            victim = effect.victim
            challengeable = face_rules.challengeable and not start
            state.penalties.append(
                Penalty(
                    player=victim,
                    count=face_rules.draw + stacked,
                    until_colour=state.colour if face_rules.draw_until_colour else None,
                    loses_turn=True,
                    next_turn=state.next_player(victim),
                    line=line,
                    played_by=None if start else seat,
                    challengeable=challengeable,
                    wild_draw=challengeable,
                    guilty=held,
                    bluff=held and challengeable,
                    stack_kind=face_rules.face.kind if face_rules.stackable else None,
                    into_discard=face_rules.penalty_into_discard,
                    colour_before=colour_before,
                    evidence=evidence,
                )
            )
        if not start or effect.moves_turn:
            state.turn = following

    def _flip(self, face_rules: FaceRules) -> None:
        """Turn the discard pile, then the draw pile, then every hand (ruling 16)."""
        state = self.state
        state.side = (state.side + 1) % self.rules.spec.sides
        effects.turn_over(state.discard_pile, face_rules.flip_discard_pile)
        if state.full_mode:
            effects.turn_over(state.draw_pile, face_rules.flip_draw_pile)

    def _settle(self) -> None:
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
        if not state.penalties and state.phase == PLAYING:
            for seat, size in enumerate(state.hand_sizes):
                if size == 0:
                    self._finish_round(seat)
                    break

    def _warn_bluff(self, penalty: Penalty) -> None:
        penalty.bluff = False
        assert penalty.played_by is not None
        self._warn(
            penalty.line,
            "unchallenged-bluff",
            "bluff",
            f"{self._name(penalty.played_by)} played a wild draw card while holding {penalty.colour_before}, and was not challenged",
        )

    def _pay(self, seat: int, named: Card | None) -> None:
        """Draw one card of the penalty at the front of the queue."""
        state = self.state
        penalty = state.penalties[0]
        if penalty.bluff:
            self._warn_bluff(penalty)
        penalty.started = True
        penalty.challengeable = False
        card = self._take(seat, named)
        if penalty.into_discard:
            self._remove_from_hand(seat, card)
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
        self._settle()

    # -- drawing and passing

    def _draw(self, event: ev.Draw) -> None:
        state = self.state
        seat = self._seat(event.player)
        cards = self._cards(event.cards)
        if state.phase != PLAYING:
            self._not_in_play()
        if state.penalties:
            penalty = state.penalties[0]
            if penalty.player != seat:
                raise Reject(
                    "bad-penalty",
                    "penalty",
                    f"{self._name(penalty.player)} owes {penalty.describe()}, not {event.player}",
                    (self._name(penalty.player),),
                )
            self._close_window()
            self._penalty_draw(seat, cards)
            return
        if state.choose_by is not None:
            if state.choose_by == seat:
                raise Reject("bad-colour", "choose", f"{event.player} must choose the colour first")
            raise Reject("out-of-turn", "turn", f"{self._name(state.choose_by)} must choose the colour first")
        self._turn_gate(seat)
        if state.drew:
            raise Reject("wrong-draw", "turn-draw", f"{event.player} already drew this turn: play the card drawn or pass")
        if len(cards) > 1:
            raise Reject("wrong-draw", "turn-draw", f"a turn draw is one card, not {len(cards)}")
        if state.draw_pile_size() == 0:
            if self.can_reshuffle():
                raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
            if cards:
                raise Reject("wrong-draw", "empty-draw", "nothing is left to draw: the draw is written without cards")
            self._close_window()
            state.drew = True
            state.drawn_card = None
            return
        if not state.full_mode and not cards:
            raise Reject("wrong-draw", "draw-source", "in observed mode a draw names its card")
        self._close_window()
        state.drawn_card = self._take(seat, cards[0] if cards else None)
        state.drew = True

    def _penalty_draw(self, seat: int, cards: list[Card]) -> None:
        state = self.state
        if not cards:
            if not state.full_mode:
                raise Reject("wrong-draw", "draw-source", "in observed mode a draw names its cards")
            if state.draw_pile_size() == 0:
                raise Reject("wrong-draw", "draw-source", "the draw pile is empty: a 'reshuffle' must come first")
            while state.penalties and state.penalties[0].player == seat and state.draw_pile:
                self._pay(seat, None)
            return
        for card in cards:
            if not state.penalties or state.penalties[0].player != seat:
                raise Reject("bad-penalty", "penalty", f"{self._name(seat)} drew more cards than the penalty ({card} is one too many)")
            self._pay(seat, card)

    def _pass(self, event: ev.Pass) -> None:
        state = self.state
        seat = self._seat(event.player)
        if state.phase != PLAYING:
            self._not_in_play()
        if state.penalties:
            penalty = state.penalties[0]
            raise Reject("bad-penalty", "penalty", f"{self._name(penalty.player)} owes {penalty.describe()}: no passing")
        if state.choose_by is not None:
            if state.choose_by == seat:
                raise Reject("bad-colour", "choose", f"{event.player} must choose the colour first")
            raise Reject("out-of-turn", "turn", f"{self._name(state.choose_by)} must choose the colour first")
        self._turn_gate(seat)
        if not state.drew:
            raise Reject("out-of-turn", "pass", f"{event.player} may pass only right after their turn's draw", ("draws",))
        self._close_window()
        state.turn = state.next_player(seat)
        state.drew = False
        state.drawn_card = None

    def _choose(self, event: ev.Choose) -> None:
        state = self.state
        seat = self._seat(event.player)
        if state.phase != PLAYING or state.choose_by is None:
            raise Reject("bad-colour", "choose", "no colour is to be chosen now")
        catch = self._catch_owed()
        if catch is not None:
            raise Reject("bad-penalty", "penalty", f"{self._name(catch.player)} must first draw {catch.describe()} for the UNO catch")
        if seat != state.choose_by:
            raise Reject(
                "out-of-turn",
                "turn",
                f"{self._name(state.choose_by)} chooses the colour, not {event.player}",
                (self._name(state.choose_by),),
            )
        colours = self.rules.side_colours[state.side]
        if event.colour not in colours:
            raise Reject(
                "bad-colour",
                "choose",
                f"{event.colour} is not a colour of the {self.rules.spec.side_names[state.side]} side",
                tuple(sorted(colours)),
            )
        self._close_window()
        state.colour = event.colour
        state.choose_by = None

    # -- UNO, catches and challenges

    def _call(self, event: ev.Call) -> None:
        state = self.state
        seat = self._seat(event.player)
        if state.phase != PLAYING:
            raise Reject("invalid-call", "call", f"round {state.round_number} is over")
        catch = self._catch_owed()
        if catch is not None:
            raise Reject("bad-penalty", "penalty", f"{self._name(catch.player)} must first draw {catch.describe()} for the UNO catch")
        if state.hand_sizes[seat] != 1:
            raise Reject("invalid-call", "call", f"{event.player} holds {state.hand_sizes[seat]} cards, not one")
        if state.uno_player != seat:
            raise Reject("invalid-call", "call", f"{event.player}'s UNO window is closed")
        state.uno_called = True

    def _catch(self, event: ev.Catch) -> None:
        state = self.state
        seat = self._seat(event.player)
        target = self._seat(event.target)
        if state.phase != PLAYING:
            raise Reject("invalid-catch", "catch", f"round {state.round_number} is over")
        catch = self._catch_owed()
        if catch is not None:
            raise Reject("bad-penalty", "penalty", f"{self._name(catch.player)} must first draw {catch.describe()} for the UNO catch")
        reason = self._catch_invalid(seat, target)
        if reason:
            self._record_catch(event, "invalid", reason)
            raise Reject("invalid-catch", "catch", reason)
        state.uno_caught = True
        self._record_catch(event, "valid", f"{event.target} held one card and had not said UNO")
        if self.rules.catch_penalty:
            drawer = effects.catch_drawer(self.rules.spec.disputes.catcher_draws, seat, target)
            state.penalties.insert(0, Penalty(player=drawer, count=self.rules.catch_penalty, catch=True, line=event.line))
            self._settle()

    def _catch_invalid(self, seat: int, target: int) -> str:
        """Why a catch is not allowed now ('' when it is)."""
        state = self.state
        name = self._name(target)
        if seat == target:
            return f"{name} cannot catch themselves"
        if state.uno_player != target:
            if state.hand_sizes[target] != 1:
                return f"{name} holds {state.hand_sizes[target]} cards"
            return f"{name}'s UNO window has closed: the next move was made"
        if state.uno_called:
            return f"{name} said UNO"
        if state.uno_caught:
            return f"{name} was already caught"
        return ""

    def _record_catch(self, event: ev.Catch, ruling: str, reason: str) -> None:
        valid = ruling == "valid"
        penalty = self.state.penalties[0] if valid and self.state.penalties and self.state.penalties[0].catch else None
        drawer = effects.catch_drawer(self.rules.spec.disputes.catcher_draws, event.player, event.target)
        owed = Dispute.owed(drawer, self.rules.catch_penalty, None, 0) if valid else (None, None, None, 0)
        self._ruling(event, ruling, self.rules.check_rules["catch"].id, reason, owed, penalty=penalty)

    def _challenge(self, event: ev.Challenge) -> None:
        state = self.state
        seat = self._seat(event.player)
        target = self._seat(event.target)
        if state.phase != PLAYING:
            raise Reject("invalid-challenge", "challenge", f"round {state.round_number} is over")
        catch = self._catch_owed()
        if catch is not None:
            raise Reject("bad-penalty", "penalty", f"{self._name(catch.player)} must first draw {catch.describe()} for the UNO catch")
        penalty = state.penalties[0] if state.penalties else None
        reason = ""
        allowed: tuple[str, ...] = ()
        if penalty is not None and penalty.started and penalty.wild_draw:
            reason = f"{self._name(penalty.player)} has begun drawing the penalty: too late to challenge"
        elif penalty is None or not penalty.challengeable:
            reason = "no wild draw penalty is waiting to be challenged"
        elif penalty.player != seat:
            reason = f"only {self._name(penalty.player)}, who must draw, may challenge"
            allowed = (self._name(penalty.player),)
        elif penalty.played_by != target:
            assert penalty.played_by is not None
            reason = f"{event.target} did not play the wild draw card; {self._name(penalty.played_by)} did"
        if reason:
            self._ruling(event, "invalid", self.rules.check_rules["challenge"].id, reason)
            raise Reject("invalid-challenge", "challenge", reason, allowed)
        assert penalty is not None
        self._close_window()
        rules = self.rules
        penalty.challengeable = False
        penalty.bluff = False
        base_count = penalty.count
        evidence = tuple(card.token for card in penalty.evidence)
        ruling = "guilty" if penalty.guilty else "innocent"
        outcome = rules.spec.disputes.guilty if penalty.guilty else rules.spec.disputes.innocent
        effect = effects.ruling(outcome, seat, target, state.direction, state.player_count, rules.innocent_extra)
        drawer, extra, next_turn = effect.drawer, effect.extra, effect.following
        if drawer == penalty.player:  # the challenger still owes it: the same penalty, with the extra cards
            owed = penalty
            if penalty.until_colour is not None:
                penalty.extra += extra
            else:
                penalty.count += extra
            penalty.next_turn = next_turn
            penalty.loses_turn = not outcome.challenger_plays
        else:
            owed = Penalty(
                player=drawer,
                count=penalty.count + (extra if penalty.until_colour is None else 0),
                until_colour=penalty.until_colour,
                extra=extra if penalty.until_colour is not None else 0,
                loses_turn=not outcome.challenger_plays,
                next_turn=next_turn,
                line=event.line,
                played_by=target,
            )
            state.penalties[0] = owed
        if penalty.guilty:
            reason = f"{event.target} held {', '.join(evidence)} of {penalty.colour_before}, the colour in play"
        else:
            reason = f"{event.target} held no {penalty.colour_before} card"
        self._ruling(
            event,
            ruling,
            outcome.rule or rules.check_rules["challenge"].id,
            reason,
            Dispute.owed(self._name(drawer), base_count, penalty.until_colour, extra),
            evidence if penalty.guilty else (),
            loses_turn=not outcome.challenger_plays,
            penalty=owed,
        )
        self._settle()

    def _ruling(
        self,
        event: ev.Catch | ev.Challenge,
        ruling: str,
        rule: str,
        reason: str,
        owed: tuple[str | None, int | None, str | None, int] = (None, None, None, 0),
        evidence: tuple[str, ...] = (),
        loses_turn: bool = False,
        penalty: Penalty | None = None,
    ) -> None:
        """Record a ruling on a catch or a challenge (kept only when disputes are recorded, for adjudicate)."""
        kind = "catch" if isinstance(event, ev.Catch) else "challenge"
        player, cards, until_colour, extra = owed
        self._dispute(
            Dispute(
                event.line,
                kind,
                event.player,
                event.target,
                ruling,
                rule,
                player,
                cards,
                until_colour,
                extra,
                reason,
                evidence,
                loses_turn=loses_turn,
                penalty=penalty,
            )
        )

    # -- reshuffles and scores

    def _reshuffle(self, event: ev.Reshuffle) -> None:
        state = self.state
        cards = self._cards(event.cards)
        if state.phase != PLAYING:
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
                raise Reject("invalid-reshuffle", "reshuffle", "in observed mode a reshuffle names no cards")
            state.draw_counts = dict(Counter(rest))
            state.observed_size = len(rest)
        del state.discard_pile[: len(rest)]
        self._settle()

    def _score(self, event: ev.Score) -> None:
        state = self.state
        seat = self._seat(event.player)
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

    def round_points(self, seat: int, result: RoundResult) -> int:
        """What ``seat`` won in a finished round (``referee.scoring``)."""
        return scoring.round_points(self.state, self.rules, seat, result)

    def _finish_round(self, winner: int) -> None:
        state = self.state
        self.rounds[-1] = scoring.finish_round(state, self.rules, winner)
        state.uno_player = None
        state.uno_called = False
        state.uno_caught = False
