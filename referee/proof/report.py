"""Proof results -> text, JSON (the shape of the prove contract) and JUnit XML."""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from referee.proof.queries import Status


def _players(players: list[int]) -> str:
    return f"{players[0]}-{players[-1]} players" if len(players) > 1 else f"{players[0]} players"


def render_text(result: dict[str, Any]) -> list[str]:
    """One spec's proof as lines for a terminal: each invariant and claim, the gaps, the totals."""
    lines = [f"{result['spec']} ({result['name']})"]
    for heading, outcomes in (("invariants", result["invariants"]), ("claims", result.get("claims", []))):
        if outcomes:
            lines.append(f" {heading}:")
        for outcome in outcomes:
            lines += _outcome_lines(outcome, heading)
    if result.get("claims_file") is False and result.get("invariants"):
        lines.append(
            f" claims: none: game '{result.get('game')}' has no claims file (specs/claims/{result.get('game')}.yml); "
            "only the invariants were proved (a copy of a shipped spec keeps its 'game' line)"
        )
    lines += _gap_lines(result["gaps"])
    outcomes = [*result["invariants"], *result.get("claims", [])]
    counts = {status: sum(1 for o in outcomes if o.status == status) for status in Status}
    open_gaps = sum(1 for gap in result["gaps"] if not gap["closed"])
    lines.append(
        f" total: {counts[Status.PROVED]} proved, {counts[Status.REFUTED]} refuted, {counts[Status.UNKNOWN]} unknown, "
        f"{open_gaps} open gap{'s' if open_gaps != 1 else ''}, in {result.get('seconds', 0.0):.3f} s"
    )
    return lines


def _outcome_lines(outcome: Any, heading: str) -> list[str]:
    """An invariant or a claim: its status and time, why (unless a plain proof of a claim), its source if refuted,
    and the counterexample."""
    extra = ""
    if outcome.status is Status.REFUTED:
        extra = f"  (fails for {', '.join(map(str, outcome.refuted_for))} players)" if outcome.refuted_for else ""
    lines = [f"  {outcome.id:<28} {outcome.status:<8} {_players(outcome.players):<14} {outcome.seconds:7.3f} s{extra}"]
    if outcome.detail and (outcome.status is not Status.PROVED or heading == "invariants" or getattr(outcome, "withdrawn", "")):
        lines.append(f"    {outcome.detail}")
    if outcome.status is Status.REFUTED and outcome.source:
        lines.append(f"    {'the spec' if outcome.restated else 'the rulebook'}: {outcome.source}")
    if outcome.counterexample:
        lines.append("    counterexample:")
        lines.extend(f"      {line}" for line in outcome.counterexample.rstrip("\n").split("\n"))
    return lines


def _gap_lines(gaps: list[dict[str, Any]]) -> list[str]:
    lines = [" gaps:"] if gaps else []
    for gap in gaps:
        state = f"closed by ruling {gap['ruling']}" if gap["closed"] else f"OPEN (ruling {gap['ruling']} closes it)"
        if gap["closed"] and not gap.get("reachable", True):
            state = "does not arise in this game"
        needed = "; stuck without that ruling" if gap.get("needs_ruling") else ""
        lines.append(f"  {gap['id']:<28} {state}: {gap['summary'].rstrip('.')}{needed}")
    return lines


def _outcome_json(outcome: Any, with_source: bool = False) -> dict[str, Any]:
    """An invariant or claim as JSON; a claim adds where the rulebook says it."""
    data = {
        "id": outcome.id,
        "status": outcome.status,
        "players": outcome.players,
        "seconds": round(outcome.seconds, 4),
        "counterexample": outcome.counterexample,
        "refuted_for": outcome.refuted_for,
        "detail": outcome.detail or None,
    }
    if with_source:
        data["source"] = outcome.source
        data["restated"] = outcome.restated
        data["withdrawn"] = outcome.withdrawn or None
    return data


def render_json(results: list[dict[str, Any]]) -> str:
    data = {
        "specs": [
            {
                "spec": result["spec"],
                "game": result.get("game"),
                "claims_file": result.get("claims_file"),
                "seconds": round(result.get("seconds", 0.0), 4),
                "invariants": [_outcome_json(o) for o in result["invariants"]],
                "claims": [_outcome_json(o, with_source=True) for o in result.get("claims", [])],
                "gaps": [
                    {
                        "id": g["id"],
                        "ruling": g["ruling"],
                        "closed": g["closed"],
                        "needs_ruling": g["needs_ruling"],
                        "reachable": g["reachable"],
                        "summary": g["summary"],
                    }
                    for g in result["gaps"]
                ],
            }
            for result in results
        ]
    }
    return json.dumps(data, indent=1, ensure_ascii=False)


def render_junit(results: list[dict[str, Any]]) -> str:
    cases = []
    failures = errors = 0
    for result in results:
        for outcome in [*result["invariants"], *result.get("claims", [])]:
            body = ""
            if outcome.status is Status.REFUTED:
                failures += 1
                body = f"<failure message={quoteattr('refuted')}>{escape(outcome.counterexample or outcome.detail)}</failure>"
            elif outcome.status is Status.UNKNOWN:
                errors += 1
                body = f"<error message={quoteattr('unknown')}>{escape(outcome.detail)}</error>"
            cases.append(
                f"  <testcase classname={quoteattr(result['name'])} name={quoteattr(outcome.id)} "
                f'time="{outcome.seconds:.4f}">{body}</testcase>'
            )
        for gap in result["gaps"]:
            body = "" if gap["closed"] else f"<failure message={quoteattr('open gap')}>{escape(gap['summary'])}</failure>"
            failures += 0 if gap["closed"] else 1
            cases.append(f'  <testcase classname={quoteattr(result["name"])} name={quoteattr(gap["id"])} time="0">{body}</testcase>')
    header = f'<testsuite name="referee prove" tests="{len(cases)}" failures="{failures}" errors="{errors}">'
    return "\n".join(['<?xml version="1.0" encoding="utf-8"?>', header, *cases, "</testsuite>"]) + "\n"
