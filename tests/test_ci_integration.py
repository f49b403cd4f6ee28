"""Issue 32: the referee where CI users work. The GitHub Action (action.yml) is run as a runner runs a composite
action: its steps in order, each input through the environment, ``GITHUB_OUTPUT`` and ``GITHUB_ENV`` carried from
step to step; the pre-commit hooks (.pre-commit-hooks.yaml) are run by pre-commit itself (``try-repo``) in a
temporary git repository. Both install the referee from this checkout into a fresh environment (pure Python), so
both are in the slow tier."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "data" / "examples"
VALID = EXAMPLES / "example-2p-full.log"
BROKEN_SPEC = ROOT / "tests" / "broken_specs" / "catch-catcher-draws.yaml"  # refuted by prove (tests/test_prove.py)


def _illegal(folder: Path) -> Path:
    """The valid example with one play changed into a card its player does not hold."""
    lines = VALID.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if " plays " in line)
    player = lines[index].split()[0]
    lines[index] = f"{player} plays wild-draw-four-of-nothing"
    path = folder / "illegal.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_action_and_the_hooks_are_where_their_users_look() -> None:
    """Quick tier: the files parse, name what docs/ci.md says, and the README links docs/ci.md."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert {"logs", "specs", "format", "python-version", "referee-version"} <= set(action["inputs"])
    assert action["inputs"]["format"]["default"] == "github"
    for step in action["runs"]["steps"]:  # every input reaches a script through its environment, never pasted in
        assert "${{" not in step.get("run", ""), step.get("name")
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert hooks["referee-check"]["entry"].startswith("referee check") and re.search(hooks["referee-check"]["files"], "games/a.log")
    assert hooks["referee-expect"]["entry"] == "referee check --expect --quiet" and re.search(hooks["referee-expect"]["files"], "a.log")
    assert hooks["referee-prove"]["entry"] == "referee prove" and re.search(hooks["referee-prove"]["files"], "specs/house.yaml")
    ci = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "upload-sarif" in ci and "uses:" in ci and "referee-check" in ci and "yaml-language-server" in ci
    assert "docs/ci.md" in (ROOT / "README.md").read_text(encoding="utf-8")


class Runner:
    """A composite action's steps run as GitHub's runner runs them (``uses`` steps excepted: setup-python is this
    test's own fresh venv)."""

    def __init__(self, workspace: Path, bin_folder: Path) -> None:
        self.workspace = workspace
        self.bin_folder = bin_folder
        self.steps: list[dict[str, Any]] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]

    def run(self, inputs: dict[str, str], skip_install: bool = False) -> tuple[int, dict[str, str], str]:
        """Every step in order with ``inputs`` (the rest their defaults): the last exit status, the outputs, the text."""
        declared = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"]
        values = {name: spec.get("default", "") for name, spec in declared.items()} | inputs
        carried: dict[str, str] = {}
        outputs: dict[str, str] = {}
        text = ""
        status = 0
        for number, step in enumerate(self.steps):
            if "uses" in step:
                assert step["uses"].startswith("actions/setup-python@")
                continue
            if skip_install and step.get("name") == "Install the referee":
                continue
            output_file, env_file = self.workspace / f".output-{number}", self.workspace / f".env-{number}"
            output_file.write_text("")
            env_file.write_text("")
            environment = {**os.environ, **carried, "GITHUB_OUTPUT": str(output_file), "GITHUB_ENV": str(env_file)}
            environment["PATH"] = f"{self.bin_folder}{os.pathsep}{environment['PATH']}"
            environment.pop("REFEREE_PURE_PYTHON", None)  # the action's own input decides
            for name, value in (step.get("env") or {}).items():
                environment[name] = _expand(str(value), values)
            script = self.workspace / f".step-{number}.sh"
            script.write_text(step["run"], encoding="utf-8")
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],  # as the runner runs 'shell: bash'
                cwd=self.workspace,
                env=environment,
                capture_output=True,
                text=True,
                timeout=600,
            )
            text += done.stdout + done.stderr
            status = done.returncode
            for line in env_file.read_text().splitlines():
                name, _, value = line.partition("=")
                carried[name] = value
            for line in output_file.read_text().splitlines():
                name, _, value = line.partition("=")
                outputs[f"{step.get('id')}.{name}"] = value
            if status != 0:
                break  # a failed step ends the action
        return status, outputs, text


def _expand(value: str, inputs: dict[str, str]) -> str:
    """The two expressions the action uses: ``${{ inputs.NAME }}`` and ``${{ github.action_path }}``."""
    value = value.replace("${{ github.action_path }}", str(ROOT))
    return re.sub(r"\$\{\{ inputs\.([a-z-]+) \}\}", lambda match: inputs[match.group(1)], value)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    folder = tmp_path_factory.mktemp("action")
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    workspace = folder / "workspace"
    workspace.mkdir()
    return Runner(workspace, folder / "venv" / "bin")


@pytest.mark.slow
def test_the_action_installs_the_referee_and_passes_a_valid_log_and_a_proved_spec(runner: Runner) -> None:
    shutil.copy(VALID, runner.workspace / "game.log")
    (runner.workspace / "rules").mkdir()
    shutil.copy(ROOT / "specs" / "house-short-game.yaml", runner.workspace / "rules" / "house.yaml")  # extends a shipped spec
    status, outputs, text = runner.run({"logs": "*.log", "specs": "rules/**/*.yaml"})
    assert status == 0, text
    assert outputs == {"check.exit-code": "0", "prove.exit-code": "0"}, text
    assert "every log valid, every claim and invariant proved" in text
    assert (runner.bin_folder / "referee").exists()  # installed by the action's own step, into the fresh venv


@pytest.mark.slow
def test_the_action_fails_the_job_on_an_illegal_log_with_an_annotation_and_writes_sarif(runner: Runner) -> None:
    _illegal(runner.workspace)
    status, outputs, text = runner.run({"logs": "illegal.log"}, skip_install=True)
    assert status == 1 and outputs["check.exit-code"] == "1", text
    assert re.search(r"^::error file=illegal\.log,line=\d+", text, re.MULTILINE), text
    status, outputs, text = runner.run({"logs": "illegal.log", "format": "sarif"}, skip_install=True)
    sarif = (runner.workspace / "referee.sarif").read_text(encoding="utf-8")
    assert status == 1 and '"version": "2.1.0"' in sarif and "illegal.log" in sarif
    status, outputs, text = runner.run({"logs": "missing/**/*.log"}, skip_install=True)  # a glob that matches nothing
    assert status == 1 and outputs["check.exit-code"] == "2" and "no log matches: missing/**/*.log" in text
    illegal = (runner.workspace / "illegal.log").read_text(encoding="utf-8")
    golden = illegal.replace("wild-draw-four-of-nothing\n", "wild-draw-four-of-nothing  # expect: unknown-card\n")
    (runner.workspace / "golden.log").write_text(golden, encoding="utf-8")
    status, outputs, text = runner.run({"logs": "golden.log", "expect": "true"}, skip_install=True)  # golden mode
    assert status == 0 and outputs["check.exit-code"] == "0" and "golden.log: as expected (unknown-card at line" in text, text
    status, outputs, text = runner.run({"logs": "illegal.log", "expect": "true"}, skip_install=True)
    assert status == 1 and outputs["check.exit-code"] == "1" and "illegal.log: expected valid, no warning, got unknown-card" in text


@pytest.mark.slow
def test_the_action_fails_the_job_on_a_refuted_claim(runner: Runner) -> None:
    shutil.copy(BROKEN_SPEC, runner.workspace / "broken.yaml")
    status, outputs, text = runner.run({"specs": "broken.yaml"}, skip_install=True)
    assert status == 1 and outputs["prove.exit-code"] == "1", text
    assert "::error file=broken.yaml,title=referee prove::" in text


def _git(folder: Path, *arguments: str) -> None:
    subprocess.run(["git", *arguments], cwd=folder, check=True, capture_output=True, timeout=60)


@pytest.mark.slow
def test_the_pre_commit_hooks_fail_an_illegal_log_and_pass_a_valid_one(tmp_path: Path) -> None:
    """pre-commit itself installs this checkout as the hooks' environment (try-repo) and runs them on the files."""
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    shutil.copy(VALID, project / "valid.log")
    _illegal(project)
    (project / "specs").mkdir()
    shutil.copy(BROKEN_SPEC, project / "specs" / "broken.yaml")
    _git(project, "add", ".")
    environment = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "REFEREE_PURE_PYTHON": "1"}
    environment.pop("VIRTUAL_ENV", None)

    def hook(hook_id: str, *files: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook_id, "--files", *files]
        return subprocess.run(command, cwd=project, env=environment, capture_output=True, text=True, timeout=900)

    passed = hook("referee-check", "valid.log")
    assert passed.returncode == 0 and "Passed" in passed.stdout, passed.stdout + passed.stderr
    failed = hook("referee-check", "valid.log", "illegal.log")
    assert failed.returncode == 1 and "Failed" in failed.stdout and "illegal.log:" in failed.stdout, failed.stdout
    assert "exit code: 1" in failed.stdout  # referee check's own status: a violation
    golden = hook("referee-expect", "valid.log", "illegal.log")  # the illegal log says nothing of its error
    assert golden.returncode == 1 and "illegal.log: expected valid, no warning, got unknown-card" in golden.stdout, golden.stdout
    refuted = hook("referee-prove", "specs/broken.yaml")
    assert refuted.returncode == 1 and "Failed" in refuted.stdout and "refuted" in refuted.stdout, refuted.stdout


def test_prove_takes_spec_files_as_arguments_as_the_hook_passes_them(capsys: pytest.CaptureFixture[str]) -> None:
    """The referee-prove hook appends the changed files to ``referee prove``: arguments are specs, as ``--spec``."""
    from referee.commands.cli import execute as run

    house = str(ROOT / "specs" / "house-short-game.yaml")
    assert run(["prove", house, "--claim", "option.target"]) == 0
    assert "house-short-game.yaml (house-short-game)" in capsys.readouterr().out
    assert run(["prove", "--spec", "uno", str(BROKEN_SPEC), "--claim", "uno.catch"]) == 1
    shown = capsys.readouterr().out
    assert "uno (uno)" in shown and "catch-catcher-draws.yaml" in shown and "refuted" in shown
