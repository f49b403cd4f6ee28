"""Scoring: what a round is worth and who has won the game (rules score.values and game.end).

Functions of the state and the compiled rules; ``Engine`` calls them when a
round ends and when a ``scores`` claim is checked.
"""

from __future__ import annotations

from referee.cards import Card, Face
from referee.engine.reject import Reject
from referee.engine.state import GAME_OVER, ROUND_OVER, GameState
from referee.rules.compiler import FaceRules, Rules
from referee.spec.vocabulary import Check
from referee.verdicts import Code, RoundResult


def hand_points(hand: dict[Card, int], side: int, faces: dict[Face, FaceRules]) -> int:
    """The points of the cards in a hand, by the face on the side in play."""
    return sum(faces[card.faces[side]].points * count for card, count in hand.items())


def round_points(state: GameState, rules: Rules, seat: int, result: RoundResult) -> int:
    """What ``seat`` won in the finished round ``result`` (its own hand's points under the alternative scoring)."""
    if rules.own_hand_scoring:
        return state.own_points[seat]
    return (result.points or 0) if result.winner == state.players[seat] else 0


def check_score(state: GameState, rules: Rules, seat: int, points: int) -> None:
    """A ``P scores N`` claim: N must be what the player won in the round that has just finished (wrong-score)."""
    result = state.last_result
    if result is None:
        raise Reject(Code.WRONG_SCORE, Check.SCORE, "no round has finished yet")
    expected = round_points(state, rules, seat, result)
    if points != expected:
        raise Reject(
            Code.WRONG_SCORE,
            Check.SCORE,
            f"{state.players[seat]} won {expected} points in round {result.number}, not {points}",
            (str(expected),),
        )


def finish_round(state: GameState, rules: Rules, winner: int, shown: list[int] | None = None) -> RoundResult:
    """Score the round ``winner`` has just won, add it to the totals, and end the game if a total reaches the target.
    ``shown``: each hand's points as a public round's ``shows`` lines give them (the hands themselves are hidden)."""
    own = shown if shown is not None else [hand_points(hand, state.side, rules.faces) for hand in state.hands]
    state.own_points = own
    points = sum(own)
    if rules.own_hand_scoring:
        for seat in range(state.player_count):
            state.totals[seat] += own[seat]
    else:
        state.totals[winner] += points
    result = RoundResult(
        state.round_number,
        True,
        state.players[winner],
        rules.spec.side_names[state.side],
        points,
        dict(zip(state.players, state.totals, strict=True)),
    )
    state.last_result = result
    state.phase = ROUND_OVER
    if max(state.totals) >= state.target:
        state.phase = GAME_OVER
        if rules.own_hand_scoring:
            low = min(state.totals)
            winners = [name for name, total in zip(state.players, state.totals, strict=True) if total == low]
            state.game_winner = winners[0] if len(winners) == 1 else winners
        else:
            state.game_winner = state.players[winner]
    return result
