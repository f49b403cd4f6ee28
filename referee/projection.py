"""Events -> their public record: what the table saw of a game whose every card is known.

The projection of a full- or observed-mode game (docs/log-format.md, "Public records"): each round's ``shuffle`` or
``hand`` lines become ``public``; a draw becomes its count; a play names the face in play; a reshuffle names no
cards; and once a round ends, each player but its winner shows the faces of their hand. A projection is consistent
by construction (the game it came from is a witness): the property the tests hold ``check`` to.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee import events as ev
from referee.compiler import Rules
from referee.deal import goes_back
from referee.engine import Engine
from referee.state import GAME_OVER, PLAYING, ROUND_OVER


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
            if isinstance(event, ev.Shuffle):  # the cards turned up follow the deal; one that goes back, the next
                for token in event.cards[rules.spec.hand_size * state.player_count :]:
                    yield ev.Start(event.line, token)
                    card = rules.catalogue.card(token)
                    if card is None or not goes_back(rules, card):
                        break
        elif isinstance(event, ev.Draw):
            taken = pile - state.draw_pile_size()  # a full-mode draw may name no card: the pile says how many
            yield ev.DrawCount(event.line, event.player, taken) if taken > 0 else ev.Draw(event.line, event.player, ())
        elif isinstance(event, ev.Play):
            token = event.card
            if "/" in token:  # a physical card: the face it showed on the side in play when played
                card = rules.catalogue.card(token)
                assert card is not None
                token = card.faces[side].token
            yield ev.Play(event.line, event.player, token, event.colour)
        elif isinstance(event, ev.Reshuffle):
            yield ev.Reshuffle(event.line, ())
        else:
            yield event
        if before is PLAYING and state.phase in (ROUND_OVER, GAME_OVER):
            result = engine.rounds[-1]
            for seat, name in enumerate(state.players):
                if name == result.winner:
                    continue
                faces = sorted(card.faces[state.side].token for card, count in state.hands[seat].items() for _ in range(count))
                yield ev.Shows(event.line, name, tuple(faces))
