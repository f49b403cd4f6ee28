"""Verdicts -> the formats CI systems read: JUnit XML, SARIF 2.1.0 and GitHub workflow commands.

``check`` and ``adjudicate`` both reduce each log to a ``LogFindings`` (its
errors and warnings, each at a line with a code and a rule id); the renderers
here write those as they come, so that memory stays flat however many logs a
run checks. A log that could not be read is a JUnit ``<error>``, a SARIF tool
notification and a GitHub ``::error``.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import field
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from referee.errors import escape
from referee.records import dataclass
from referee.verdicts import FileVerdict

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
Write = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Finding:
    """One error or warning of one log, at a line (``None``: the log as a whole)."""

    line: int | None
    code: str
    rule: str
    message: str
    level: str = "error"  # or "warning"


@dataclass(slots=True)
class LogFindings:
    """What a CI report says about one log."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    input_error: str | None = None
    rule_texts: dict[str, tuple[str, str]] = field(default_factory=dict)  # rule id -> (summary, citation)

    @property
    def errors(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.level == "error"]


def from_verdict(verdict: FileVerdict, quiet: bool = False) -> LogFindings:
    """A ``check`` verdict: its errors, and its warnings unless ``quiet``."""
    findings = [Finding(error.line, error.code, error.rule, _with_allowed(error.message, error.allowed)) for error in verdict.errors]
    if not quiet:
        findings += [Finding(warning.line, warning.code, warning.rule, warning.message, "warning") for warning in verdict.warnings]
        findings.sort(key=lambda finding: (finding.line or 0, finding.level != "error"))  # in line order, as the text is
    return LogFindings(verdict.path, findings, verdict.input_error, dict(verdict.rule_texts))


def _with_allowed(message: str, allowed: tuple[str, ...]) -> str:
    return f"{message} (allowed: {', '.join(allowed)})" if allowed else message


# -- JUnit XML


def write_junit(logs: Iterable[LogFindings], write: Write, command: str) -> None:
    """One test case per log; its first error is the failure (file and line in the text), warnings in system-out.

    The suite's counts come first in the file, so the test cases are spooled
    (to disk past a few megabytes) until the last log is done.
    """
    tests = failures = broken = 0
    with tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024, mode="w+", encoding="utf-8") as cases:
        for log in logs:
            tests += 1
            name = quoteattr(log.path)
            cases.write(f"  <testcase classname={quoteattr('referee.' + command)} name={name} file={name}")
            errors = log.errors
            if errors:
                cases.write(f' line="{errors[0].line or 0}"')
            cases.write(">\n")
            if log.input_error is not None:
                broken += 1
                cases.write(f'   <error message={quoteattr(escape(log.input_error))} type="input"/>\n')
            elif errors:
                failures += 1
                first = errors[0]
                text = f"{log.path}:{first.line}: {first.code} [{first.rule}]: {first.message}"
                attributes = f"message={quoteattr(escape(first.message))} type={quoteattr(first.code)}"
                cases.write(f"   <failure {attributes}>{_xml_text([text])}</failure>\n")
            warnings = [finding for finding in log.findings if finding.level == "warning"]
            if warnings:
                lines = [f"{log.path}:{w.line}: warning: {w.code} [{w.rule}]: {w.message}" for w in warnings]
                cases.write(f"   <system-out>{_xml_text(lines)}</system-out>\n")
            cases.write("  </testcase>\n")
        write('<?xml version="1.0" encoding="UTF-8"?>\n')
        write(f'<testsuites name="referee {command}" tests="{tests}" failures="{failures}" errors="{broken}">\n')
        write(f' <testsuite name="referee {command}" tests="{tests}" failures="{failures}" errors="{broken}" skipped="0">\n')
        cases.seek(0)
        for line in cases:
            write(line)
        write(" </testsuite>\n</testsuites>\n")


def _xml_text(lines: list[str]) -> str:
    """Lines as text content that any XML 1.0 parser takes: each escaped (no control characters), joined by newlines."""
    return xml_escape("\n".join(escape(line) for line in lines))


# -- SARIF 2.1.0


def write_sarif(logs: Iterable[LogFindings], write: Write, command: str, version: str) -> None:
    """One SARIF run: each finding a result at the log's line; rules with their summary and citation.

    Results are written as they come; the rules they cite, and the logs that
    could not be read (tool notifications), follow them in the same run.
    """
    rules: dict[str, list[tuple[str, str]]] = {}  # rule id -> its texts (a batch mixing games may cite one id twice)
    notes: list[dict[str, Any]] = []
    write('{\n "$schema": ' + json.dumps(SARIF_SCHEMA) + ',\n "version": "2.1.0",\n "runs": [\n  {\n   "results": [')
    first = True
    for log in logs:
        if log.input_error is not None:
            notes.append({"level": "error", "message": {"text": escape(log.input_error)}, "locations": [_location(log.path, None)]})
            continue
        for finding in log.findings:
            texts = rules.setdefault(finding.rule, [])
            text = log.rule_texts.get(finding.rule)
            if text is not None and text not in texts:
                texts.append(text)
            result = {
                "ruleId": finding.rule,
                "level": finding.level,
                "message": {"text": f"{finding.code}: {finding.message}"},
                "locations": [_location(log.path, finding.line)],
                "properties": {"code": finding.code},
            }
            write(("\n    " if first else ",\n    ") + json.dumps(result, ensure_ascii=False))
            first = False
    write("\n   ],\n")
    driver: dict[str, Any] = {
        "name": "referee",
        "version": version,
        "rules": [_rule(rule_id, texts) for rule_id, texts in sorted(rules.items())],
    }
    invocation = {"commandLine": f"referee {command}", "executionSuccessful": not notes, "toolExecutionNotifications": notes}
    write('   "tool": ' + json.dumps({"driver": driver}, ensure_ascii=False) + ",\n")
    write('   "invocations": [' + json.dumps(invocation, ensure_ascii=False) + "]\n  }\n ]\n}\n")


def _location(path: str, line: int | None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": quote(path.replace("\\", "/"), safe="/:@!$&'()*+,;=-._~")}}
    if line is not None and line > 0:
        physical["region"] = {"startLine": line}
    return {"physicalLocation": physical}


def _rule(rule_id: str, texts: list[tuple[str, str]]) -> dict[str, Any]:
    """A rule as the first spec that cited it states it; where logs of other specs (another game, a house rule) state
    the same id otherwise, ``properties.citations`` lists every citation."""
    if not texts:
        return {"id": rule_id}
    summary, citation = texts[0]
    rule: dict[str, Any] = {
        "id": rule_id,
        "shortDescription": {"text": summary},
        "help": {"text": f"{summary} Source: {citation}"},
        "properties": {"citation": citation},
    }
    if len(texts) > 1:
        rule["properties"]["citations"] = [cited for _, cited in texts]
    return rule


# -- GitHub workflow commands


def write_github(logs: Iterable[LogFindings], write: Write) -> None:
    """``::error file=F,line=N,title=code [rule]::message`` per finding (``::warning`` for warnings)."""
    for log in logs:
        if log.input_error is not None:
            write(f"::error file={_property(log.path)},title=unreadable log::{_data(escape(log.input_error))}\n")
            continue
        for finding in log.findings:
            where = f"file={_property(log.path)}" + (f",line={finding.line}" if finding.line else "")
            title = _property(f"{finding.code} [{finding.rule}]")
            write(f"::{finding.level} {where},title={title}::{_data(finding.message)}\n")


def _data(text: str) -> str:
    return escape(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
