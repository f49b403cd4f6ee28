"""The runnable examples of README.md and docs/: ```console blocks of ``$ referee ...`` lines and their output.

Every example runs in ``scenarios/`` with ``referee`` meaning this checkout's
``python -m referee`` (a line may use a shell pipe). Timings (``0.123 s``)
are compared as ``N s``. ``python tests/doc_examples.py --fix`` rewrites the
outputs in place from the current CLI; review the diff, as for scenarios.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_TIMING = re.compile(r"\b\d+\.\d{3} s\b")


@dataclass(frozen=True)
class Example:
    document: Path
    line: int  # of the "$ " line, 1-based
    command: str
    output: str  # expected, each line ending in "\n"


def examples(document: Path) -> list[Example]:
    found: list[Example] = []
    lines = document.read_text(encoding="utf-8").split("\n")
    inside = False
    current: tuple[int, str] | None = None
    output: list[str] = []
    for number, text in enumerate(lines, start=1):
        if not inside:
            inside = text.strip() == "```console"
            continue
        if text.strip() == "```" or text.startswith("$ "):
            if current is not None:
                found.append(Example(document, current[0], current[1], "".join(output)))
            current, output = None, []
            if text.strip() == "```":
                inside = False
            else:
                current = (number, text[2:])
            continue
        output.append(text + "\n")
    return found


def run(command: str) -> str:
    """Run one example line as a user would, from scenarios/; stdout and stderr together, in order."""
    script = f'referee() {{ "{sys.executable}" -m referee "$@"; }}\n{command}'
    environment = {**os.environ, "COLUMNS": "100"}
    completed = subprocess.run(
        ["bash", "-c", script], cwd=SCENARIOS, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300, env=environment
    )
    return completed.stdout.decode("utf-8", errors="replace")


def normalise(text: str) -> str:
    return _TIMING.sub("N s", text)


def fix(document: Path) -> None:
    """Rewrite every example's output in a document from the current CLI."""
    old = {example.line: example.output for example in examples(document)}
    lines = document.read_text(encoding="utf-8").split("\n")
    result: list[str] = []
    inside = False
    skipping = False
    for number, text in enumerate(lines, start=1):
        if not inside:
            result.append(text)
            inside = text.strip() == "```console"
            continue
        if text.startswith("$ "):
            result.append(text)
            output = run(text[2:])
            if normalise(output) == normalise(old.get(number, "")):
                output = old[number]  # the same but for timings: keep the text as it was
            result.extend(output.rstrip("\n").split("\n"))
            skipping = True
            continue
        if text.strip() == "```":
            result.append(text)
            inside = skipping = False
            continue
        if not skipping:
            result.append(text)
    document.write_text("\n".join(result), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--fix"]:
        raise SystemExit("usage: python tests/doc_examples.py --fix")
    for document in DOCUMENTS:
        fix(document)
        print(document)
