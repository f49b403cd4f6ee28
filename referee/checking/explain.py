"""Why a move is or is not legal: the state at a line, the ruling, the rule and its source.

Built on replay: the log is replayed up to the line asked about, then the
recorded event (or a hypothetical one, ``--move``) is judged on the engine and
undone (``Engine.snapshot``/``restore``), so asking never changes the replayed
state. Results are plain dicts,
rendered to text or JSON at the edge.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from referee.cards import Card
from referee.checking.replay import DEFAULT_TIMEOUT, Replay
from referee.engine.engine import PLAYING, Engine
from referee.engine.reject import Reject
from referee.engine.state import direction_token, phase_label
from referee.errors import InputError, Position, UsageError
from referee.log import events as ev
from referee.log.inputs import LogSource
from referee.log.reader import PAIRS, CardForm, LogReader
from referee.log.writer import format_event
from referee.public.rounds import Branches, rule_of
from referee.public.rounds import judge_round as public_judge
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.spec.model import Rule, ruling_text
from referee.spec.vocabulary import Check
from referee.verdicts import Code, Diagnostic, FileVerdict, LogError


def parse_move(text: str, line: int, form: CardForm = PAIRS) -> ev.Event:
    """A hypothetical event written as a log line ("Bob plays red-5"), read as the game in force writes cards."""
    reader = LogReader()
    reader.set_form(form)
    event = reader.parse_event_line(line, text)
    if event is None or reader.errors:
        problem = reader.errors[0].message if reader.errors else "empty"
        raise UsageError(f"--move '{text}' is not an event line: {problem}")
    return event


def rule_data(rule: Rule, rules: Rules) -> dict[str, Any]:
    """A rule as ``rules``, ``explain`` and ``adjudicate`` show it; the summary has the option values in force."""
    spec = rules.spec
    return {
        "id": rule.id,
        "summary": rule.summary,
        "source": rule.citation.render(spec.sources),
        "ruling": None if rule.ruling is None else {"number": rule.ruling, "text": ruling_text(rule.ruling, spec.game)},
        "options": {name: _option_value(spec.options.get(name)) for name in rule.options},
        "checks": list(rule.checks),
    }


def _option_value(value: object) -> object:
    """An option's value as JSON: option stacking as its table (the kind owed: the kinds that may go on it)."""
    if isinstance(value, tuple) and all(isinstance(item, tuple) for item in value):
        return {owed: list(allowed) for owed, allowed in value}
    return list(value) if isinstance(value, tuple) else value


def state_data(engine: Engine) -> dict[str, Any]:
    """The state just before a line: what a player at the table would see, and more."""
    state = engine.state
    names = state.players
    top = state.top_face()
    penalties = [
        {
            "player": names[p.player],
            "owes": p.describe(),
            "cards": p.count if p.until_colour is None else None,
            "until_colour": p.until_colour,
            "extra": p.extra,
            "kind": "catch" if p.catch else "draw",
            "challengeable": p.challengeable,
            "played_by": names[p.played_by] if p.played_by is not None else None,
            "line": p.line or None,
            "rule": p.rule or None,
        }
        for p in state.penalties
    ]
    window = None
    if state.uno_player is not None:
        window = {
            "player": names[state.uno_player],
            "line": state.uno_line,
            "called": state.uno_called,
            "caught": state.uno_caught,
        }
    return {
        "round": state.round_number,
        "phase": phase_label(state.phase),
        "side": engine.rules.spec.side_names[state.side],
        "direction": direction_token(state.direction),
        "turn": names[state.turn] if names and state.phase is PLAYING else None,
        "acting": names[state.acting_seat] if state.acting_seat is not None else None,
        "drew_this_turn": state.drew,
        "top_card": {"card": state.discard_pile[-1].token, "face": top.token} if top is not None else None,
        "colour_in_play": state.colour,
        "colour_to_be_chosen_by": names[state.choose_by] if state.choose_by is not None else None,
        "swap_due_by": names[state.swap_by] if state.swap_by is not None else None,
        **({"shuffle_due_by": names[state.shuffle_by]} if state.shuffle_by is not None else {}),  # only while one is due
        "drawing_until_playable": state.drawing,
        "penalties": penalties,
        "uno_window": window,
        "hands": {name: state.hand_sizes[seat] for seat, name in enumerate(names)} if state.hand_sizes else {},
        "draw_pile": state.draw_pile_size(),
        "discard_pile": len(state.discard_pile),
        "totals": dict(zip(names, state.totals, strict=True)),
    }


def hand_data(engine: Engine, seat: int) -> list[dict[str, Any]]:
    """A hand, card by card, with both faces and whether each could be played now."""
    state = engine.state
    result = []
    for card in sorted(state.hands[seat], key=lambda c: c.token):
        face = card.faces[state.side]
        colour = sorted(engine.rules.side_colours[state.side])[0] if engine.rules.faces[face].choose_colour else None
        diagnostic = engine.judge(ev.Play(0, state.players[seat], card.token, colour))
        result.append(
            {
                "card": card.token,
                "showing": face.token,
                "count": state.hands[seat][card],
                "playable": diagnostic is None,
                "why_not": None if diagnostic is None else f"{diagnostic.code} [{diagnostic.rule}]: {diagnostic.message}",
            }
        )
    return result


def _settle_public(replay: Replay, errors: list[Diagnostic]) -> Branches | None:
    """A public round in progress where the replay stopped: judged as ``check`` judges it (its lines so far consistent,
    or the error appended to ``errors``), the engine put on a consistent branch; the round's branches, to judge the
    line asked about with (None: no public round, or one already found wrong)."""
    branches = replay.branches
    engine = replay.engine
    if branches is None or engine is None or errors:
        return None
    outcome = public_judge(branches, replay.timeout, False, rule_of(engine.rules), want_answers=False)
    if outcome.diagnostic is not None:
        errors.append(outcome.diagnostic)
        return None
    if outcome.chosen is None:
        reason = outcome.undetermined or "undetermined"
        errors.append(Diagnostic(branches.events[0].line, Code.UNDETERMINED, reason, ""))
        return None
    branches.restore(outcome.chosen)
    return branches


def judge_public(branches: Branches, event: ev.Event, rules: Rules, timeout: float = DEFAULT_TIMEOUT) -> Diagnostic | None:
    """The verdict on one event of a public round, as ``check`` gives it: illegal for a reason needing no hidden card,
    or inconsistent when no deal and draw pile make the lines so far and this one legal, or undetermined past
    ``timeout`` seconds; the engine and the branches are left where they were."""
    engine = branches.engine
    before = engine.snapshot()
    live, dead, events, notes = list(branches.live), list(branches.dead), list(branches.events), dict(branches.notes)
    deadline, dropped, expired = branches.deadline, branches.dead_dropped, branches.expired
    try:
        branches.deadline = min(deadline, time.monotonic() + timeout)
        branches.apply(event)
        outcome = public_judge(branches, timeout, False, rule_of(rules), want_answers=False)
        if outcome.undetermined is not None:
            return Diagnostic(event.line, Code.UNDETERMINED, outcome.undetermined, "")
        return outcome.diagnostic
    finally:
        branches.live, branches.dead, branches.events, branches.notes = live, dead, events, notes
        branches.deadline, branches.dead_dropped, branches.expired = deadline, dropped, expired
        engine.restore(before)


def alternatives(engine: Engine, player: str) -> list[str]:
    """Every kind of event ``player`` could legally make now, written as log lines (from ``referee.engine.moves``): a wild
    once, with ``COLOUR``; in observed mode one ``draws CARD``."""
    from referee.engine.moves import legal_moves

    state = engine.state
    if player not in state.seat or state.phase is not PLAYING:
        return []
    colours = ", ".join(sorted(engine.rules.side_colours[state.side]))
    names = state.players
    found: dict[str, tuple[int, int, str]] = {}
    for move in legal_moves(engine):
        event = move.event
        if getattr(event, "player", None) != player:
            continue
        text = str(move)
        if isinstance(event, ev.Play) and event.colour:
            text = text[: -len(event.colour)] + "COLOUR"
        if isinstance(event, ev.Choose):
            text = f"{player} chooses COLOUR ({colours})"
        if isinstance(event, ev.Draw) and event.cards:
            text = f"{player} draws CARD (a card from the draw pile)"
        other = names.index(event.target) if "target" in ev.KINDS[type(event)].names else 0  # type: ignore[union-attr]
        found.setdefault(text, (ev.KINDS[type(event)].order, other, getattr(event, "card", "") or ""))
    return sorted(found, key=lambda text: (found[text], text))


def _acting_seat(engine: Engine, event: ev.Event | None) -> int | None:
    player = getattr(event, "player", None)
    if player is not None and player in engine.state.seat:
        return engine.state.seat[player]
    if engine.state.phase is PLAYING and engine.state.players:
        return engine.state.turn
    return None


@dataclass(frozen=True, slots=True)
class JumpIn:
    """A legal play out of turn under the house rule jump-in: the face it matched, who played that, whose turn it was."""

    matched: str | None
    played_by: str | None
    turn_of: str

    def to_json(self) -> dict[str, Any]:
        return {"matched": self.matched, "played_by": self.played_by, "turn_of": self.turn_of}


@dataclass(slots=True)
class Explanation:
    """Everything ``referee explain`` says about one line of a log. ``to_json`` has always the same keys (null where
    empty), in this order: the JSON of docs/json.md. ``state``, ``hand`` and the rules are JSON-ready already (the
    replay page embeds the same ``state_data``)."""

    path: str
    line: int
    hypothetical: bool
    log_error: LogError | None = None
    state: dict[str, Any] | None = None
    player: str | None = None
    hand: list[dict[str, Any]] | None = None
    event: str | None = None
    legal: bool | None = None
    code: str | None = None
    message: str | None = None
    rule: dict[str, Any] | None = None
    card_rule: dict[str, Any] | None = None
    jump_in: JumpIn | None = None
    alternatives: list[str] | None = None
    penalty_rule: dict[str, Any] | None = None  # an illegal line while a ruling's penalty is owed: that ruling's rule
    must_act: dict[str, Any] | None = None  # nothing allowed to the line's player: who must act first, and their moves
    turn_rule: dict[str, Any] | None = None  # a line out of turn: the rule that gave the turn past the seating order

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "log_error": self.log_error.to_json() if self.log_error is not None else None,
            "state": self.state,
            "player": self.player,
            "hand": self.hand,
            "event": self.event,
            "hypothetical": self.hypothetical,
            "legal": self.legal,
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "card_rule": self.card_rule,
            "jump_in": self.jump_in.to_json() if self.jump_in is not None else None,
            "alternatives": self.alternatives,
            "penalty_rule": self.penalty_rule,
            "must_act": self.must_act,
            "turn_rule": self.turn_rule,
        }


def explain(
    source: LogSource | Path, line: int, move: str | None = None, spec_override: Path | None = None, timeout: float = DEFAULT_TIMEOUT
) -> Explanation:
    """Everything ``referee explain`` says about one line of a log.

    ``line`` is a line of the log; with a hypothetical ``move`` it may also be
    the line just after the last, to ask about the next move of a log that stops. ``timeout``: the seconds the
    log's public rounds may take (replaying them and solving), as ``check --timeout``.
    """
    if isinstance(source, Path):
        source = LogSource(str(source), source)
    replay, verdict, event_from_move = _replayed_to(source, line, move, spec_override, timeout)
    result = Explanation(source.display, line, move is not None)
    syntax = [error for error in verdict.errors if error.code == Code.SYNTAX]
    if syntax:
        result.log_error = LogError(syntax[0].line, Code.SYNTAX, syntax[0].message, syntax[0].rule)
        return result
    engine = replay.engine
    if engine is None:
        result.log_error = LogError(line, Code.SYNTAX, "the log's header is not complete before this line", None)
        return result
    public = _settle_public(replay, verdict.errors)
    if verdict.errors:
        first = verdict.errors[0]
        result.log_error = LogError(first.line, first.code, first.message, first.rule)
    elif verdict.undetermined is not None:  # a public round before the line could not be settled in time
        result.log_error = LogError(line, Code.UNDETERMINED, verdict.undetermined, None)
    result.state = state_data(engine)
    stopped = replay.stopped_event
    event = event_from_move if event_from_move is not None else stopped if stopped is not None and stopped.line == line else None
    seat = _acting_seat(engine, event)
    if seat is not None and engine.state.hands:
        result.player = engine.state.players[seat]
        result.hand = hand_data(engine, seat)
    if event is None:
        return result
    result.event = format_event(event)
    if verdict.errors:
        return result
    if public is not None and type(event) is not ev.Round:
        diagnostic = judge_public(public, event, engine.rules, max(0.001, replay.timeout))
    else:
        diagnostic = engine.judge(event)
    if diagnostic is not None and diagnostic.code is Code.UNDETERMINED:  # the solver ran out of time: no verdict to give
        result.log_error = LogError(diagnostic.line, diagnostic.code, diagnostic.message, None)
        return result
    result.legal = diagnostic is None
    if diagnostic is not None:
        result.code = diagnostic.code
        result.message = diagnostic.message
        result.rule = rule_data(engine.rules.rules_by_id[diagnostic.rule], engine.rules)
    else:
        result.rule = rule_data(engine.rules.check_rules[_legal_check(engine, event)], engine.rules)
    if isinstance(event, ev.Play) and seat is not None and engine.state.hands:
        _explain_play(result, engine, seat, event, legal=diagnostic is None)
    player = getattr(event, "player", None)
    if player is not None:
        result.alternatives = alternatives(engine, player)
    if diagnostic is not None:
        _explain_refusal(result, engine, player)
    return result


def _explain_refusal(result: Explanation, engine: Engine, player: str | None) -> None:
    """Around an illegal line: the rule of a ruling whose penalty is owed (a guilty challenge's, a catch's), and,
    when the line's player may do nothing, who must act first and what they may do."""
    state = engine.state
    owed = state.penalties[0] if state.penalties else None
    if owed is not None and owed.rule in engine.rules.rules_by_id:
        result.penalty_rule = rule_data(engine.rules.rules_by_id[owed.rule], engine.rules)
    if result.code == Code.OUT_OF_TURN and state.turn_rule in engine.rules.rules_by_id and state.turn_rule != (owed.rule if owed else None):
        result.turn_rule = rule_data(engine.rules.rules_by_id[state.turn_rule], engine.rules)
    acting = state.acting_seat
    if not result.alternatives and acting is not None and state.players[acting] != player:
        name = state.players[acting]
        result.must_act = {"player": name, "moves": alternatives(engine, name)}


def _replayed_to(
    source: LogSource, line: int, move: str | None, spec_override: Path | None, timeout: float
) -> tuple[Replay, FileVerdict, ev.Event | None]:
    """The log replayed up to ``line``, its verdict so far, and the hypothetical ``move`` read as an event."""
    if line < 1:
        raise UsageError("a line number is at least 1")
    replay = Replay(source.display, source.base_dir, spec_override, stop_at_line=line, spec_roots=source.spec_roots, timeout=timeout)
    verdict = replay.run_source(source)
    event_from_move = parse_move(move, line, replay.reader.form) if move is not None else None
    if line > replay.reader.lines + (1 if move is not None else 0):
        lines = replay.reader.lines
        raise InputError(f"line {line} is past the end: the log has {lines} line{'s' if lines != 1 else ''}", Position(source.display))
    return replay, verdict, event_from_move


def _legal_check(engine: Engine, event: ev.Event) -> Check:
    """The check whose rule makes a legal event legal: its kind's, a stack's, a penalty draw's or a turn's draw."""
    check = ev.KINDS[type(event)].check
    owes = engine.state.penalties[0].player if engine.state.penalties else None
    if isinstance(event, ev.Play) and owes is not None and engine.state.players[owes] == event.player:
        check = Check.PENALTY_OWED  # a legal play while owing is a stack (option stacking)
    if isinstance(event, ev.Play) and event.also:
        check = Check.DOUBLES  # several cards in one play: legal by the house rule doubles (ruling 29)
    if isinstance(event, ev.Draw):
        check = Check.PENALTY if owes is not None and engine.state.players[owes] == event.player else Check.TURN_DRAW
    return check


def _explain_play(result: Explanation, engine: Engine, seat: int, event: ev.Play, legal: bool) -> None:
    """A play's card rule (when not the rule already cited) and, for a legal play out of turn, the jump-in."""
    rules = engine.rules
    card = _played_card(engine, seat, event.card)
    if card is not None:
        face_rule = rules.rules_by_id.get(rules.faces[card.faces[engine.state.side]].rule)
        if face_rule is not None and result.rule is not None and face_rule.id != result.rule["id"]:
            result.card_rule = rule_data(face_rule, rules)
    result.jump_in = jump_in_data(engine, seat, event) if legal else None
    if result.jump_in is not None:  # legal by the house rule, not by the turn
        result.rule = rule_data(rules.check_rules[Check.JUMP_IN], rules)


def jump_in_data(engine: Engine, seat: int, event: ev.Play) -> JumpIn | None:
    """A legal play out of turn under the house rule jump-in: whose card it matched, and whose turn it was."""
    state = engine.state
    if not engine.rules.jump_in or state.turn == seat or state.penalties or (state.drew and seat == state.next_player(state.turn)):
        return None
    top = state.top_face()
    names = state.players
    return JumpIn(top.token if top is not None else None, names[state.top_by] if state.top_by is not None else None, names[state.turn])


def _played_card(engine: Engine, seat: int, token: str) -> Card | None:
    try:
        return engine.resolve_in_hand(seat, token)  # the same resolution as the replay
    except Reject:  # a card that does not resolve has no card rule to cite
        return None


def render_text(result: Explanation) -> list[str]:
    """The explanation as lines for a terminal."""
    lines = [f"{result.path}:{result.line}"]
    error = result.log_error
    if error is not None:
        said = "no verdict could be given" if error.code is Code.UNDETERMINED else "the log is invalid before this line"
        lines.append(f"  {said}: line {error.line}: {error.code}: {error.message}")
        if result.state is None:
            return lines
        lines.append("  (state where replay stopped)")
    assert result.state is not None
    lines += _state_lines(result.state)
    lines += _hand_lines(result)
    return lines + _verdict_lines(result)


def _state_lines(state: dict[str, Any]) -> list[str]:
    """The state before the line: round, side, direction, turn, top card, what is owed or due, hands and piles."""
    lines: list[str] = []
    lines.append(
        f"  round {state['round']} ({state['phase']}), {state['side']} side, play moves {state['direction']}"
        + (f"; {state['turn']}'s turn" if state["turn"] else "")
        + (" (has drawn this turn)" if state["drew_this_turn"] else "")
        + (f", once {state['acting']} has acted" if state["acting"] not in (None, state["turn"]) else "")
    )
    if state["top_card"]:
        lines.append(
            f"  top card {state['top_card']['face']} ({state['top_card']['card']}); colour in play: {state['colour_in_play'] or 'none yet'}"
        )
    if state["colour_to_be_chosen_by"]:
        lines.append(f"  {state['colour_to_be_chosen_by']} must choose the colour")
    if state["swap_due_by"]:
        lines.append(f"  {state['swap_due_by']} played a 7 and must name whom to swap hands with")
    if state.get("shuffle_due_by"):
        lines.append(f"  {state['shuffle_due_by']} must shuffle every hand and deal them out")
    if state["drawing_until_playable"]:
        lines.append(f"  {state['turn']} is drawing until a playable card comes")
    for penalty in state["penalties"]:
        extra = " (may still be challenged)" if penalty["challengeable"] else ""
        ruled = f", under rule {penalty['rule']}" if penalty["rule"] else ""
        lines.append(f"  penalty: {penalty['player']} owes {penalty['owes']}{extra}{ruled}")
    window = state["uno_window"]
    if window:
        said = "said UNO" if window["called"] else ("caught" if window["caught"] else "has not said UNO")
        lines.append(f"  UNO window open: {window['player']} played to one card at line {window['line']} and {said}")
    hands = ", ".join(f"{name} {size}" for name, size in state["hands"].items()) or "none dealt yet"
    lines.append(f"  hands: {hands}; draw pile {state['draw_pile']}, discard pile {state['discard_pile']}")
    return lines


def _hand_lines(result: Explanation) -> list[str]:
    """The acting player's hand, each card playable or why not (hidden in a public round)."""
    lines: list[str] = []
    state = result.state or {}
    if result.hand == [] and state["hands"].get(result.player):
        lines.append(f"  {result.player}'s hand: hidden (a public round)")
    elif result.hand is not None:
        lines.append(f"  {result.player}'s hand:")
        for card in result.hand:
            mark = "playable" if card["playable"] else "not playable: " + card["why_not"].split("; playable:")[0]
            count = f" x{card['count']}" if card["count"] > 1 else ""
            lines.append(f"    {card['showing']:<22} {card['card'] + count:<34} {mark}")
    return lines


def _verdict_lines(result: Explanation) -> list[str]:
    """The event, its verdict and the rule, source and ruling behind it; what is allowed instead of an illegal one."""
    lines: list[str] = []
    if result.event is None:
        lines.append("  no event on this line")
        return lines
    what = "hypothetical move" if result.hypothetical else "event"
    lines.append(f"  {what}: {result.event}")
    if result.legal is None:
        return lines
    rule = result.rule
    assert rule is not None
    if result.legal:
        lines.append(f"  legal [{rule['id']}]: {rule['summary']}")
    else:
        lines.append(f"  not legal: {result.code} [{rule['id']}]: {result.message}")
        lines.append(f"  rule {rule['id']}: {rule['summary']}")
    lines.append(f"  source: {rule['source']}")
    if rule["ruling"] is not None:
        lines.append(f"  ruling {rule['ruling']['number']}: {rule['ruling']['text']}")
    jump = result.jump_in
    if jump is not None:
        whose = f"{jump.played_by}'s" if jump.played_by else "the turned-up"
        lines.append(f"  a jump-in: {result.player}'s card is identical to {whose} {jump.matched}; it was {jump.turn_of}'s turn")
    if result.card_rule is not None:
        card_rule = result.card_rule
        lines.append(f"  the card [{card_rule['id']}]: {card_rule['summary']} (source: {card_rule['source']})")
    if result.penalty_rule is not None:
        owed = result.penalty_rule
        lines.append(f"  the penalty owed [{owed['id']}]: {owed['summary']} (source: {owed['source']})")
    if result.turn_rule is not None:
        moved = result.turn_rule
        whose = result.state["turn"] if result.state is not None else "the turn player"
        lines.append(f"  why it is {whose}'s turn [{moved['id']}]: {moved['summary']} (source: {moved['source']})")
    if not result.legal and result.alternatives is not None:
        lines.append("  allowed instead: " + ("; ".join(result.alternatives) or _nothing(result)))
    return lines


def _nothing(result: Explanation) -> str:
    """What an illegal line's player may do when nothing: who must act first, and what they may do."""
    if result.must_act is None:
        return "nothing (another player must act)"
    acting = result.must_act
    moves = "; ".join(acting["moves"]) or "nothing listed"
    return f"nothing for {result.player}: {acting['player']} must act first ({moves})"
