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
    assert "13 kept, 0 broken" in result.stdout


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "referee", tmp_path / "referee", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path / "referee"


def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    state = _copy(tmp_path) / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nfrom referee.engine import engine  # noqa\n", encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "referee.engine.state is not allowed to import referee.engine.engine" in result.stdout
    assert "No circles among the modules of a package BROKEN" in result.stdout


def test_an_import_from_a_package_above_breaks_the_package_layers(tmp_path: Path) -> None:
    """The engine may not reach up into checking (nor the library into the commands): the contract between packages."""
    legality = _copy(tmp_path) / "engine" / "legality.py"
    legality.write_text(legality.read_text(encoding="utf-8") + "\nfrom referee.checking import report  # noqa\n", encoding="utf-8")
    game = tmp_path / "referee" / "play" / "game.py"
    game.write_text(game.read_text(encoding="utf-8") + "\nfrom referee.commands import cli  # noqa\n", encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "referee.engine.legality -> referee.checking.report" in result.stdout
    assert "referee.play.game -> referee.commands.cli" in result.stdout


def test_a_module_no_contract_places_breaks_the_exhaustive_contract(tmp_path: Path) -> None:
    """Every module has a place in its package's layers: a new one must be placed, not slipped in beside the others."""
    (_copy(tmp_path) / "engine" / "shortcut.py").write_text('"""A module nobody placed."""\n', encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "referee.engine.shortcut" in result.stdout


def test_fewer_than_twelve_modules_stand_directly_in_the_package() -> None:
    """The folders show the architecture: a concept's module goes in its package, not beside the packages."""
    modules = sorted(path.name for path in (ROOT / "referee").glob("*.py"))  # the records every package shares, and public names
    assert len(modules) < 12, modules
    packages = {path.parent.name for path in (ROOT / "referee").glob("*/__init__.py")}
    assert packages == {"checking", "commands", "diff", "engine", "log", "play", "proof", "public", "rules", "spec"}
    assert all(ast_docstring(ROOT / "referee" / name / "__init__.py") for name in packages)


def ast_docstring(path: Path) -> str:
    import ast

    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


# Names several modules define on purpose, each for one protocol its modules share: a type variable; each claim form's
# module's FORM and restate (proof/claims); a result's renderers; a command's function beside the library function it
# calls (commands/); the entry point and the command line it starts; an effect's meaning when played and at the start
# (rules/effects) beside the applier of a start line (engine/deal).
PROTOCOL_NAMES = frozenset(
    {"T", "F", "FORM", "restate", "render_text", "render_json", "adjudicate", "check", "explain", "play", "run", "start"}
)


def defined_twice(package: Path) -> dict[str, list[str]]:
    """Every public top-level name (a class, a function, a constant) that more than one module of the package defines."""
    import ast
    import collections

    found: dict[str, list[str]] = collections.defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else [t.id for t in targets if isinstance(t, ast.Name)]
            for name in names:
                if not name.startswith("_"):
                    found[name].append(str(path.relative_to(package)))
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def test_each_public_name_is_defined_in_one_module() -> None:
    """One concept, one definition: no two modules define a class, function or constant of the same name (diff's
    sections are not a second Rules, Table and Deck), save the protocols each of a family of modules implements."""
    twice = {name: paths for name, paths in defined_twice(ROOT / "referee").items() if name not in PROTOCOL_NAMES}
    assert twice == {}


def test_a_second_definition_of_a_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Deck:\n    pass\n_private = 1\nLIMIT = 2\n")
    (tmp_path / "b.py").write_text("def Deck() -> None:\n    pass\n_private = 1\nLIMIT: int = 3\n")
    assert defined_twice(tmp_path) == {"Deck": ["a.py", "b.py"], "LIMIT": ["a.py", "b.py"]}
