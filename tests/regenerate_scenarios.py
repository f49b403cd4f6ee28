"""Rewrite each scenario's expected report (``X.json`` beside ``X.log``) from the current CLI.

Run ``python tests/regenerate_scenarios.py`` after a deliberate change, then
read the diff: the reviewer, not this script, decides that a verdict is right.
The inline ``# expect:`` comments in each log are checked by the tests too, so
a regenerated report that contradicts its author's comments still fails.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scenario_tools import (  # noqa: E402
    EXPLAIN_CASES,
    dispute_logs,
    explain_golden,
    run_adjudicate,
    run_check,
    run_explain,
    scenario_logs,
)


def _write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(path)


def main() -> None:
    for log in scenario_logs():
        _, report = run_check(log)
        _write(log.with_suffix(".json"), report)
    for log in dispute_logs():
        _, report = run_adjudicate(log)
        _write(log.with_suffix(".adjudicate.json"), report)
    for index, (log, line, extra) in enumerate(EXPLAIN_CASES):
        for output_format in ("text", "json"):
            golden = explain_golden(index, output_format)
            golden.parent.mkdir(exist_ok=True)
            golden.write_text(run_explain(log, line, extra, output_format)[1], encoding="utf-8")
            print(golden)


if __name__ == "__main__":
    main()
