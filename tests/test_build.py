"""The two builds: the mypyc-compiled hot path of `pip install .`, and the pure-Python package it falls back to."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ("referee.events", "referee.log_reader", "referee.effects", "referee.engine", "referee.replay")
PICKLED = ("referee.cards", "referee.compiler", "referee.spec_model", "referee.spec_nodes", "referee.verdicts", "referee.inputs")


def test_the_build_under_test_is_the_one_expected() -> None:
    """`.ci/compiled-suite` sets REFEREE_EXPECT_COMPILED; the editable install of the README runs pure Python."""
    files = {name: str(importlib.import_module(name).__file__) for name in COMPILED}
    if os.environ.get("REFEREE_EXPECT_COMPILED"):
        assert all(file.endswith(".so") for file in files.values()), files
    else:
        assert all(file.endswith(".py") for file in files.values()), files
    for name in PICKLED:  # what is pickled (the rules cache, -j, Dask) must stay pure Python
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
    assert not [name for name in names if name.endswith(".so")] and "referee/engine.py" in names
