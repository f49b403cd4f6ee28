"""The rules as Z3 constraints: an abstract game state and one transition relation per event kind.

Compiled from the same ``Rules`` as the engine, by the same vocabulary: a
face's effects (reverse, skip, skip everyone, flip and its pile settings,
penalties and where their cards go, wild colours), the options (two-player
reverse, who chooses after a flip, how a reshuffle treats the top card) and
the table (hand size, deck size).

The state keeps what the invariants need, as the z3-notes advise: counts per
place (each hand, the draw pile, the discard pile) and the place of ONE
arbitrary card. Every event moves *a* card by its place, never by its name,
so a proof about one arbitrary card is a proof about all of them (the
symmetry argument; the engine/Z3 agreement test checks the events really are
uniform). Quantities are ``Int`` (never bit-vectors), every query has a
timeout and a fixed seed.
"""

from __future__ import annotations

from typing import Any

import z3

from referee.cards import FaceClass
from referee.proof.faces import behaviour
from referee.records import dataclass
from referee.rules import effects
from referee.rules.compiler import FaceRules, Rules
from referee.spec.vocabulary import FlipColourChooser

NONE = -1
OWED_UNTIL_COLOUR = -2  # ``owed``: cards until one of the chosen colour (the figure proof.claims.figures.UNTIL_COLOUR)


@dataclass
class State:
    """One abstract state for ``n`` players; ``card`` is the place of one arbitrary card."""

    n: int
    hands: list[Any]
    draw: Any
    discard: Any
    card: Any
    side: Any
    turn: Any
    direction: Any
    colour: Any
    pending: Any
    drew: Any
    window: Any
    called: Any
    owed_seat: Any  # who owes the penalty the last play (or the start card) gave; NONE for none
    owed: Any  # how many cards: a number, OWED_UNTIL_COLOUR for draw-until-colour, 0 for none
    # What a challenge or a catch reads and sets. No invariant reads them: a transition that does not set them
    # leaves them free (an over-approximation, sound for the invariants); the claims read them one step after
    # the play or the catch that sets them.
    extra: Any  # cards owed after the colour is found (draw-until-colour), added by a ruled challenge
    after: Any  # who moves once the owed cards are drawn
    challengeable: Any  # the penalty owed may be challenged
    played_by: Any  # who played the card that gave the penalty
    caught_seat: Any  # who draws for a catch; NONE for none
    caught_owed: Any  # how many

    @staticmethod
    def make(n: int, tag: str) -> State:
        return State(
            n=n,
            hands=[z3.Int(f"hand{i}_{tag}") for i in range(n)],
            draw=z3.Int(f"draw_{tag}"),
            discard=z3.Int(f"discard_{tag}"),
            card=z3.Int(f"card_{tag}"),
            side=z3.Int(f"side_{tag}"),
            turn=z3.Int(f"turn_{tag}"),
            direction=z3.Int(f"direction_{tag}"),
            colour=z3.Int(f"colour_{tag}"),
            pending=z3.Bool(f"pending_{tag}"),
            drew=z3.Bool(f"drew_{tag}"),
            window=z3.Int(f"window_{tag}"),
            called=z3.Bool(f"called_{tag}"),
            owed_seat=z3.Int(f"owed_seat_{tag}"),
            owed=z3.Int(f"owed_{tag}"),
            extra=z3.Int(f"extra_{tag}"),
            after=z3.Int(f"after_{tag}"),
            challengeable=z3.Bool(f"challengeable_{tag}"),
            played_by=z3.Int(f"played_by_{tag}"),
            caught_seat=z3.Int(f"caught_seat_{tag}"),
            caught_owed=z3.Int(f"caught_owed_{tag}"),
        )

    @property
    def draw_place(self) -> int:
        return self.n

    @property
    def discard_place(self) -> int:
        return self.n + 1

    def count_at(self, place: Any) -> Any:
        expression = self.discard
        expression = z3.If(place == self.draw_place, self.draw, expression)
        for seat in range(self.n - 1, -1, -1):
            expression = z3.If(place == seat, self.hands[seat], expression)
        return expression

    def total(self) -> Any:
        return z3.Sum(*self.hands, self.draw, self.discard)

    def hand(self, seat: Any) -> Any:
        if isinstance(seat, int):
            return self.hands[seat]
        expression = self.hands[-1]
        for index in range(self.n - 2, -1, -1):
            expression = z3.If(seat == index, self.hands[index], expression)
        return expression

    def values(self, model: z3.ModelRef) -> dict[str, Any]:
        def value(term: Any) -> Any:
            evaluated = model.eval(term, model_completion=True)
            return z3.is_true(evaluated) if z3.is_bool(evaluated) else evaluated.as_long()

        return {
            "hands": [value(h) for h in self.hands],
            "draw": value(self.draw),
            "discard": value(self.discard),
            "card": value(self.card),
            "side": value(self.side),
            "turn": value(self.turn),
            "direction": value(self.direction),
            "colour": value(self.colour),
            "pending": value(self.pending),
            "window": value(self.window),
            "called": value(self.called),
            "owed_seat": value(self.owed_seat),
            "owed": value(self.owed),
            "extra": value(self.extra),
            "after": value(self.after),
            "challengeable": value(self.challengeable),
            "played_by": value(self.played_by),
            "caught_seat": value(self.caught_seat),
            "caught_owed": value(self.caught_owed),
        }


class Model:
    """Transition relations and invariants for one compiled spec and one player count."""

    def __init__(self, rules: Rules, n: int, cards: int) -> None:
        self.rules = rules
        self.n = n
        self.cards = cards
        colours = [colour for side_colours in rules.spec.colours for colour in side_colours]
        self.colour_index = {colour: index for index, colour in enumerate(colours)}
        self.side_colours = [[self.colour_index[c] for c in side_colours] for side_colours in rules.spec.colours]
        self.signatures = self._signatures()

    # -- vocabulary helpers

    def colour_of(self, face_rules: FaceRules) -> int:
        colour = face_rules.face.colour
        return self.colour_index[colour] if colour is not None else NONE

    def in_side(self, colour: Any, side: Any) -> Any:
        return z3.Or(*[z3.And(side == index, z3.Or(*[colour == c for c in colours])) for index, colours in enumerate(self.side_colours)])

    @staticmethod
    def fingerprint(rules: Rules) -> tuple[Any, ...]:
        """Everything the model is compiled from: specs with equal fingerprints have the same transition relation."""
        spec = rules.spec
        return (
            tuple(sorted({behaviour(f) for f in rules.faces.values()}, key=repr)),
            spec.colours,
            spec.hand_size,
            spec.start_side,
            len(rules.deck),
            rules.two_player_reverse_skips,
            rules.flip_chooser,
            rules.reshuffle_keeps_top,
            rules.catch_penalty,
            rules.innocent_extra,
            spec.disputes,
            tuple(sorted((owed, tuple(sorted(allowed))) for owed, allowed in (rules.stacking or {}).items())),
            rules.seven_swaps,
            rules.zero_rotates,
            rules.jump_in,
            tuple(sorted(rules.jump_in_kinds or ())),
            rules.draw_until_playable,
            rules.forced_play,
            rules.doubles,
        )

    def _signatures(self) -> list[FaceRules]:
        """One face for each distinct behaviour: the proofs need not tell two red 7s apart (but under seven swaps or
        zero rotates, a 7 or a 0 from the other numbers)."""
        seen: dict[tuple[Any, ...], FaceRules] = {}
        for face_rules in self.rules.faces.values():
            seen.setdefault((*behaviour(face_rules), self.rotates(face_rules)), face_rules)
        return list(seen.values())

    def rotates(self, face_rules: FaceRules) -> bool:
        """Whether playing this face passes every hand on (pass-hands; house rule zero rotates: a 0)."""
        return face_rules.passes_hands

    def seat(self, expression: Any) -> Any:
        return z3.And(expression >= 0, expression < self.n)

    def next_seat(self, seat: Any, direction: Any, steps: int = 1) -> Any:
        return effects.next_seat(seat, direction, self.n, steps)

    # -- the same-except frame

    def frame(self, pre: State, post: State, changed: set[str]) -> list[Any]:
        constraints = []
        names = (
            "draw",
            "discard",
            "card",
            "side",
            "turn",
            "direction",
            "colour",
            "pending",
            "drew",
            "window",
            "called",
            "owed_seat",
            "owed",
        )
        for name in names:
            if name not in changed:
                constraints.append(getattr(post, name) == getattr(pre, name))
        if "hands" not in changed:
            constraints.extend(a == b for a, b in zip(post.hands, pre.hands, strict=True))
        return constraints

    # -- transitions, one per event kind

    def play(
        self,
        pre: State,
        post: State,
        seat: Any,
        face_rules: FaceRules,
        face_colour: Any,
        chosen: Any,
        uncovered: Any,
        moved: Any,
        count: Any = 1,
    ) -> Any:
        """``seat`` plays a face with ``face_rules`` (its colour ``face_colour``); ``moved``: the arbitrary card is the one
        played (or one of them). ``count``: the cards played together (house rule doubles: identical number cards, on
        the player's own turn, acting once; 1 otherwise)."""
        n = self.n
        rules = self.rules
        everyone_holds = z3.And(*[hand >= 1 for hand in pre.hands])  # else the round ends once the penalties are drawn
        stacked = pre.owed_seat == seat if face_rules.stackable else z3.BoolVal(False)  # passing the penalty on
        in_turn = z3.Or(pre.turn == seat, z3.And(pre.drew, self.next_seat(pre.turn, pre.direction) == seat))
        # Jump-in: anyone may play out of turn (an over-approximation of "a card identical to the top card").
        constraints = [
            self.seat(seat),
            pre.side == face_rules.face.side,
            pre.hand(seat) >= count,
            z3.Or(everyone_holds, stacked),
            z3.Not(pre.pending),
            z3.BoolVal(True) if rules.jump_in else in_turn,
            post.draw == pre.draw,
            post.discard == pre.discard + count,
            z3.Implies(moved, pre.card == seat),
            z3.Implies(z3.And(pre.card == seat, pre.hand(seat) == count), moved),
            z3.Not(post.drew),
            z3.Not(post.called),
        ]
        if not isinstance(count, int):  # doubles: one card, or (a number face, on the player's own turn) several
            together = face_rules.face.face_class is FaceClass.NUMBER
            after_draw = z3.And(pre.drew, self.next_seat(pre.turn, pre.direction) == seat)  # the next player's own turn
            own_turn = z3.And(z3.Or(z3.And(pre.turn == seat, z3.Not(pre.drew)), after_draw), z3.Not(stacked))
            constraints.append(z3.Or(count == 1, z3.And(count >= 2, z3.BoolVal(together), own_turn)))
        after = [z3.If(seat == index, pre.hands[index] - count, pre.hands[index]) for index in range(n)]  # the cards played
        if self.rotates(face_rules):
            # Zero rotates, when the player still holds cards: every hand passes on (effects.rotation_source), the
            # arbitrary card with the hand that holds it, and every UNO window closes.
            # The direction is 1 or -1: one concrete case each, so every hand is a plain term (fast to prove).
            rotating = pre.hand(seat) >= count + 1
            for index in range(n):
                left, right = (after[effects.rotation_source(index, way, n)] for way in (1, -1))
                constraints.append(post.hands[index] == z3.If(rotating, z3.If(pre.direction == 1, left, right), after[index]))
            in_hand = z3.And(pre.card >= 0, pre.card < n)
            target = z3.If(pre.direction == 1, effects.rotation_target(pre.card, 1, n), effects.rotation_target(pre.card, -1, n))
            rotated_place = z3.If(z3.And(rotating, in_hand), target, pre.card)
            constraints += [
                post.card == z3.If(moved, pre.discard_place, rotated_place),
                post.window == z3.If(z3.And(pre.hand(seat) == count + 1, z3.Not(rotating)), seat, NONE),
            ]
        else:
            constraints += [post.hands[index] == after[index] for index in range(n)]
            constraints += [
                post.card == z3.If(moved, pre.discard_place, pre.card),
                post.window == z3.If(pre.hand(seat) == count + 1, seat, NONE),
            ]
        effect = effects.play(face_rules, seat, pre.direction, n, rules.two_player_reverse_skips)
        following = effect.following
        constraints.append(post.direction == effect.direction)
        constraints.append(post.side == (1 - pre.side if face_rules.flip else pre.side))
        constraints.append(post.turn == following)
        constraints += self.owes(post, face_rules, effect.victim, z3.If(stacked, pre.owed, 0) if face_rules.stackable else 0)
        constraints += [
            post.after == (self.next_seat(effect.victim, effect.direction) if effect.victim is not None else NONE),
            post.challengeable == z3.BoolVal(face_rules.challengeable and effect.victim is not None),
            post.played_by == seat,
            post.extra == 0,
        ]
        if face_rules.choose_colour:
            constraints += [self.in_side(chosen, pre.side), post.colour == chosen, z3.Not(post.pending)]
        elif face_rules.flip:
            flipped = effects.after_flip(
                uncovered, uncovered == NONE, post.hand(seat), rules.flip_chooser is not FlipColourChooser.NOBODY, z3.And
            )
            constraints += [
                z3.Or(uncovered == NONE, self.in_side(uncovered, post.side)),
                post.colour == flipped.colour,
                post.pending == flipped.names,
            ]
        else:
            constraints += [self.in_side(face_colour, pre.side), post.colour == face_colour, z3.Not(post.pending)]
        return z3.And(*constraints)

    def owes(self, post: State, face_rules: FaceRules, victim: Any, stacked_on: Any = 0) -> list[Any]:
        """The penalty a face gives: ``victim`` owes its cards (a count, or until a colour; with option stacking, added
        to the penalty it was played on), or nobody owes anything."""
        if victim is None or not face_rules.gives_penalty:
            return [post.owed_seat == NONE, post.owed == 0]
        if face_rules.draw_until_colour:
            return [post.owed_seat == victim, post.owed == OWED_UNTIL_COLOUR]
        return [post.owed_seat == victim, post.owed == effects.stacked_total(face_rules.draw, stacked_on)]

    def draw(
        self,
        pre: State,
        post: State,
        seat: Any,
        count: Any,
        penalty: bool,
        into_discard: bool,
        completes: Any,
        next_turn: Any,
        moved: Any,
    ) -> Any:
        """``seat`` draws ``count`` cards, for the turn or for a penalty (into a hand, or the discard pile)."""
        constraints = [
            self.seat(seat),
            count >= 0,
            pre.draw >= count,
            post.draw == pre.draw - count,
            pre.hand(seat) >= 1,
            z3.Implies(moved, z3.And(pre.card == pre.draw_place, count >= 1)),
            z3.Implies(z3.And(pre.card == pre.draw_place, pre.draw == count, count >= 1), moved),
        ]
        if into_discard:
            constraints += [post.discard == pre.discard + count, post.card == z3.If(moved, pre.discard_place, pre.card)]
            constraints += [a == b for a, b in zip(post.hands, pre.hands, strict=True)]
        else:
            constraints += [post.discard == pre.discard, post.card == z3.If(moved, seat, pre.card)]
            for index in range(self.n):
                constraints.append(post.hands[index] == z3.If(seat == index, pre.hands[index] + count, pre.hands[index]))
        if penalty:
            constraints += [
                self.seat(next_turn),
                post.turn == z3.If(completes, next_turn, pre.turn),
                post.drew == z3.If(completes, z3.BoolVal(False), pre.drew),
                # once drawn, nobody owes it (so that a later play by its drawer is not read as a stack on it)
                post.owed_seat == z3.If(completes, NONE, pre.owed_seat),
                post.owed == z3.If(completes, 0, pre.owed),
            ]
        if penalty:
            pass  # the turn and the owed cards above
        elif self.rules.draw_until_playable:  # the turn's draw goes on, a card or more a line, until a playable one
            constraints += [
                post.turn == seat,
                post.drew,
                z3.Or(pre.turn == seat, z3.And(pre.drew, self.next_seat(pre.turn, pre.direction) == seat)),
            ]
        else:
            constraints += [
                count <= 1,
                post.turn == seat,
                post.drew,
                z3.Or(pre.turn == seat, z3.And(pre.drew, self.next_seat(pre.turn, pre.direction) == seat)),
                z3.Not(z3.And(pre.drew, pre.turn == seat)),
            ]
        if not penalty:
            constraints += [post.owed_seat == pre.owed_seat, post.owed == pre.owed]
        constraints += [post.window == NONE, z3.Not(post.called)]
        changed = {"hands", "draw", "discard", "card", "turn", "drew", "window", "called", "owed_seat", "owed"}
        constraints += self.frame(pre, post, changed)
        return z3.And(*constraints)

    def settle(self, pre: State, post: State, settled: Any, settled_turn: Any) -> list[Any]:
        """A penalty that ends during an event (drawn, or dropped with nothing left) passes the turn on."""
        return [
            self.seat(settled_turn),
            post.turn == z3.If(settled, settled_turn, pre.turn),
            post.drew == z3.If(settled, z3.BoolVal(False), pre.drew),
        ]

    def reshuffle(self, pre: State, post: State, moved: Any, settled: Any, settled_turn: Any) -> Any:
        """The discard pile (less its top card, unless the spec says otherwise) becomes the draw pile."""
        constraints = [pre.draw == 0, *self.settle(pre, post, settled, settled_turn)]
        if self.rules.reshuffle_keeps_top:
            constraints += [
                pre.discard >= 1,
                post.draw == pre.discard - 1,
                post.discard == 1,
                post.card == z3.If(moved, pre.draw_place, pre.card),
                z3.Implies(moved, pre.card == pre.discard_place),
                z3.Implies(z3.And(pre.card == pre.discard_place, pre.discard == 1), z3.Not(moved)),
            ]
        else:
            constraints += [
                post.draw == pre.discard,
                post.discard == 0,
                post.card == z3.If(pre.card == pre.discard_place, pre.draw_place, pre.card),
            ]
        constraints += self.frame(pre, post, {"draw", "discard", "card", "turn", "drew"})
        return z3.And(*constraints)

    def pass_turn(self, pre: State, post: State, seat: Any) -> Any:
        return z3.And(
            self.seat(seat),
            pre.turn == seat,
            pre.drew,
            post.turn == self.next_seat(seat, pre.direction),
            z3.Not(post.drew),
            post.window == NONE,
            z3.Not(post.called),
            *self.frame(pre, post, {"turn", "drew", "window", "called"}),
        )

    def choose(self, pre: State, post: State, colour: Any) -> Any:
        return z3.And(
            pre.pending,
            self.in_side(colour, pre.side),
            post.colour == colour,
            z3.Not(post.pending),
            post.window == NONE,
            z3.Not(post.called),
            *self.frame(pre, post, {"colour", "pending", "window", "called"}),
        )

    def unchanged(self, pre: State, post: State, settled: Any, settled_turn: Any, closes_window: Any) -> Any:
        """Catches, challenges and score claims move no card; a challenge closes the UNO window and may settle a penalty."""
        return z3.And(
            *self.settle(pre, post, settled, settled_turn),
            post.window == z3.If(closes_window, NONE, pre.window),
            post.called == z3.And(z3.Not(closes_window), pre.called),
            *self.frame(pre, post, {"turn", "drew", "window", "called"}),
        )

    def challenge(self, pre: State, post: State, challenger: Any, guilty: Any) -> Any:
        """The player who owes a challengeable penalty challenges it; the spec's ``disputes`` rule on it by ``guilty``
        (the card's player held the colour in play): who draws, how many, who moves after (``effects.ruling``)."""
        disputes = self.rules.spec.disputes

        def ruled(outcome: Any) -> Any:
            effect = effects.ruling(outcome, challenger, pre.played_by, pre.direction, self.n, self.rules.innocent_extra)
            until = pre.owed == OWED_UNTIL_COLOUR
            return z3.And(
                post.owed_seat == effect.drawer,
                post.owed == z3.If(until, pre.owed, pre.owed + effect.extra),
                post.extra == z3.If(until, pre.extra + effect.extra, pre.extra),
                post.after == effect.following,
            )

        return z3.And(
            self.seat(challenger),
            self.seat(pre.played_by),
            pre.played_by != challenger,
            pre.challengeable,
            pre.owed_seat == challenger,
            z3.If(guilty, ruled(disputes.guilty), ruled(disputes.innocent)),
            z3.Not(post.challengeable),
            post.played_by == pre.played_by,
            post.window == NONE,
            z3.Not(post.called),
            *self.frame(pre, post, {"owed_seat", "owed", "window", "called"}),
        )

    def catch(self, pre: State, post: State, catcher: Any, caught: Any) -> Any:
        """A valid catch: ``caught`` holds one card in an open UNO window without having said UNO; the spec's
        ``disputes`` say who draws the option uno-catch-penalty, at once; the turn stays where it is."""
        drawer = effects.catch_drawer(self.rules.spec.disputes.catcher_draws, catcher, caught)
        return z3.And(
            self.seat(catcher),
            catcher != caught,
            pre.window == caught,
            z3.Not(pre.called),
            post.caught_seat == drawer,
            post.caught_owed == self.rules.catch_penalty,
            *self.frame(pre, post, set()),
        )

    def swap(self, pre: State, post: State, swapper: Any, other: Any) -> Any:
        """House rule seven swaps: ``swapper`` (who played a 7; over-approximated as anyone) and ``other`` exchange
        whole hands (effects.swap_source), the arbitrary card with the hand that holds it; the UNO window closes."""
        # One concrete case per pair of seats, so that every hand is a plain term (fast to prove).
        cases = []
        for first in range(self.n):
            for second in range(self.n):
                if first != second:
                    hands = [
                        post.hands[index] == pre.hands[effects.swap_source(index, first, second, effects.python_choice)]
                        for index in range(self.n)
                    ]
                    place = effects.swap_source(pre.card, first, second, z3.If)
                    cases.append(z3.And(swapper == first, other == second, post.card == place, *hands))
        constraints = [z3.Or(*cases)]
        constraints += [
            post.window == NONE,
            z3.Not(post.called),
            *self.frame(pre, post, {"hands", "card", "window", "called"}),
        ]
        return z3.And(*constraints)

    def shuffle_hands(self, pre: State, post: State, shuffler: Any) -> Any:
        """A card that shuffles hands: ``shuffler`` (who played it; over-approximated as anyone) deals every card of
        every hand anew, one at a time from the shuffler's left (effects.shuffle_share); the arbitrary card, if in a
        hand, goes to any hand dealt a card; the UNO window closes. It comes right after the card was played with
        the colour named on its line (a wild's): the colour in play is one of the side, and none is being chosen."""
        total = z3.Sum(*pre.hands)
        base = (total - total % self.n) / self.n  # an exact division: Z3's ``/`` of integers, no fresh term
        in_hand = z3.And(pre.card >= 0, pre.card < self.n)
        return z3.And(
            self.seat(shuffler),
            z3.Not(pre.pending),
            self.in_side(pre.colour, pre.side),
            *[post.hands[index] == effects.shuffle_share(index, shuffler, total, base, self.n, z3.If) for index in range(self.n)],
            z3.If(in_hand, z3.And(self.seat(post.card), post.hand(post.card) >= 1), post.card == pre.card),
            post.window == NONE,
            z3.Not(post.called),
            *self.frame(pre, post, {"hands", "card", "window", "called"}),
        )

    def call(self, pre: State, post: State, seat: Any) -> Any:
        """The player whose UNO window is open says UNO."""
        return z3.And(pre.window == seat, post.called, *self.frame(pre, post, {"called"}))

    def deal(self, state: State, dealer: Any | None = None) -> Any:
        """A state right after the deal and the card turned up: one case per start face, compiled from its ``at-start``."""
        if dealer is None:
            dealer = z3.Int(f"dealer_{id(state)}")
        starts = [self.deal_for(state, face_rules, dealer) for face_rules in self.start_faces()]
        return z3.And(self.dealt(state), self.seat(dealer), z3.Or(*starts) if starts else z3.BoolVal(False))

    def start_faces(self) -> list[FaceRules]:
        """One face of each behaviour on the side a round starts on."""
        start = self.rules.spec.start_side
        return [face_rules for face_rules in self.signatures if face_rules.face.side == start]

    def dealt(self, state: State) -> Any:
        """What every deal has: full hands, the rest in the draw pile, one card turned up, nothing drawn or called."""
        hand_size = self.rules.spec.hand_size
        deck = len(self.rules.deck)
        return z3.And(
            *[hand == hand_size for hand in state.hands],
            state.draw == deck - self.n * hand_size - 1,
            state.discard == 1,
            z3.Not(state.drew),
            state.window == NONE,
            z3.Not(state.called),
            state.card >= 0,
            state.card <= self.n + 1,
            state.count_at(state.card) >= 1,
        )

    def deal_for(self, state: State, face_rules: FaceRules, dealer: Any) -> Any:
        """The state after ``face_rules``'s face is turned up, by its start actions (rulings 4 to 10).

        Any face of the same behaviour could be turned up, so a coloured face's
        colour is any colour of its side. A face that goes back to the draw pile
        is never the start card: its case is empty.
        """
        at_start = face_rules.at_start
        if "return-to-draw-pile" in at_start:
            return z3.BoolVal(False)
        start_side = self.rules.spec.start_side
        left = self.next_seat(dealer, 1)
        face_colour = z3.Int(f"start_colour_{face_rules.face.token}_{id(state)}")
        coloured = self.in_side(face_colour, start_side) if face_rules.face.colour is not None else face_colour == NONE
        if "flip" in at_start:
            # Everything turns at once; the uncovered face does nothing; a wild uncovered gets its colour named.
            uncovered = z3.Int(f"start_uncovered_{face_rules.face.token}_{id(state)}")
            flipped = effects.after_flip(uncovered, uncovered == NONE, self.rules.spec.hand_size, True, z3.And)
            return z3.And(
                state.side == 1 - start_side,
                state.direction == 1,
                state.turn == left,
                z3.Or(uncovered == NONE, self.in_side(uncovered, state.side)),
                state.colour == flipped.colour,
                state.pending == flipped.names,
                state.owed_seat == NONE,
                state.owed == 0,
            )
        start = effects.start(face_rules, dealer, self.n, self.rules.two_player_reverse_skips)
        constraints = [coloured]
        if "choose-colour" in at_start:
            constraints += [state.colour == NONE, state.pending]
        else:
            constraints += [state.colour == face_colour, z3.Not(state.pending)]
        side: Any = start_side
        if "apply-effects" in at_start and face_rules.flip:
            # As if the dealer played the Flip: a wild uncovered gets its colour named, as after any Flip
            # (by the option flip-colour-chooser; with 'nobody' it stays without a colour).
            side = 1 - start_side
            named = z3.Not(state.pending) if self.rules.flip_chooser is FlipColourChooser.NOBODY else state.pending
            uncovered_wild = z3.And(state.colour == NONE, named)
            constraints = [z3.Or(z3.And(self.in_side(state.colour, 1 - start_side), z3.Not(state.pending)), uncovered_wild)]
        return z3.And(
            *constraints,
            *self.owes(state, face_rules, start.victim),
            state.side == side,
            state.direction == start.direction,
            state.turn == start.turn,
        )

    def step(self, pre: State, post: State, tag: str) -> Any:
        """Any one event, with every parameter symbolic: the disjunction of all transitions."""
        seat = z3.Int(f"seat_{tag}")
        count = z3.Int(f"count_{tag}")
        chosen = z3.Int(f"chosen_{tag}")
        uncovered = z3.Int(f"uncovered_{tag}")
        face_colour = z3.Int(f"face_colour_{tag}")
        moved = z3.Bool(f"moved_{tag}")
        completes = z3.Bool(f"completes_{tag}")
        next_turn = z3.Int(f"next_turn_{tag}")
        played = z3.Int(f"played_{tag}") if self.rules.doubles else 1  # the cards of one play (house rule doubles)
        options = [self.play(pre, post, seat, f, face_colour, chosen, uncovered, moved, played) for f in self.signatures]
        for into_discard in sorted({False} | {f.penalty_into_discard for f in self.signatures}):
            options.append(self.draw(pre, post, seat, count, True, into_discard, completes, next_turn, moved))
        options.append(self.draw(pre, post, seat, count, False, False, completes, next_turn, moved))
        options += [
            self.reshuffle(pre, post, moved, completes, next_turn),
            self.pass_turn(pre, post, seat),
            self.choose(pre, post, chosen),
            self.unchanged(pre, post, completes, next_turn, moved),
            self.challenge(pre, post, seat, moved),
            self.catch(pre, post, seat, next_turn),
            self.call(pre, post, seat),
        ]
        if any(face_rules.swaps_hands for face_rules in self.rules.faces.values()):  # swap-hands; seven swaps: a 7
            options.append(self.swap(pre, post, seat, next_turn))
        if any(face_rules.shuffles_hands for face_rules in self.rules.faces.values()):  # shuffle-hands: a Wild Shuffle Hands
            options.append(self.shuffle_hands(pre, post, seat))
        return z3.Or(*options)

    # -- invariants over one state

    def conservation(self, state: State) -> Any:
        return z3.And(
            *[hand >= 0 for hand in state.hands],
            state.draw >= 0,
            state.discard >= 0,
            state.total() == self.cards,
            state.card >= 0,
            state.card <= self.n + 1,
            state.count_at(state.card) >= 1,
        )

    def turn_valid(self, state: State) -> Any:
        return z3.And(self.seat(state.turn), z3.Or(state.direction == 1, state.direction == -1))

    def colour_of_side(self, state: State) -> Any:
        """While the round is being played (no hand is empty) the colour in play belongs to the side, or is being chosen."""
        round_over = z3.Or(*[hand == 0 for hand in state.hands])
        return z3.And(
            state.side >= 0, state.side < len(self.side_colours), z3.Or(state.pending, self.in_side(state.colour, state.side), round_over)
        )

    def uno_window(self, state: State) -> Any:
        """An open UNO window belongs to a player who holds exactly one card."""
        return z3.Or(state.window == NONE, z3.And(self.seat(state.window), state.hand(state.window) == 1))

    def discard_has_top(self, state: State) -> Any:
        return z3.And(state.discard >= 1, state.draw >= 0)


def solver(timeout_ms: int) -> z3.Solver:
    """A solver with a timeout and fixed seeds: the same question gets the same answer."""
    z3.set_param("smt.random_seed", 7)
    z3.set_param("sat.random_seed", 7)
    # Ctrl-C is the command's (exit 130, silent): Z3 would otherwise catch it, print and answer unknown.
    z3.set_param("ctrl_c", False)
    result = z3.Solver()
    result.set("timeout", timeout_ms)
    result.set("random_seed", 7)
    return result
