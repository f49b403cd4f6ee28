"""One step of a concrete game, as a claim's check sees it: the state just before (``Before``), the face a line
plays, and what a play or start claim says follows, compared with the engine's state after the step."""

from __future__ import annotations

from typing import Any, Protocol

from referee.cards import Face
from referee.engine.engine import PLAYING, Engine
from referee.proof.claims.figures import UNTIL_COLOUR, ColourFrom, Direction, Owes, Side
from referee.records import dataclass
from referee.rules.compiler import Rules


class WhatFollows(Protocol):
    """What a play or a start claim says follows a card (``PlayFigures``, ``StartFigures``): read here without
    importing the forms that state it."""

    @property
    def direction(self) -> Direction: ...

    @property
    def side(self) -> Side: ...

    @property
    def owes(self) -> Owes: ...

    @property
    def colour(self) -> ColourFrom | None: ...


@dataclass
class Before:
    """What a step is judged against: the state just before it."""

    turn: int
    direction: int
    side: int
    colour: str | None
    penalties: list[Any]
    first: tuple[int, int, str | None, int, bool, int | None] | None  # the first penalty owed, copied: (player, count,
    # until colour, extra, guilty, played by); the engine changes penalties in place
    drew: bool = False
    hands: tuple[int, ...] = ()  # which hand object each seat holds: a swap or a rotation moves them whole
    hand_sizes: tuple[int, ...] = ()
    dealer: int = -1
    discard: int = 0
    totals: tuple[int, ...] = ()
    phase: object = None


def before(engine: Engine) -> Before:
    """The engine's state now, copied where the engine changes it in place."""
    state = engine.state
    first = state.penalties[0] if state.penalties else None
    copied = (first.player, first.count, first.until_colour, first.extra, first.guilty, first.played_by) if first else None
    return Before(
        state.turn,
        state.direction,
        state.side,
        state.colour,
        list(state.penalties),
        copied,
        state.drew,
        tuple(id(hand) for hand in state.hands),
        tuple(state.hand_sizes),
        state.dealer,
        len(state.discard_pile),
        tuple(state.totals),
        state.phase,
    )


def played_face(rules: Rules, token: str, side: int) -> Face | None:
    """The face a line's card token shows on ``side`` (a card's token, or one face's)."""
    token = token.lower()
    if "/" in token:
        card = rules.catalogue.card(token)
        return card.faces[side] if card is not None else None
    return rules.catalogue.face(token, side)


def played_kind(rules: Rules, token: str, side: int) -> str | None:
    face = played_face(rules, token, side)
    return face.kind if face is not None else None


def compare_after(
    figures: WhatFollows, state: Any, turn: int, direction_before: int, side_before: int, what: str, names: tuple[str, ...]
) -> str | None:
    direction = direction_before if figures.direction is Direction.SAME else -direction_before
    side = side_before if figures.side is Side.SAME else (side_before + 1) % len(names)
    if state.side != side:
        return f"after {what} the {names[state.side]} side is in play, not the {names[side]} side"
    if state.direction != direction:
        return f"after {what} play moves {'left' if state.direction == 1 else 'right'}"
    if figures.owes == 0 and state.penalties:
        return f"after {what} {state.players[state.penalties[-1].player]} owes a penalty"
    if state.phase is not PLAYING:  # the card ended the round: nobody moves next
        return None
    if state.turn != turn:
        return f"after {what} it is {state.players[state.turn]}'s turn, not {state.players[turn]}'s"
    owes = figures.owes
    if owes != 0:
        penalty = state.penalties[-1] if state.penalties else None
        if penalty is None or penalty.player != turn:
            return f"after {what} {state.players[turn]} owes nothing"
        if owes == UNTIL_COLOUR and penalty.until_colour is None:
            return f"after {what} {state.players[turn]} owes {penalty.count} cards, not cards until the colour"
        if owes != UNTIL_COLOUR and penalty.count != owes:
            return f"after {what} {state.players[turn]} owes {penalty.count} cards, not {owes}"
    return _compare_colour(figures.colour, state, what)


def _compare_colour(colour: ColourFrom | None, state: Any, what: str) -> str | None:
    """The colour in play after a card, against the claim's: the card's, one chosen, or the uncovered card's."""
    if colour is ColourFrom.CHOSEN and state.choose_by is None and state.colour is None:
        return f"after {what} nobody names the colour"
    if colour is ColourFrom.CARD and (state.colour is None or state.choose_by is not None):
        return f"after {what} the colour in play is not the card's"
    if colour is ColourFrom.UNCOVERED and state.choose_by is None and state.colour is None:
        return f"after {what} the uncovered card has no colour and nobody names one"
    return None
