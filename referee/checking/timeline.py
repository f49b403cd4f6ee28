"""The table after every line of a log, as data: what ``referee view``'s page steps through.

The log is replayed once, keeping after every line the table a person would
see (hands, piles, turn, direction, side, colour, penalties, UNO window,
totals), stored as deltas; then ``check``'s verdict, ``explain`` at the first
error and ``adjudicate``'s rulings are attached to their lines. How a face is
drawn (``symbol``) is read from its compiled rules, not from its name. The
page itself (``referee.commands.page``) only renders this data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.checking.adjudicate import adjudicate
from referee.checking.explain import explain
from referee.checking.replay import DEFAULT_TIMEOUT, Replay, read_problem
from referee.engine.engine import PLAYING, Engine
from referee.engine.state import direction_token, phase_label
from referee.errors import InputError, Position
from referee.log import events as ev
from referee.log.inputs import LogSource
from referee.records import dataclass
from referee.rules.compiler import FaceRules, Rules
from referee.verdicts import Diagnostic

# A page for a log longer than this would be slow to open; view refuses it (exit 2) rather than write it.
MAX_LINES = 20_000
MAX_LOG_BYTES = 64 * 1024 * 1024  # the log a page is made of (a private copy of it is read)


@dataclass
class _Cards:
    """Every physical card met, numbered; the page draws a card from its faces (one per side)."""

    index: dict[str, int]
    table: list[list[dict[str, Any]]]
    rules: Rules | None = None

    def number(self, card: Any) -> int:
        found = self.index.get(card.token)
        if found is None:
            found = self.index[card.token] = len(self.table)
            self.table.append([_face(face, self.rules) for face in card.faces])
        return found


def symbol(face_rules: FaceRules) -> str:
    """What the page prints in the middle of a card, from what the face does (no game's card names in the page):
    its number, else W for a wild, +N or +C for a penalty of N cards or until a colour, then the turn effects."""
    face = face_rules.face
    if face.number is not None:
        return str(face.number)
    wild = "W" if face.is_wild else ""
    draw = "+C" if face_rules.draw_until_colour else f"+{face_rules.draw}" if face_rules.draw else ""
    turn = "\u21c4" if face_rules.reverse else ""
    turn += "\u2298\u2298" if face_rules.skip_everyone else "\u2298" * face_rules.skip if not face_rules.gives_penalty else ""
    turn += "FLIP" if face_rules.flip else ""
    return wild + draw + turn or face.kind


def _face(face: Any, rules: Rules | None) -> dict[str, Any]:
    shown = symbol(rules.faces[face]) if rules is not None and face in rules.faces else face.token
    return {"t": face.token, "c": face.colour, "k": face.kind, "n": face.number, "w": face.face_class.value, "s": shown}


def _snapshot(engine: Engine, cards: _Cards) -> dict[str, Any]:
    state = engine.state
    names = state.players
    hands = []
    for hand in state.hands:
        held: list[int] = []
        for card, count in sorted(hand.items(), key=lambda item: item[0].token):
            held.extend([cards.number(card)] * count)
        hands.append(held)
    return {
        "round": state.round_number,
        "phase": phase_label(state.phase),
        "side": state.side,
        "direction": direction_token(state.direction),
        "turn": state.turn if state.phase is PLAYING and names else None,
        "acting": state.acting_seat if names else None,  # who must act now (a penalty's drawer, a chooser), else the turn
        "top": cards.number(state.discard_pile[-1]) if state.discard_pile else None,
        "colour": state.colour,
        "chooser": state.choose_by,
        "draw": state.draw_pile_size(),
        "discard": len(state.discard_pile),
        "penalties": [[p.player, p.describe()] for p in state.penalties],
        "uno": [state.uno_player, state.uno_called] if state.uno_player is not None else None,
        "swap": state.swap_by,
        "drawing": state.drawing,
        "totals": list(state.totals),
        "sizes": list(state.hand_sizes),
        "hands": hands,
    }


def _delta(previous: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """What changed: the page applies deltas in order to rebuild each step."""
    changed: dict[str, Any] = {}
    for key, value in current.items():
        if key == "hands":
            old = previous.get("hands", [])
            hands = {str(seat): held for seat, held in enumerate(value) if seat >= len(old) or old[seat] != held}
            if hands or len(value) != len(old):
                changed["hands"] = hands
                changed["players"] = len(value)
        elif previous.get(key) != value:
            changed[key] = value
    return changed


def page_data(source: LogSource, spec_override: Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data (``timeout``: the seconds for the log's public rounds, as
    ``check --timeout``, and again for ``explain`` at its first error)."""
    lines = _read_lines(source)
    cards = _Cards({}, [])
    steps: list[dict[str, Any]] = []
    previous: dict[str, Any] = {}
    players: list[str] = []

    def after(engine: Engine, event: ev.Event, diagnostic: Diagnostic | None) -> None:
        nonlocal previous, players
        cards.rules = engine.rules
        if engine.state.players and not players:
            players = list(engine.state.players)
        current = _snapshot(engine, cards)
        steps.append({"line": event.line, **_delta(previous, current)})
        previous = current

    replay = Replay(source.display, source.base_dir, spec_override, after_event=after, spec_roots=source.spec_roots, timeout=timeout)
    verdict = replay.run_source(source)
    if replay.engine is not None and not players:
        players = list(replay.engine.state.players)
    errors = [{"line": e.line, "code": e.code, "message": e.message, "rule": e.rule} for e in verdict.errors]
    warnings = [{"line": w.line, "code": w.code, "message": w.message, "rule": w.rule} for w in verdict.warnings]
    explained = None
    if verdict.errors and verdict.errors[0].code != "syntax" and source.path is not None:
        result = explain(source, verdict.errors[0].line, None, spec_override, timeout)
        rule = result.rule or {}
        explained = {
            "line": result.line,
            "code": result.code or verdict.errors[0].code,
            "message": result.message or verdict.errors[0].message,
            "rule": rule.get("id", verdict.errors[0].rule),
            "summary": rule.get("summary"),
            "source": rule.get("source"),
            "alternatives": result.alternatives or [],
        }
    disputes = []
    if source.path is not None:
        ruled = adjudicate(source, spec_override, timeout)
        disputes = [
            {
                "line": d["line"],
                "kind": d["kind"],
                "by": d["by"],
                "against": d["against"],
                "ruling": d["ruling"],
                "rule": d["rule"],
                "reason": d["reason"],
                "evidence": d["evidence"],
                "penalty": d["penalty"],
            }
            for d in ruled.to_json()["disputes"]
        ]
    rounds = [
        {"round": r.number, "finished": r.finished, "winner": r.winner, "side": r.side, "points": r.points, "totals": r.totals}
        for r in verdict.rounds
    ]
    return {
        "path": source.display,
        "spec": replay.engine.rules.spec.name if replay.engine is not None else None,
        "players": players,
        "lines": lines,
        "cards": cards.table,
        "sides": list(replay.engine.rules.spec.colours) if replay.engine is not None else [[], []],
        "side_names": list(replay.engine.rules.spec.side_names) if replay.engine is not None else [],
        "steps": steps,
        "errors": errors,
        "warnings": warnings,
        "explained": explained,
        "disputes": disputes,
        "rounds": rounds,
        "winner": verdict.game_winner,
        "valid": verdict.valid,
        "undetermined": verdict.undetermined,  # why a public round could not be settled in time (None: it was)
    }


SHOWN_BYTES = 400  # of a line, on the timeline


def _read_lines(source: LogSource) -> list[str]:
    """The log's lines as text for the timeline (bad bytes shown replaced, each cut to ``SHOWN_BYTES``); refuses logs
    too long to view. A line is read in bounded pieces: a 300 MB line costs 64 KB, not 300 MB."""
    stream = source.open()
    try:
        lines: list[str] = []
        while True:
            raw = stream.readline(64 * 1024)
            if not raw:
                break
            if len(lines) >= MAX_LINES:
                raise InputError(
                    f"the log has more than {MAX_LINES:,} lines: too long for one page (check and explain handle any length)",
                    Position(source.display),
                )
            lines.append(raw[:SHOWN_BYTES].decode("utf-8", errors="replace").rstrip("\r\n"))
            while not raw.endswith(b"\n"):  # the rest of a long line, skipped
                raw = stream.readline(64 * 1024)
                if not raw:
                    break
        return lines
    except OSError as error:
        raise InputError(f"cannot read: {read_problem(source, error)}", Position(source.display)) from None
    finally:
        if source.path is not None:
            stream.close()
