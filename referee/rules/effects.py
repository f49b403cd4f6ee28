"""What a face, a ruled challenge and a catch do to the turn, written once: read by the engine (on seats) and by the Z3 model (on terms).

Seats and directions are Python ints in the engine and Z3 integer terms in
the model (``referee.proof.model``). These functions use only ``+``, ``*``,
unary ``-`` and ``%`` on them, which mean the same on both, and branch only
on the face's compiled rules and the player count, which are concrete in
both. So the engine's step and the model's transition read one definition of
who moves next, which way play goes and who owes a penalty, after a play
(ruling 14) and after the card turned up at the start (rulings 4 to 10); the
engine/Z3 agreement test checks that the two readings agree.
"""

from __future__ import annotations

from typing import Any

from referee.records import dataclass
from referee.rules.compiler import FaceRules


def next_seat(seat: Any, direction: Any, players: int, steps: int = 1) -> Any:
    """The seat ``steps`` places from ``seat`` in ``direction`` (1 left, -1 right)."""
    return (seat + direction * steps) % players


@dataclass(frozen=True)
class TurnEffect:
    """After a face: the direction of play, who moves next, and who owes its penalty (None: nobody)."""

    direction: Any
    following: Any
    victim: Any | None
    moves_turn: bool  # at the start, only a skip or a penalty moves the turn away from the first player


def play(face_rules: FaceRules, seat: Any, direction: Any, players: int, two_player_reverse_skips: bool) -> TurnEffect:
    """``seat`` plays a face: Reverse turns the direction (and with two players may act as a Skip), Skip and
    Skip Everyone pass over players, a penalty falls on the next player, who moves next to draw it."""
    if face_rules.reverse:
        direction = -direction
        following = seat if players == 2 and two_player_reverse_skips else next_seat(seat, direction, players)
    elif face_rules.skip_everyone:
        following = seat
    elif face_rules.skip:
        following = next_seat(seat, direction, players, 1 + face_rules.skip)
    else:
        following = next_seat(seat, direction, players)
    victim = None
    if face_rules.gives_penalty:
        victim = next_seat(seat, direction, players)
        following = victim
    moves = face_rules.gives_penalty or bool(face_rules.skip) or face_rules.skip_everyone
    return TurnEffect(direction, following, victim, moves)


@dataclass(frozen=True)
class StartEffect:
    """After the card turned up: the direction, who acts first (who draws first, for a penalty), who owes it."""

    direction: Any
    turn: Any
    victim: Any | None


def flipped_position(position: Any, length: Any, reverses: bool) -> Any:
    """Where the card at ``position`` (0 is the bottom) of a pile of ``length`` cards lies after a Flip: a pile the
    Flip turns over (its ``flip`` effect's ``draw-pile``/``discard-pile`` setting) is reversed (ruling 16)."""
    return length - 1 - position if reverses else position


def turn_over(pile: list[Any], reverses: bool) -> None:
    """Turn a pile over in place: the engine's concrete reading of ``flipped_position`` (a reversal, done by
    ``list.reverse`` on the hot path; ``tests/test_agreement.py`` checks the two agree for every length)."""
    if reverses:
        pile.reverse()


@dataclass(frozen=True)
class FlipColour:
    """After a Flip (played, or turned up at the start): the colour in play is the uncovered face's, and
    ``names`` says whether a colour must still be named (by whom is the caller's: an option)."""

    colour: Any
    names: Any


def every(*values: bool) -> bool:
    """The conjunction of concrete values: what the engine passes as ``after_flip``'s ``every`` (the model passes ``z3.And``)."""
    return all(values)


def after_flip(uncovered: Any, uncovered_wild: Any, hand_after: Any, someone_names: bool, every: Any) -> FlipColour:
    """The uncovered face's colour is in play; a wild uncovered has none, so one is named while the round goes on
    (the flipper still holds cards) and the spec gives someone to name it. ``every`` is the conjunction of the
    caller's values: ``all`` of Python booleans in the engine, ``z3.And`` in the model."""
    return FlipColour(uncovered, every(uncovered_wild, hand_after > 0, someone_names))


def first_to_act(at_start: frozenset[str], dealer: Any, players: int) -> tuple[Any, Any]:
    """The direction and the first player after the card turned up, before any ``apply-effects``."""
    direction: Any = 1
    turn = next_seat(dealer, 1, players)  # the player left of the dealer
    if "reverse" in at_start:
        direction = -direction
    if "dealer-first" in at_start:
        turn = dealer
    return direction, turn


def start(face_rules: FaceRules, dealer: Any, players: int, two_player_reverse_skips: bool) -> StartEffect:
    """The card turned up at the start, by its ``at-start`` actions: ``first_to_act``, then ``apply-effects`` as
    if the dealer had played it (a ``flip`` start is handled where the piles are: everything turns and the
    uncovered face does nothing)."""
    at_start = face_rules.at_start
    direction, turn = first_to_act(at_start, dealer, players)
    victim = None
    if "apply-effects" in at_start:  # as if the dealer had played it
        effect = play(face_rules, dealer, direction, players, two_player_reverse_skips)
        direction = effect.direction
        victim = effect.victim
        if effect.moves_turn:
            turn = effect.following
    return StartEffect(direction, turn, victim)


@dataclass(frozen=True)
class RulingEffect:
    """After a challenge is ruled: who draws, how many cards on top of the penalty, who moves once they are drawn."""

    drawer: Any
    extra: int
    following: Any


def ruling(outcome: Any, challenger: Any, player: Any, direction: Any, players: int, innocent_extra: int) -> RulingEffect:
    """A challenge of ``player``'s wild draw card by ``challenger``, ruled by ``outcome`` (the spec's ``disputes``:
    a ``referee.spec.model.Outcome``): the card's player or the challenger draws the penalty, with or without the option
    challenge-innocent-extra, and then the challenger plays or loses the turn (rules challenge.guilty and
    challenge.innocent)."""
    drawer = player if outcome.by_player else challenger
    extra = innocent_extra if outcome.with_extra else 0
    following = challenger if outcome.challenger_plays else next_seat(challenger, direction, players)
    return RulingEffect(drawer, extra, following)


def catch_drawer(catcher_draws: bool, catcher: Any, caught: Any) -> Any:
    """Who draws the option uno-catch-penalty after a valid catch (rule uno.catch): the caught player, unless the
    spec's ``disputes: catch`` says the catcher."""
    return catcher if catcher_draws else caught


# -- the house rules (docs/house-rules.md): what a swap, a rotation and a stack do, read by the engine and the model


def swap_source(seat: Any, swapper: Any, other: Any, choose: Any) -> Any:
    """After ``swapper`` swaps hands with ``other`` (house rule seven swaps): whose hand ``seat`` now holds.
    ``choose(condition, then, otherwise)`` is the caller's conditional: Python's in the engine, ``z3.If`` in the model."""
    return choose(seat == swapper, other, choose(seat == other, swapper, seat))


def rotation_source(seat: Any, direction: Any, players: int) -> Any:
    """After a 0 (house rule zero rotates) every hand passes to the next player in the direction of play: ``seat`` now
    holds the hand of the player before it."""
    return (seat - direction) % players


def rotation_target(seat: Any, direction: Any, players: int) -> Any:
    """Where the hand ``seat`` held goes in a rotation: to the next player (the inverse of ``rotation_source``)."""
    return next_seat(seat, direction, players)


def shuffle_order(shuffler: int, players: int) -> list[int]:
    """Who is dealt the cards of a shuffle of hands, in turn: the shuffler's left first (the next name of the players
    line, whatever the direction of play), the shuffler last (ruling 27)."""
    return [(shuffler + step) % players for step in range(1, players + 1)]


def shuffle_share(seat: Any, shuffler: Any, total: Any, base: Any, players: int, choose: Any) -> Any:
    """How many of the ``total`` cards a shuffle of hands deals ``seat``: one at a time from the shuffler's left, so
    the first ``total % players`` seats dealt get one card more than ``base``, which is ``total // players`` (the
    caller's: Python's ``//``; in the model ``(total - total % players) / players``, Z3's ``/`` of integers, Z3
    having no ``//``). ``choose`` is the caller's conditional, as in ``swap_source``."""
    place = (seat - shuffler - 1) % players  # 0: the shuffler's left, ..., players - 1: the shuffler
    return choose(place < total % players, base + 1, base)


def stacked_total(draw: Any, owed_before: Any) -> Any:
    """A draw card played on a penalty owed (option stacking): the next player owes both, added up."""
    return draw + owed_before


def python_choice(condition: bool, then: Any, otherwise: Any) -> Any:
    """The engine's ``choose`` for ``swap_source``: a plain conditional."""
    return then if condition else otherwise
