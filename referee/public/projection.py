"""Events -> their public record: what the table saw of a game whose every card is known.

The projection of a full- or observed-mode game (docs/log-format.md, "Public records"): each round's ``shuffle`` or
``hand`` lines become ``public``; a draw becomes its count; a play names the face in play; a reshuffle names no
cards; and once a round ends, each player but its winner shows the faces of their hand. A projection is consistent
by construction (the game it came from is a witness): the property the tests hold ``check`` to.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.engine.deal import goes_back
from referee.engine.engine import Engine
from referee.engine.state import GAME_OVER, PLAYING, ROUND_OVER, GameState
from referee.log import events as ev
from referee.rules.compiler import Rules


def public_record(events: Iterable[ev.Event], rules: Rules) -> Iterator[ev.Event]:
    """The public record of a legal game's events (replayed alongside, to know the side in play and the hands)."""
    engine = Engine(rules, record_disputes=False)
    state = engine.state
    dealt = False
    for event in events:
        side = state.side
        before = state.phase
        pile = state.draw_pile_size()
        diagnostic = engine.apply(event)
        if diagnostic is not None:
            raise ValueError(f"line {event.line}: only a legal game has a public record: {diagnostic.message}")
        if isinstance(event, ev.Round):
            dealt = False
            yield event
        elif isinstance(event, ev.Shuffle | ev.Hand):
            if not dealt:
                dealt = True
                yield ev.Public(event.line)
            if isinstance(event, ev.Shuffle):
                yield from start_cards(rules, event, state.player_count)
        else:
            yield public_event(rules, event, side, pile - state.draw_pile_size())
        if before is PLAYING and state.phase in (ROUND_OVER, GAME_OVER):
            yield from shows(state, engine.rounds[-1].winner or "", event.line)


def start_cards(rules: Rules, shuffle: ev.Shuffle, players: int) -> list[ev.Event]:
    """The cards a full-mode deal turns up, as ``start`` lines: the one after the hands, and after a card that goes
    back, the next."""
    started: list[ev.Event] = []
    for token in shuffle.cards[rules.spec.hand_size * players :]:
        started.append(ev.Start(shuffle.line, token))
        card = rules.catalogue.card(token)
        if card is None or not goes_back(rules, card):
            break
    return started


def public_event(rules: Rules, event: ev.Event, side: int, taken: int) -> ev.Event:
    """One event of a round as the table saw it: a draw as the count it took from the pile (``taken``), a play as
    the face it showed on ``side`` (the side in play when played), a reshuffle or a shuffle of hands naming no card; the rest as is."""
    if isinstance(event, ev.Draw):  # a full-mode draw may name no card: the pile says how many
        return ev.DrawCount(event.line, event.player, taken) if taken > 0 else ev.Draw(event.line, event.player, ())
    if isinstance(event, ev.Play):
        also = tuple(_face_shown(rules, token, side) for token in event.also)
        return ev.Play(event.line, event.player, _face_shown(rules, event.card, side), event.colour, also)
    if isinstance(event, ev.Reshuffle):
        return ev.Reshuffle(event.line, ())
    if isinstance(event, ev.ShuffleHands):  # the hands dealt anew, each seen by its holder only
        return ev.ShuffleHands(event.line, event.player, ())
    return event


def shows(state: GameState, winner: str, line: int) -> list[ev.Event]:
    """Once a round is over: each player but its winner shows the faces of their hand (on the side in play)."""
    return [
        ev.Shows(line, name, tuple(sorted(card.faces[state.side].token for card, count in state.hands[seat].items() for _ in range(count))))
        for seat, name in enumerate(state.players)
        if name != winner
    ]


def _face_shown(rules: Rules, token: str, side: int) -> str:
    """A played card as the table saw it: a physical card's face on the side in play when played, a face as is."""
    if "/" not in token:
        return token
    card = rules.catalogue.card(token)
    assert card is not None
    return card.faces[side].token
