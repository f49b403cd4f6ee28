"""Disputes: saying UNO, catching a player who did not, and challenging a wild draw card.

Part of the engine (``referee.engine.engine``): the handlers of ``says UNO``,
``catches`` and ``challenges`` lines. Who draws what after a ruling is the
spec's ``disputes`` section, read through ``effects.ruling`` and
``effects.catch_drawer`` (the Z3 model reads the same two). Each ruling is
recorded as a ``Dispute`` for ``adjudicate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.engine.legality import no_catch_owed
from referee.engine.reject import Reject
from referee.engine.state import PLAYING, Dispute, DisputeKind, Penalty, Ruling
from referee.log import events as ev
from referee.rules import effects
from referee.spec.vocabulary import Check
from referee.verdicts import Code

if TYPE_CHECKING:
    from referee.engine.state import EngineApi  # the engine as its parts see it: they never import referee.engine.engine


def call(engine: EngineApi, event: ev.Call) -> None:
    state = engine.state
    seat = engine.seat_of(event.player)
    if state.phase is not PLAYING:
        raise Reject(Code.INVALID_CALL, Check.CALL, f"round {state.round_number} is over")
    no_catch_owed(engine.state)
    if state.hand_sizes[seat] != 1:
        raise Reject(Code.INVALID_CALL, Check.CALL, f"{event.player} holds {state.hand_sizes[seat]} cards, not one")
    if state.uno_player != seat:
        raise Reject(Code.INVALID_CALL, Check.CALL, f"{event.player}'s UNO window is closed")
    state.uno_called = True


def _parties(engine: EngineApi, event: ev.Catch | ev.Challenge, code: Code, check: Check) -> tuple[int, int]:
    """The seats of who catches or challenges and of whom, once a round is in play and no catch is owed."""
    seat = engine.seat_of(event.player)
    target = engine.seat_of(event.target)
    if engine.state.phase is not PLAYING:
        raise Reject(code, check, f"round {engine.state.round_number} is over")
    no_catch_owed(engine.state)
    return seat, target


def catch(engine: EngineApi, event: ev.Catch) -> None:
    state = engine.state
    rules = engine.rules
    seat, target = _parties(engine, event, Code.INVALID_CATCH, Check.CATCH)
    reason = catch_invalid(engine, seat, target)
    if reason:
        _record_catch(engine, event, Ruling.INVALID, reason)
        raise Reject(Code.INVALID_CATCH, Check.CATCH, reason)
    state.uno_caught = True
    _record_catch(engine, event, Ruling.VALID, f"{event.target} held one card and had not said UNO")
    if rules.catch_penalty:
        drawer = effects.catch_drawer(rules.spec.disputes.catcher_draws, seat, target)
        state.penalties.insert(
            0, Penalty(player=drawer, count=rules.catch_penalty, catch=True, line=event.line, rule=rules.check_rules["catch"].id)
        )
        engine.settle()


def catch_invalid(engine: EngineApi, seat: int, target: int) -> str:
    """Why a catch is not allowed now ('' when it is)."""
    state = engine.state
    name = state.players[target]
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


def _record_catch(engine: EngineApi, event: ev.Catch, ruling: Ruling, reason: str) -> None:
    state = engine.state
    rules = engine.rules
    valid = ruling is Ruling.VALID
    penalty = state.penalties[0] if valid and state.penalties and state.penalties[0].catch else None
    drawer = effects.catch_drawer(rules.spec.disputes.catcher_draws, event.player, event.target)
    owed = Dispute.owed(drawer, rules.catch_penalty, None, 0) if valid else (None, None, None, 0)
    _record(engine, event, ruling, rules.check_rules["catch"].id, reason, owed, penalty=penalty)


def challenge(engine: EngineApi, event: ev.Challenge) -> None:
    state = engine.state
    rules = engine.rules
    names = state.players
    seat, target = _parties(engine, event, Code.INVALID_CHALLENGE, Check.CHALLENGE)
    penalty = state.penalties[0] if state.penalties else None
    reason, allowed = _invalid_challenge(names, penalty, seat, target, event.target)
    if reason:
        _record(engine, event, Ruling.INVALID, rules.check_rules["challenge"].id, reason)
        raise Reject(Code.INVALID_CHALLENGE, Check.CHALLENGE, reason, allowed)
    assert penalty is not None
    engine.close_window()
    penalty.challengeable = False
    penalty.bluff = False
    penalty.stack_kind = None  # a penalty a challenge produced is never stacked on
    penalty.ruled = True
    base_count = penalty.count
    if penalty.asked >= 0:  # a question a public round asked of a hidden hand
        state.knowledge.rule_challenge(engine, penalty, event)
    evidence = tuple(card.token for card in penalty.evidence)
    ruling = Ruling.GUILTY if penalty.guilty else Ruling.INNOCENT
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
            loses_turn=False,  # the card's player draws: it was not their turn to lose (who plays next is next_turn)
            next_turn=next_turn,
            line=event.line,
            played_by=target,
            ruled=True,
        )
        state.penalties[0] = owed
    owed.rule = outcome.rule or rules.check_rules["challenge"].id
    _record(
        engine,
        event,
        ruling,
        owed.rule,
        _ruling_reason(penalty, event.target, evidence),
        Dispute.owed(names[drawer], base_count, penalty.until_colour, extra),
        evidence if penalty.guilty else (),
        loses_turn=drawer == seat and not outcome.challenger_plays,  # the challenger draws and does not play
        penalty=owed,
        then=names[next_turn],
    )
    engine.settle()


def _invalid_challenge(
    names: Sequence[str], penalty: Penalty | None, seat: int, target: int, target_name: str
) -> tuple[str, tuple[str, ...]]:
    """Why a challenge cannot be made now (empty: it can), and who could make it instead."""
    if penalty is not None and penalty.started and penalty.wild_draw:
        return f"{names[penalty.player]} has begun drawing the penalty: too late to challenge", ()
    if penalty is None or not penalty.challengeable:
        return "no wild draw penalty is waiting to be challenged", ()
    if penalty.player != seat:
        return f"only {names[penalty.player]}, who must draw, may challenge", (names[penalty.player],)
    if penalty.played_by != target:
        assert penalty.played_by is not None
        return f"{target_name} did not play the wild draw card; {names[penalty.played_by]} did", ()
    return "", ()


def _ruling_reason(penalty: Penalty, target_name: str, evidence: tuple[str, ...]) -> str:
    if penalty.guilty and not evidence:
        return f"{target_name} held a {penalty.colour_before} card, the colour in play (as the record's ruling shows)"
    if penalty.guilty:
        return f"{target_name} held {', '.join(evidence)} of {penalty.colour_before}, the colour in play"
    return f"{target_name} held no {penalty.colour_before} card"


def _record(
    engine: EngineApi,
    event: ev.Catch | ev.Challenge,
    ruling: Ruling,
    rule: str,
    reason: str,
    owed: tuple[str | None, int | None, str | None, int] = (None, None, None, 0),
    evidence: tuple[str, ...] = (),
    loses_turn: bool = False,
    penalty: Penalty | None = None,
    then: str | None = None,
) -> None:
    """Record a ruling on a catch or a challenge (kept only when disputes are recorded, for adjudicate)."""
    if not engine.record_disputes:
        return
    kind = DisputeKind.CATCH if isinstance(event, ev.Catch) else DisputeKind.CHALLENGE
    player, cards, until_colour, extra = owed
    engine.disputes.append(
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
            then=then,
        )
    )
