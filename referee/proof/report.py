"""Proof results -> text, JSON (the shape of the prove contract) and JUnit XML."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from referee.proof.answers import Status
from referee.proof.gaps import GapResult
from referee.proof.prove import ProofResult, SpecProof


def _players(players: list[int]) -> str:
    return f"{players[0]}-{players[-1]} players" if len(players) > 1 else f"{players[0]} players"


# A counterexample in the text report: its notes and the last lines before the violating step; the whole log is
# in the JSON and JUnit reports, and in the file ``prove --out DIR`` writes.
SHOWN_LINES = 4
LINE_WIDTH = 100


def counterexample_name(result: SpecProof, outcome: ProofResult) -> str:
    """The file ``prove --out DIR`` writes an outcome's counterexample to: SPEC-NAME.ID.log (safe characters only)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", f"{result.name}.{outcome.id}") + ".log"


def render_text(result: SpecProof, written: dict[str, Path] | None = None) -> list[str]:
    """One spec's proof as lines for a terminal: each invariant and claim (a counterexample short, or the file it
    was ``written`` to), the gaps, the totals, and the next step when the spec changes the rulebook."""
    lines = [f"{result.spec} ({result.name})"]
    for heading, outcomes in (("invariants", result.invariants), ("claims", result.claims)):
        if outcomes:
            lines.append(f" {heading}:")
        for outcome in outcomes:
            lines += _outcome_lines(outcome, heading, result.spec, (written or {}).get(outcome.id))
    if result.claims_file is False and result.invariants:
        lines.append(
            f" claims: none: game '{result.game}' has no claims file (specs/claims/{result.game}.yml); "
            "only the invariants were proved (a copy of a shipped spec keeps its 'game' line)"
        )
    lines += _gap_lines(result.gaps)
    if result.wording:
        lines.append(" wording (texts the spec's figures contradict, as 'referee rules --lint' lists them):")
        lines += [f"  {message}" for message in result.wording]
    counts = {status: sum(1 for o in result.results if o.status == status) for status in Status}
    open_gaps = sum(1 for gap in result.gaps if not gap.closed)
    lines.append(
        f" total: {counts[Status.PROVED]} proved, {counts[Status.REFUTED]} refuted, {counts[Status.UNKNOWN]} unknown, "
        f"{open_gaps} open gap{'s' if open_gaps != 1 else ''}, in {result.seconds:.3f} s"
    )
    if result.declarable or result.wording:
        lines.append(f" next: if these changes are meant, 'referee prove --spec {result.spec} --declare' prints what to restate")
    return lines


def _outcome_lines(outcome: ProofResult, heading: str, spec: str, written: Path | None) -> list[str]:
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
        lines += _counterexample_lines(outcome.counterexample, spec, written)
    return lines


def _counterexample_lines(log: str, spec: str, written: Path | None) -> list[str]:
    """A counterexample cut short: its notes (not the replay hint), then the last lines up to the violating step, a
    long line (a deal's shuffle) cut; or, once written to a file, its notes and where it is."""
    lines = log.rstrip("\n").split("\n")
    notes = [line for line in lines if line.startswith("#") and not line.startswith("# replay:")]
    body = [line for line in lines if line and not line.startswith("#")]
    if written is not None:
        head = f"    counterexample: {written} ({len(body)} lines; replay: referee check --spec {spec} {written})"
        return [head, *(f"      {note}" for note in notes)]
    shown = body[-SHOWN_LINES:]
    hidden = len(body) - len(shown)
    more = f"; {hidden} line{'s' if hidden != 1 else ''} before these, the whole log with --out DIR" if hidden else ""
    cut = [
        line if len(line) <= LINE_WIDTH else f"{line[: LINE_WIDTH - 20].rsplit(' ', 1)[0]} … ({len(line.split()) - 1} cards)"
        for line in shown
    ]
    return [f"    counterexample{' (the end of it' + more + ')' if hidden else ''}:", *(f"      {line}" for line in notes + cut)]


def _cut(line: str) -> str:
    """A long line (a deal's shuffle) cut at a word, with how many cards it names."""
    return f"{line[: LINE_WIDTH - 20].rsplit(' ', 1)[0]} … ({len(line.split()) - 1} cards)"


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
