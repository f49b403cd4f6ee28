"""explain and adjudicate agree with check on every scenario under scenarios/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.checking.adjudicate import adjudicate
from referee.checking.explain import explain

from scenario_tools import SCENARIOS, scenario_logs

LOGS = scenario_logs()


def _last_event_line(log: Path) -> int:
    lines = log.read_text(encoding="utf-8").split("\n")
    return max(number for number, text in enumerate(lines, start=1) if text.split("#")[0].strip())


@pytest.mark.parametrize("log", LOGS, ids=lambda log: str(log.relative_to(SCENARIOS)))
def test_explain_and_adjudicate_agree_with_check(log: Path) -> None:
    (verdict,) = json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))["files"]
    errors = verdict["errors"]
    if errors and errors[0]["code"] == "syntax":
        result = explain(log, errors[0]["line"]).to_json()
        assert result["log_error"]["code"] == "syntax"
        return
    if errors:
        error = errors[0]
        result = explain(log, error["line"]).to_json()
        # nothing before the line is wrong, as check says (a header is judged as a whole: its error is the line's own)
        assert result["log_error"] is None or result["log_error"]["line"] == error["line"], result["log_error"]
        if result["event"] is not None:
            assert result["legal"] is False
            assert (result["code"], result["rule"]["id"]) == (error["code"], error["rule"])
    else:
        result = explain(log, _last_event_line(log)).to_json()
        if result.get("event") is not None and result.get("legal") is not None:
            assert result["legal"] is True
    ruled = adjudicate(log).to_json()
    text = log.read_text(encoding="utf-8").split("\n")
    dispute_lines = {
        number for number, line in enumerate(text, start=1) if re.match(r"\s*\S+\s+(catches|challenges)\s", line.split("#")[0], re.I)
    }
    stop = errors[0]["line"] if errors and errors[0]["code"] not in ("invalid-catch", "invalid-challenge") else len(text) + 1
    assert {d["line"] for d in ruled["disputes"]} == {line for line in dispute_lines if line <= stop}
