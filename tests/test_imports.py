"""The import graph has layers and no circles: lint-imports keeps the contracts of pyproject.toml, and breaks them
when a module imports one above it (a copy of the package with one upward import added)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(cwd), "PATH": ""}
    )


def test_the_import_contracts_are_kept() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout
    assert "3 kept, 0 broken" in result.stdout


def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "referee", tmp_path / "referee", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    state = tmp_path / "referee" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nfrom referee import engine  # noqa\n", encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "referee.state is not allowed to import referee.engine" in result.stdout
    assert "No circles among the modules of a package BROKEN" in result.stdout
