"""Proof results -> text, JSON (the shape of the prove contract) and JUnit XML."""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from referee.proof.answers import Status
from referee.proof.gaps import GapResult
from referee.proof.prove import ProofResult, SpecProof


def _players(players: list[int]) -> str:
    return f"{players[0]}-{players[-1]} players" if len(players) > 1 else f"{players[0]} players"


def render_text(result: SpecProof) -> list[str]:
    """One spec's proof as lines for a terminal: each invariant and claim, the gaps, the totals."""
    lines = [f"{result.spec} ({result.name})"]
    for heading, outcomes in (("invariants", result.invariants), ("claims", result.claims)):
        if outcomes:
            lines.append(f" {heading}:")
        for outcome in outcomes:
            lines += _outcome_lines(outcome, heading)
    if result.claims_file is False and result.invariants:
        lines.append(
            f" claims: none: game '{result.game}' has no claims file (specs/claims/{result.game}.yml); "
            "only the invariants were proved (a copy of a shipped spec keeps its 'game' line)"
        )
    lines += _gap_lines(result.gaps)
    counts = {status: sum(1 for o in result.results if o.status == status) for status in Status}
    open_gaps = sum(1 for gap in result.gaps if not gap.closed)
    lines.append(
        f" total: {counts[Status.PROVED]} proved, {counts[Status.REFUTED]} refuted, {counts[Status.UNKNOWN]} unknown, "
        f"{open_gaps} open gap{'s' if open_gaps != 1 else ''}, in {result.seconds:.3f} s"
    )
    return lines


def _outcome_lines(outcome: ProofResult, heading: str) -> list[str]:
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


def _gap_lines(gaps: list[GapResult]) -> list[str]:
    lines = [" gaps:"] if gaps else []
    for gap in gaps:
        state = f"closed by ruling {gap.ruling}" if gap.closed else f"OPEN (ruling {gap.ruling} closes it)"
        if gap.closed and not gap.reachable:
            state = "does not arise in this game"
        needed = "; stuck without that ruling" if gap.needs_ruling else ""
        lines.append(f"  {gap.id:<28} {state}: {gap.summary.rstrip('.')}{needed}")
    return lines


def render_json(results: list[SpecProof]) -> str:
    return json.dumps({"specs": [result.to_json() for result in results]}, indent=1, ensure_ascii=False)


def render_junit(results: list[SpecProof]) -> str:
    cases = []
    failures = errors = 0
    for result in results:
        for outcome in result.results:
            body = ""
            if outcome.status is Status.REFUTED:
                failures += 1
                body = f"<failure message={quoteattr('refuted')}>{escape(outcome.counterexample or outcome.detail)}</failure>"
            elif outcome.status is Status.UNKNOWN:
                errors += 1
                body = f"<error message={quoteattr('unknown')}>{escape(outcome.detail)}</error>"
            cases.append(
                f"  <testcase classname={quoteattr(result.name)} name={quoteattr(outcome.id)} "
                f'time="{outcome.seconds:.4f}">{body}</testcase>'
            )
        for gap in result.gaps:
            body = "" if gap.closed else f"<failure message={quoteattr('open gap')}>{escape(gap.summary)}</failure>"
            failures += 0 if gap.closed else 1
            cases.append(f'  <testcase classname={quoteattr(result.name)} name={quoteattr(gap.id)} time="0">{body}</testcase>')
    header = f'<testsuite name="referee prove" tests="{len(cases)}" failures="{failures}" errors="{errors}">'
    return "\n".join(['<?xml version="1.0" encoding="utf-8"?>', header, *cases, "</testsuite>"]) + "\n"
