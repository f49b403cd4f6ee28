"""docs/ and the README stay honest: every example runs as shown, and everything a user writes or reads is documented."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from doc_examples import DOCUMENTS, ROOT, SCENARIOS, Example, examples, normalise, run

from referee.log.reader import KEYWORDS, VERBS
from referee.spec import model as spec_model
from referee.spec import vocabulary as spec_vocabulary
from referee.verdicts import ERROR_CODES, WARNING_CODES

from helpers import run_referee

DOCS = ROOT / "docs"
EXAMPLES = [example for document in DOCUMENTS for example in examples(document)]


def _documented(page: str) -> set[str]:
    """Every `backticked` word of a docs page (split on spaces, |, : and =, so `a: b` and `{x: y}` count too)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)  # fences; inline code is paired on what is left
    words: set[str] = set()
    for code in re.findall(r"`([^`]+)`", text):
        words.add(code)
        words.update(word.strip("{}[],:\"'()") for word in re.split(r"[\s|:=,]+", code))
    return words


def test_there_are_examples_in_every_page_that_teaches() -> None:
    documents = {example.document.name for example in EXAMPLES}
    assert {"README.md", "commands.md", "log-format.md", "spec-language.md"} <= documents


def _tier(example: Example) -> Any:
    """A whole proof or a diff with its solver runs in the slow tier (seconds each); every other example in the quick."""
    slow = example.command.startswith(("referee prove", "referee diff")) and "--declare" not in example.command
    return pytest.param(example, marks=pytest.mark.slow) if slow else example


@pytest.mark.parametrize("example", [_tier(example) for example in EXAMPLES], ids=lambda e: f"{e.document.name}:{e.line}")
def test_every_example_runs_as_shown(example: Example) -> None:
    assert normalise(run(example.command)) == normalise(example.output), (
        f"{example.document.name}:{example.line}: `{example.command}` prints something else; "
        "run `python tests/doc_examples.py --fix` and review the diff"
    )


def test_every_diagnostic_code_is_documented_with_an_example() -> None:
    text = (DOCS / "log-format.md").read_text(encoding="utf-8")
    for code in ERROR_CODES + WARNING_CODES:
        row = re.search(rf"^\| `{re.escape(code)}` \|[^|]+\| `[^`]+`[^|]*\|[^|]+\|$", text, re.MULTILINE)
        assert row, f"docs/log-format.md has no table row with an example line for {code}"


def test_every_event_verb_and_header_keyword_is_documented() -> None:
    documented = _documented("log-format.md")
    for word in VERBS | KEYWORDS:
        assert word in documented, word


def test_every_spec_key_and_value_is_documented() -> None:
    documented = _documented("spec-language.md")
    vocabulary = (
        set(spec_vocabulary.TOP_KEYS) | spec_vocabulary.SOURCE_KEYS | spec_vocabulary.TABLE_KEYS | set(spec_vocabulary.MATCHING_KEYS)
    )
    vocabulary |= spec_vocabulary.KIND_KEYS | spec_vocabulary.NUMBERS_KEYS | spec_vocabulary.OPTION_ENTRY_KEYS | spec_vocabulary.RULE_KEYS
    vocabulary |= spec_vocabulary.CITATION_KEYS | spec_vocabulary.EFFECTS_PLAIN | spec_vocabulary.EFFECTS_WITH_AMOUNT
    vocabulary |= spec_vocabulary.START_ACTIONS | spec_vocabulary.CHECKS | spec_vocabulary.OPTIONS | set(spec_vocabulary.SIDE_NAMES)
    for choices in spec_vocabulary.OPTION_CHOICES.values():
        vocabulary |= choices
    for effect, settings in [*spec_vocabulary.EFFECT_SETTINGS.items(), *spec_vocabulary.DISPUTE_SETTINGS.items()]:
        vocabulary.add(effect)
        for key, values in settings.items():
            vocabulary.add(key)
            vocabulary |= set(values)
    vocabulary |= {"number", "action", "wild", "face-value", "official", "unchecked", spec_vocabulary.SPEC_FORMAT}
    from referee.proof import claims
    from referee.proof.claims import catch, challenge

    vocabulary |= set(claims.FORMS) | challenge.CHALLENGE_KEYS | catch.CATCH_KEYS
    missing = sorted(vocabulary - documented)
    assert not missing, f"docs/spec-language.md does not document: {missing}"


def _cli_json(*args: str, cwd: Path = SCENARIOS) -> Any:
    completed = run_referee(*args, cwd=cwd, timeout=300)
    return json.loads(completed.stdout)


_DATA_MAPPINGS = {"totals", "hands", "options"}  # keys are player or option names, not fields


def _keys(data: Any, found: set[str]) -> set[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            found.add(key)
            if key not in _DATA_MAPPINGS:
                _keys(value, found)
    elif isinstance(data, list):
        for item in data:
            _keys(item, found)
    return found


def test_every_json_field_is_documented() -> None:
    outputs = [
        _cli_json("check", "--format", "json", "codes", "no-such.log"),
        _cli_json("check", "--format", "json", "games/game-full-2p.log"),
        _cli_json("adjudicate", "--format", "json", "disputes", "no-such.log"),
        _cli_json("rules", "--format", "json"),
        _cli_json("prove", "--format", "json", "--spec", "uno-flip", "--players", "2"),
        _cli_json("prove", "--format", "json", "--spec", "../tests/broken_specs/flip-keeps-draw-pile.yaml", "--invariant", "flip.order"),
        _cli_json("explain", "--format", "json", "rulings/r11-matching.log:17"),
        _cli_json("explain", "--format", "json", "disputes/pending-wild-draw-two-full.log", "--line", "8", "--move", "Ann draws"),
        _cli_json("explain", "--format", "json", "disputes/pending-uno-window-full.log:11"),
        _cli_json("explain", "--format", "json", "codes/illegal-play.log:7", "--move", "Ann plays red-draw-one"),
    ]
    fields: set[str] = set()
    for output in outputs:
        _keys(output, fields)
    assert {"input_error", "penalties", "uno_window", "counterexample", "evidence", "cards_drawn"} <= fields
    documented = _documented("json.md")
    missing = sorted(fields - documented)
    assert not missing, f"docs/json.md does not document: {missing}"


def test_rulings_page_is_the_shipped_rulings() -> None:
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    listed = re.findall(r"^(\d+)\. \*\*(.+?)\.\*\* (.+)$", text, re.MULTILINE)
    shipped = spec_model.rulings()
    assert [(int(n), topic, body) for n, topic, body in listed] == [(n, *shipped[n]) for n in sorted(shipped)]


def test_readme_links_every_docs_page_and_the_docs_link_only_what_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert f"(docs/{page.name})" in readme, page.name
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([a-z-]+\.md)(?:#[a-z-]+)?\)", page.read_text(encoding="utf-8")):
            assert (DOCS / target).is_file(), f"{page.name} links {target}"


def test_exit_codes_are_documented() -> None:
    from referee import errors

    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    codes = {value for name, value in vars(errors).items() if name.startswith("EXIT_")}
    for code in codes:
        assert re.search(rf"^\| {code} \|", text, re.MULTILINE), code


def test_the_library_examples_run(tmp_path: Path) -> None:
    """Every ```python block of README.md and docs/library.md runs (the bot plays a whole classic game that checks clean)."""
    blocks = []
    for document in (ROOT / "README.md", DOCS / "library.md"):
        blocks += re.findall(r"^```python\n(.*?)^```", document.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 3
    for block in blocks:
        script = tmp_path / "example.py"
        script.write_text(block, encoding="utf-8")
        completed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split()[-1] == "True"  # the bot's game checks clean


def test_the_shipped_spec_lists_in_the_help_and_the_docs_are_the_shipped_specs() -> None:
    """Issue 18: `rules --help` and docs/commands.md left `uno` out; the lists are compared with the specs shipped."""
    import re as regex

    from referee.commands.rules import rules
    from referee.spec.extends import shipped_spec_names

    shipped = set(shipped_spec_names())
    help_text = " ".join((rules.help or "").split())
    named = set(regex.findall(r"\b((?:uno|house)(?:-[a-z0-9]+)*)\b", help_text.split("Shipped specs:")[1].split(";")[0]))
    assert named == shipped
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    listed = text.split("- **Specs.** `--spec` takes a shipped spec name (")[1].split(")")[0]
    assert set(regex.findall(r"`([a-z0-9-]+)`", listed)) == shipped


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_shell_completion_as_documented(shell: str) -> None:
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert f"_REFEREE_COMPLETE={shell}_source referee" in text
    result = subprocess.run(
        [sys.executable, "-c", "from referee.commands.entry import run; run()"],
        env={**os.environ, "_REFEREE_COMPLETE": f"{shell}_source"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and "_REFEREE_COMPLETE" in result.stdout, result.stderr
