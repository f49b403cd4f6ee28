"""Rulings on disputes: challenges of wild draw cards and UNO catches.

Replays a log and rules on every ``challenges`` and ``catches`` line (guilty or
innocent, valid or invalid, with the evidence and the penalty that follows),
then says whether the log applied each ruling correctly. Where the log stops
at an open dispute (a wild draw not yet drawn for, an UNO window still open, a
challenge just made) it rules on what may happen now, naming in full mode the
exact cards that would be drawn.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from referee.checking.ci_report import Finding, LogFindings
from referee.checking.replay import DEFAULT_TIMEOUT, Replay
from referee.engine.engine import PLAYING, Dispute, Engine, Penalty
from referee.engine.state import Ruling
from referee.errors import InputError, ReportedError
from referee.log import events as ev
from referee.log.inputs import LogSource
from referee.records import dataclass
from referee.verdicts import Bluff, Code, Diagnostic, Forced, HiddenAnswer, LogError

INVALID_DISPUTES = frozenset({"invalid-catch", "invalid-challenge"})


class _Tracker:
    """Follows each ruled dispute until the log has applied it (or failed to)."""

    def __init__(self) -> None:
        self.seen = 0
        self.awaiting_next: list[Dispute] = []
        self.open: list[Dispute] = []

    def __call__(self, engine: Engine, event: ev.Event, diagnostic: Diagnostic | None) -> None:
        for dispute in self.awaiting_next:
            dispute.applied = diagnostic is None
        self.awaiting_next = []
        still_open = []
        for dispute in self.open:
            if not any(p is dispute.penalty for p in engine.state.penalties):
                dispute.applied = True
            elif diagnostic is not None:
                dispute.applied = False
            else:
                still_open.append(dispute)
        for dispute in engine.disputes[self.seen :]:
            if dispute.ruling is Ruling.INVALID:
                self.awaiting_next.append(dispute)
            elif dispute.penalty is None or not any(p is dispute.penalty for p in engine.state.penalties):
                dispute.applied = True
            else:
                still_open.append(dispute)
        self.seen = len(engine.disputes)
        self.open = still_open


def _penalty_json(dispute: Dispute) -> dict[str, Any] | None:
    if dispute.penalty_player is None:
        return None
    return {
        "player": dispute.penalty_player,
        "cards": dispute.cards,
        "until_colour": dispute.until_colour,
        "extra": dispute.extra,
        "loses_turn": dispute.loses_turn,
        "then": dispute.then,
    }


def _dispute_json(dispute: Dispute) -> dict[str, Any]:
    return {
        "line": dispute.line,
        "kind": dispute.kind,
        "by": dispute.by,
        "against": dispute.against,
        "ruling": dispute.ruling,
        "rule": dispute.rule,
        "reason": dispute.reason,
        "evidence": list(dispute.evidence),
        "penalty": _penalty_json(dispute),
        "applied": dispute.applied,
    }


def _cards_drawn(engine: Engine, events: list[ev.Event]) -> list[str] | None:
    """In full mode, the exact cards that the draws following ``events`` would take (None in observed mode); the
    engine is restored after asking."""
    if not engine.state.knowledge.takes_top():
        return None
    snapshot = engine.snapshot()
    try:
        for event in events[:-1]:
            if engine.apply(event) is not None:
                return None
        last = events[-1]
        assert isinstance(last, ev.Draw)
        before = list(engine.state.draw_pile)
        if engine.apply(last) is not None:
            return []
        taken = len(before) - len(engine.state.draw_pile)
        return [card.token for card in reversed(before[len(before) - taken :])]
    finally:
        engine.restore(snapshot)


def _owed(penalty: Penalty, names: tuple[str, ...], extra: int = 0) -> dict[str, Any]:
    return {
        "player": names[penalty.player],
        "cards": penalty.count + (extra if penalty.until_colour is None else 0) if penalty.until_colour is None else None,
        "until_colour": penalty.until_colour,
        "extra": penalty.extra + (extra if penalty.until_colour is not None else 0),
    }


def pending(engine: Engine) -> list[dict[str, Any]]:
    """What may happen now, where the log stops at an open dispute."""
    state = engine.state
    if state.phase is not PLAYING:
        return []
    names = state.players
    rules = engine.rules
    result: list[dict[str, Any]] = []
    if state.uno_player is not None and not state.uno_called and not state.uno_caught:
        player = names[state.uno_player]
        catcher = next(name for name in names if name != player)
        catch = ev.Catch(0, catcher, player)
        ruled = _ruled(engine, catch)
        drawer = ruled.penalty_player if ruled is not None and ruled.penalty_player is not None else player
        result.append(
            {
                "kind": "catch",
                "line": state.uno_line,
                "against": player,
                "who": [name for name in names if name != player],
                "until": "the next plays, draws, passes, chooses or challenges line",
                "rule": rules.check_rules["catch"].id,
                "evidence": [],
                "outcomes": [
                    {
                        "if": "caught",
                        "ruling": Ruling.VALID,
                        "rule": rules.check_rules["catch"].id,
                        "penalty": _penalty_json(ruled) if ruled is not None else None,
                        "cards_drawn": _cards_drawn(engine, [catch, ev.Draw(0, drawer, ())]),
                    }
                ],
            }
        )
    if state.penalties:
        penalty = state.penalties[0]
        victim = names[penalty.player]
        # read before any what-if: asking one changes this penalty object (restore gives the state a fresh copy)
        owed, line, evidence, loses_turn = _owed(penalty, names), penalty.line, penalty.evidence, penalty.loses_turn
        owed["then"] = names[penalty.next_turn] if penalty.next_turn is not None else None
        if penalty.challengeable and not penalty.started and penalty.played_by is not None:
            culprit = names[penalty.played_by]
            challenge = ev.Challenge(0, victim, culprit)
            ruled = _ruled(engine, challenge)
            assert ruled is not None and ruled.penalty_player is not None
            drawer = ruled.penalty_player
            result.append(
                {
                    "kind": "challenge",
                    "line": line,
                    "against": culprit,
                    "who": [victim],
                    "until": f"{victim} draws any card of the penalty",
                    "rule": rules.check_rules["challenge"].id,
                    "evidence": [card.token for card in evidence],
                    "outcomes": [
                        {
                            "if": "challenged",
                            "ruling": ruled.ruling,
                            "rule": ruled.rule,
                            "penalty": _penalty_json(ruled),
                            "cards_drawn": _cards_drawn(engine, [challenge, ev.Draw(0, drawer, ())]),
                        },
                        {
                            "if": "not challenged",
                            "ruling": None,
                            "rule": rules.check_rules["penalty"].id,
                            "penalty": {**owed, "loses_turn": True},
                            "cards_drawn": _cards_drawn(engine, [ev.Draw(0, victim, ())]),
                        },
                    ],
                }
            )
        else:
            result.append(
                {
                    "kind": "penalty",
                    "line": line,
                    "against": victim,
                    "who": [victim],
                    "until": None,
                    "rule": rules.check_rules["penalty"].id,
                    "evidence": [],
                    "outcomes": [
                        {
                            "if": "drawn",
                            "ruling": None,
                            "rule": rules.check_rules["penalty"].id,
                            "penalty": {**owed, "loses_turn": loses_turn},
                            "cards_drawn": _cards_drawn(engine, [ev.Draw(0, victim, ())]),
                        }
                    ],
                }
            )
    return result


def _ruled(engine: Engine, event: ev.Catch | ev.Challenge) -> Dispute | None:
    """The engine's ruling on ``event`` made now, then undone (``snapshot``/``restore``): the one definition of
    what a dispute costs."""
    snapshot = engine.snapshot()
    recording = engine.record_disputes
    engine.record_disputes = True
    try:
        if engine.apply(event) is not None or len(engine.disputes) == snapshot.disputes:
            return None
        return engine.disputes[-1]
    finally:
        engine.record_disputes = recording
        engine.restore(snapshot)


@dataclass(slots=True)
class Adjudication:
    """Every dispute in a log, ruled, and what is pending where it stops. ``to_json`` has always the same keys, in
    this order (docs/json.md); ``pending`` is JSON-ready already (what may happen, each with its outcomes)."""

    path: str
    input_error: str | None = None
    log_error: LogError | None = None
    disputes: list[Dispute] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    hidden: list[HiddenAnswer] = field(default_factory=list)

    @property
    def findings(self) -> bool:
        """A ruling the log did not apply, or the log's own error."""
        return self.log_error is not None or any(dispute.applied is False for dispute in self.disputes)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "input_error": self.input_error,
            "log_error": self.log_error.to_json() if self.log_error is not None else None,
            "disputes": [_dispute_json(dispute) for dispute in self.disputes],
            "pending": self.pending,
            "hidden": [answer.to_json() for answer in self.hidden],
        }


def adjudicate(source: LogSource | Path, spec_override: Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> Adjudication:
    """Every dispute in a log, ruled, and what is pending where it stops (``timeout``: the seconds for the log's
    public rounds, as ``check --timeout``).

    A log that cannot be read, or whose spec is invalid, gives ``input_error``
    (the one-line message) and empty lists, so that a batch goes on.
    """
    if isinstance(source, Path):
        source = LogSource(str(source), source)
    result = Adjudication(source.display)
    if source.problem is not None:
        result.input_error = f"{source.display}: error: {source.problem}"
        return result
    tracker = _Tracker()
    replay = Replay(
        source.display,
        source.base_dir,
        spec_override,
        after_event=tracker,
        continue_after=INVALID_DISPUTES,
        record_disputes=True,
        spec_roots=source.spec_roots,
        timeout=timeout,
    )
    try:
        verdict = replay.run_source(source)
    except (InputError, ReportedError) as error:
        result.input_error = error.render()
        return result
    errors = [error for error in verdict.errors if error.code not in INVALID_DISPUTES]
    if errors:
        first = errors[0]
        result.log_error = LogError(first.line, first.code, first.message, first.rule)
    engine = replay.engine
    if engine is None or any(error.code == Code.SYNTAX for error in verdict.errors):
        return result
    result.disputes = list(engine.disputes)
    result.hidden = list(verdict.answers)
    if not errors:
        result.pending = pending(engine)
    return result


def render_text(ruled: Adjudication) -> list[str]:
    """The rulings as lines for a terminal (an unreadable log: its one error line)."""
    result = ruled.to_json()  # the text says what the JSON says, read from the same fields
    path = result["path"]
    if result["input_error"] is not None:
        return [result["input_error"]]
    lines = []
    for dispute in result["disputes"]:
        applied = {True: "applied correctly", False: "NOT applied correctly", None: "not yet applied (the log stops)"}[dispute["applied"]]
        who = f"{dispute['kind']} by {dispute['by']} against {dispute['against']}"
        head = f"{path}:{dispute['line']}: {who}: {dispute['ruling']} [{dispute['rule']}]"
        lines.append(f"{head}: {dispute['reason']}")
        if dispute["penalty"]:
            lines.append(f"  penalty: {_penalty_text(dispute['penalty'])}; {applied}")
        else:
            lines.append(f"  no penalty; {applied}")
    for answer in result["hidden"]:
        if "bluff" in answer:
            held = f"{answer['player']} {Bluff(answer['bluff']).said} a {answer['colour']} card"
            lines.append(f"{path}:{answer['line']}: wild draw card, not challenged: {held} (bluff {answer['bluff']})")
        else:
            forced = Forced(answer["forced"]).said
            card = f"{answer['player']}'s wild draw card (line {answer['line']})"
            lines.append(f"{path}:{answer['challenge']}: the {answer['ruling']} ruling on {card} is {forced} the hidden hands allow")
    error = result["log_error"]
    if error:
        lines.append(f"{path}:{error['line']}: the log is invalid here ({error['code']}: {error['message']}); replay stopped")
    for item in result["pending"]:
        who = " or ".join(item["who"])
        if item["kind"] == "catch":
            lines.append(
                f"{path}: pending: {item['against']} has one card and has not said UNO (line {item['line']}); "
                f"{who} may catch until {item['until']}"
            )
        elif item["kind"] == "challenge":
            lines.append(
                f"{path}: pending: {who} may challenge {item['against']}'s wild draw card (line {item['line']}) until {item['until']}"
            )
        else:
            lines.append(f"{path}: pending: {who} owes a penalty (line {item['line']})")
        for outcome in item["outcomes"]:
            cards = outcome["cards_drawn"]
            shown = f" ({' '.join(cards)})" if cards else ""
            ruling = f"{outcome['ruling']}: " if outcome["ruling"] else ""
            lines.append(f"  if {outcome['if']}: {ruling}{_penalty_text(outcome['penalty'])}{shown}")
    if not result["disputes"] and not result["pending"] and not result["hidden"] and not error:
        lines.append(f"{path}: no challenges or catches, nothing pending")
    return lines


def _penalty_text(penalty: dict[str, Any]) -> str:
    if penalty["until_colour"]:
        amount = f"cards until a {penalty['until_colour']} one" + (f", then {penalty['extra']} more" if penalty["extra"] else "")
    else:
        total = (penalty["cards"] or 0) + penalty["extra"]
        amount = f"{total} card{'s' if total != 1 else ''}"
    turn = " and loses the turn" if penalty.get("loses_turn") else ""
    then = f"; then {penalty['then']} plays" if penalty.get("then") else ""
    return f"{penalty['player']} draws {amount}{turn}{then}"


def ci_findings(result: Adjudication, rule_texts: dict[str, tuple[str, str]]) -> LogFindings:
    """An ``adjudicate`` result as findings for the CI formats (``referee.checking.ci_report``): a ruling the log did
    not apply, or the log's own error."""
    findings = []
    for dispute in result.disputes:
        if dispute.applied is False:
            what = f"{dispute.kind} by {dispute.by} against {dispute.against}: {dispute.ruling}: {dispute.reason}"
            findings.append(Finding(dispute.line, "ruling-not-applied", dispute.rule, f"{what}; the log did not apply the ruling"))
    error = result.log_error
    if error is not None:
        findings.append(Finding(error.line, error.code, error.rule or "", f"the log is invalid here: {error.message}"))
    findings.sort(key=lambda finding: finding.line or 0)
    cited = {finding.rule: rule_texts[finding.rule] for finding in findings if finding.rule in rule_texts}
    return LogFindings(result.path, findings, result.input_error, cited)
