"""Hands moved by a card's effect: ``swap-hands`` (its player names whom to swap with, ``P swaps Q``),
``pass-hands`` (every hand passes on in the direction of play) and ``shuffle-hands`` (every hand collected, shuffled
and dealt out from the player's left, ``P shuffles CARD ...``); the house rules seven swaps and zero rotates are the
first two on a 7 and a 0 (``referee.rules.compiler``).

Part of the engine (``referee.engine.engine``), typed against ``state.EngineApi``. Which seat's hand goes where is
``referee.rules.effects`` (``swap_source``, ``rotation_source``, ``shuffle_order``), which the Z3 model reads too; how
the cards of a moved hand stay known is the mode of card knowledge's (``pass_hands``, ``shuffle_hands``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.engine.reject import Reject
from referee.engine.state import NO_ROUND, PLAYING, Due, Duty
from referee.log import events as ev
from referee.records import dataclass
from referee.rules import effects
from referee.spec.vocabulary import Check
from referee.verdicts import Code

if TYPE_CHECKING:
    from referee.engine.state import EngineApi  # the engine as its parts see it: they never import referee.engine.engine
    from referee.rules.compiler import FaceRules


def move_hands(engine: EngineApi, seat: int, face_rules: FaceRules) -> None:
    """A card that moves hands, played by a player who still holds cards: the player names whom to swap hands with
    (the next line), or every hand passes on."""
    if face_rules.swaps_hands:
        engine.state.due = Due(seat, Duty.SWAP)  # the next line names whom P swaps with
    elif face_rules.passes_hands:
        rotate_hands(engine)


def rotate_hands(engine: EngineApi) -> None:
    """Zero rotates: every hand passes to the next player in the direction of play, and every UNO window closes
    (a player handed one card owes no call for it)."""
    state = engine.state
    hands, sizes = list(state.hands), list(state.hand_sizes)
    for seat in range(state.player_count):
        source = effects.rotation_source(seat, state.direction, state.player_count)
        state.hands[seat] = hands[source]
        state.hand_sizes[seat] = sizes[source]
    state.knowledge.pass_hands(
        state, [(seat, effects.rotation_source(seat, state.direction, state.player_count)) for seat in range(state.player_count)]
    )
    engine.close_window()


def swap_due(engine: EngineApi, event: ev.Event) -> None:
    """After a 7 with cards left, only its player's valid UNO call or a valid ``P swaps Q`` may come (swap-missing)."""
    state = engine.state
    swapper = state.swap_by
    assert swapper is not None
    name = engine.name_of(swapper)
    if isinstance(event, ev.Swap) and event.player == name and event.target != name and event.target in state.seat:
        return
    if isinstance(event, ev.Call) and event.player == name and state.uno_player == swapper and state.hand_sizes[swapper] == 1:
        return
    others = tuple(f"{name} swaps {other}" for other in state.players if other != name)
    top = state.top_face()
    what = "a 7" if top is None or top.number == 7 else f"{top}"
    raise Reject(
        Code.SWAP_MISSING, Check.SWAP, f"{name} played {what} and must first swap hands with another player ('{name} swaps Q')", others
    )


def swap(engine: EngineApi, event: ev.Swap) -> None:
    """``P swaps Q``: after P's 7, P and Q exchange hands (house rule seven swaps)."""
    state = engine.state
    engine.seat_of(event.player)  # names first, as for every line
    engine.seat_of(event.target)
    swapper = state.swap_by
    swaps = engine.rules.seven_swaps or any(face_rules.swaps_hands for face_rules in engine.rules.faces.values())
    if swapper is None or not swaps:
        never, not_now = "a swap comes only after a 7, under the house rule seven swaps", "no 7 with cards left was just played"
        raise _not_owed(engine, event.player, "swap hands", swaps, never, not_now)
    other = engine.seat_of(event.target)
    engine.close_window()  # the 7's player's UNO window closes at the swap
    hands, sizes = list(state.hands), list(state.hand_sizes)
    sources = [(seat, effects.swap_source(seat, swapper, other, effects.python_choice)) for seat in (swapper, other)]
    for seat, source in sources:
        state.hands[seat] = hands[source]
        state.hand_sizes[seat] = sizes[source]
    state.knowledge.pass_hands(state, sources)
    state.due = None


def shuffle_due(engine: EngineApi, event: ev.Event) -> None:
    """After a card that shuffles hands, only its player's valid UNO call or ``P shuffles ...`` may come
    (shuffle-missing)."""
    state = engine.state
    shuffler = state.shuffle_by
    assert shuffler is not None
    name = engine.name_of(shuffler)
    if isinstance(event, ev.ShuffleHands) and event.player == name:
        return
    if isinstance(event, ev.Call) and event.player == name and state.uno_player == shuffler and state.hand_sizes[shuffler] == 1:
        return
    raise Reject(
        Code.SHUFFLE_MISSING,
        Check.SHUFFLE_HANDS,
        f"{name} played {state.top_face()} and must first shuffle every hand and deal them out ('{name} shuffles CARD ...')",
        (f"{name} shuffles",),
    )


def shuffle_hands(engine: EngineApi, event: ev.ShuffleHands) -> None:
    """``P shuffles CARD ...``: after P's card that shuffles hands, every hand is dealt anew from the cards named, one
    at a time from P's left (``effects.shuffle_order``); a player left holding no card has gone out (ruling 27)."""
    state = engine.state
    engine.seat_of(event.player)  # names first, as for every line
    shuffler = state.shuffle_by
    if shuffler is None:
        shuffles = any(face_rules.shuffles_hands for face_rules in engine.rules.faces.values())
        never, not_now = "no card of this game shuffles hands", "no card that shuffles hands was just played"
        raise _not_owed(engine, event.player, "shuffle hands", shuffles, never, not_now)
    cards = engine.cards(event.cards)
    engine.close_window()  # the card's player's UNO window closes at the shuffle
    order = effects.shuffle_order(shuffler, state.player_count)
    state.knowledge.shuffle_hands(engine, cards, order, event.line)
    state.due = None
    emptied = next((seat for seat in order if state.hand_sizes[seat] == 0), None)
    if emptied is not None:
        engine.finish_round(emptied)


def _not_owed(engine: EngineApi, player: str, what: str, in_this_game: bool, never: str, not_now: str) -> Reject:
    """A duty's line when nobody owes it (out-of-turn): why not, from the game (``never``: no card of it gives the
    duty), the phase, or the last play (``not_now``)."""
    state = engine.state
    if not in_this_game:
        why = never
    elif state.phase is not PLAYING:
        why = f"round {state.round_number} is over" if state.phase is not NO_ROUND else "no round is in play"
    else:
        why = not_now
    return Reject(Code.OUT_OF_TURN, Check.TURN, f"{player} may not {what} now: {why}")


def swap_lines(engine: EngineApi, seat: int) -> list[ev.Event]:
    """The lines that pay a swap owed: ``P swaps Q`` for every other player Q."""
    names = engine.state.players
    return [ev.Swap(0, names[seat], other) for other in names if other != names[seat]]


def shuffle_lines(engine: EngineApi, seat: int) -> list[ev.Event]:
    """The line that pays a shuffle owed: every hand's cards in one order, as the mode writes it (every other order of
    them is as legal)."""
    state = engine.state
    return [ev.ShuffleHands(0, state.players[seat], state.knowledge.shuffled_hands(state))]


@dataclass(frozen=True, slots=True)
class DutyRules:
    """One duty, defined once: the gate every line meets while it is owed (its code when another line comes), and the
    lines that pay it (``legal_moves``); the owing player's UNO call is allowed before it either way."""

    gate: Callable[[EngineApi, ev.Event], None]
    lines: Callable[[EngineApi, int], list[ev.Event]]


DUTIES: dict[Duty, DutyRules] = {
    Duty.SWAP: DutyRules(swap_due, swap_lines),
    Duty.SHUFFLE: DutyRules(shuffle_due, shuffle_lines),
}
