"""The two builds: the mypyc-compiled hot path of `pip install .`, and the pure-Python package it falls back to."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = (
    "referee.cards",
    "referee.rules.compiler",
    "referee.log.events",
    "referee.log.reader",
    "referee.rules.effects",
    "referee.engine.reject",
    "referee.engine.public_knowledge",
    "referee.engine.state",
    "referee.engine.scoring",
    "referee.engine.legality",
    "referee.engine.deal",
    "referee.engine.disputes",
    "referee.engine.hands",
    "referee.engine.engine",
    "referee.checking.replay",
    "referee.engine.moves",
    "referee.play.seat",
    "referee.log.writer",
    "referee.play.table",
)
PICKLED = (
    "referee.spec.model",
    "referee.spec.catalogue",
    "referee.spec.nodes",
    "referee.verdicts",
    "referee.log.inputs",
)  # pickled without __reduce__: pure


def test_the_build_under_test_is_the_one_expected() -> None:
    """`.ci/compiled-suite` sets REFEREE_EXPECT_COMPILED; the editable install of the README runs pure Python."""
    files = {name: str(importlib.import_module(name).__file__) for name in COMPILED}
    if os.environ.get("REFEREE_EXPECT_COMPILED"):
        assert all(file.endswith(".so") for file in files.values()), files
    else:
        assert all(file.endswith(".py") for file in files.values()), files
    for name in PICKLED:  # pickled by the rules cache, -j or Dask with no __reduce__ of their own: must stay pure Python
        assert str(importlib.import_module(name).__file__).endswith(".py")


def test_setup_compiles_exactly_the_hot_path() -> None:
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert all(f'"{name.replace(".", "/")}.py"' in text for name in COMPILED)


def _wheel(tmp_path: Path, **environment: str) -> list[str]:
    out = tmp_path / "dist"
    env = {**os.environ, **environment}
    subprocess.run(["rm", "-rf", str(ROOT / "build")], check=True)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)], capture_output=True, text=True, env=env
    )
    subprocess.run(["rm", "-rf", str(ROOT / "build")], check=True)
    assert result.returncode == 0, result.stderr
    (wheel,) = out.glob("referee-*.whl")
    return zipfile.ZipFile(wheel).namelist()


@pytest.mark.slow
def test_a_pure_build_on_request_and_when_compiling_fails(tmp_path: Path) -> None:
    assert not [name for name in _wheel(tmp_path / "pure", REFEREE_PURE_PYTHON="1") if name.endswith(".so")]
    names = _wheel(tmp_path / "no-compiler", CC="/bin/false")  # no working C compiler: pure Python, no failed install
    assert not [name for name in names if name.endswith(".so")] and "referee/engine/engine.py" in names


def test_compiled_rules_pickle_as_constructor_calls_and_keep_identity() -> None:
    """The rules cache pickles cards and rules; faces are compared by identity, so sharing must survive."""
    import pickle

    from referee.checking.replay import rules_for

    rules = rules_for(None, None, None)
    again = pickle.loads(pickle.dumps(rules))
    assert len(again.deck) == len(rules.deck) == 112
    card = again.deck[0]
    assert card.faces[0] in again.faces and again.faces[card.faces[0]].face is card.faces[0]
    assert again.catalogue.faces[0][card.faces[0].token] is card.faces[0]
    assert [c.token for c in again.deck] == [c.token for c in rules.deck]


# The helpers the engine's own modules share; code outside the engine uses apply, snapshot/restore, matches,
# playable, resolve_in_hand, can_reshuffle and round_points (referee/engine/engine.py's docstring).
ENGINE_INTERNALS = "seat_of|card|cards|name_of|warn|take|close_window|settle|flip|apply_effects|catch_owed|finish_round|forget_cards"


def test_no_code_outside_the_engine_calls_its_internal_helpers() -> None:
    import re

    call = re.compile(rf"\b(?:engine|_engine|twin)\.(?:{ENGINE_INTERNALS})\(|\b(?:engine|_engine)\._[a-z]\w*\(")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "referee").rglob("*.py"))
        if path.parent.name != "engine"  # the engine package: the engine and the parts it calls
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if call.search(line)
    ]
    assert not found, found


def test_no_rules_module_names_a_game_or_its_cards() -> None:
    """The rules are data: no string in the code that judges a game (docstrings aside) names a shipped spec or one
    of its kinds (classic-uno.md: no line of Python tests for UNO Flip or for classic UNO)."""
    import ast

    from referee.rules.compiler import load_rules
    from referee.spec.paths import shipped_spec_names, shipped_spec_path
    from referee.spec.vocabulary import EFFECTS_PLAIN, EFFECTS_WITH_AMOUNT, START_ACTIONS

    vocabulary = set(EFFECTS_PLAIN) | set(EFFECTS_WITH_AMOUNT) | set(START_ACTIONS)
    words: set[str] = set()
    for name in shipped_spec_names():
        spec = load_rules(shipped_spec_path(name)).spec
        words |= {name, *(kind.name for kind in spec.kinds if kind.name not in vocabulary)}
    words -= {"uno", "wild", "number"}  # the format's 'calls uno', the face class 'wild', a number's kind
    package = ROOT / "referee"
    judged = [package / "cards.py", package / "spec" / "catalogue.py", package / "log" / "reader.py", package / "play" / "game.py"]
    judged += [package / "commands" / "page.py", *sorted(package.glob("rules/*.py")), *sorted(package.glob("engine/*.py"))]
    judged += sorted(package.glob("checking/*.py")) + sorted(package.glob("public/*.py"))
    found = []
    for path in judged:
        module = path.relative_to(package).with_suffix("")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                named = {word for word in words if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", node.value)}
                if named:
                    found.append(f"{module}.py:{node.lineno}: {sorted(named)}")
    assert words >= {"uno-flip", "draw-five", "wild-draw-four"} and not found, found
