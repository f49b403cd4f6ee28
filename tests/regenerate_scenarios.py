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

from scenario_tools import run_check, scenario_logs  # noqa: E402


def main() -> None:
    for log in scenario_logs():
        _, report = run_check(log)
        log.with_suffix(".json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(log.relative_to(log.parents[2]))


if __name__ == "__main__":
    main()
