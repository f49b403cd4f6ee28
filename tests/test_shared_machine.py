"""Another user of the machine gains nothing from referee: no code run from a folder it can write (--dask local),
no seed read while a match is played, no private file quoted through a link in an uploaded folder, no mode or
folder taken over through a planted file (docs/security.md; the attacks of issue 29's second review, each a test).

The tests run as root; a second user is a folder or a file owned by ``nobody``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import run_referee

ROOT = Path(__file__).resolve().parent.parent
VALID = ROOT / "scenarios" / "rulings" / "r04-start-number.log"
NOBODY = 65534
ROOT_USER = hasattr(os, "getuid") and os.getuid() == 0


referee_cli = run_referee


def _plant(folder: Path, marker: Path) -> None:
    """A module Dask imports if it can (``gilknocker``), written by another user: it would leave ``marker``."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o777)
    (folder / "gilknocker.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\nraise ImportError\n")
    if ROOT_USER:
        os.chown(folder, NOBODY, NOBODY)
        os.chown(folder / "gilknocker.py", NOBODY, NOBODY)


# -- 1. --dask local runs no code from a shared scratch folder


@pytest.mark.slow
def test_dask_local_runs_nothing_planted_in_the_shared_scratch_folder(tmp_path: Path) -> None:
    """Another user made ``$TMPDIR/dask-scratch-space`` (mode 777) first, with a module in it that Dask imports when
    it can; the cluster's scratch space is a folder of its own (0700, ours), and it is gone after the run."""
    pytest.importorskip("distributed")
    shared, marker = tmp_path / "tmp", tmp_path / "PWNED"
    for name in ("dask-scratch-space", f"dask-scratch-space-{os.getuid()}"):
        _plant(shared / name, marker)
    result = referee_cli("check", "--dask", "local", str(VALID), env={"TMPDIR": str(shared)}, timeout=240)
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), "the planted module ran"
    assert sorted(path.name for path in shared.iterdir()) == ["dask-scratch-space", f"dask-scratch-space-{os.getuid()}"]


@pytest.mark.slow
def test_dask_local_imports_nothing_from_a_folder_another_user_can_write(tmp_path: Path) -> None:
    """The command runs in a world-writable folder (``python -m`` puts it first on the import path) where another
    user left the same module: the import path keeps no folder another user can write."""
    pytest.importorskip("distributed")
    shared, marker = tmp_path / "shared", tmp_path / "PWNED"
    _plant(shared, marker)
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = referee_cli("check", "--dask", "local", str(VALID), cwd=shared, env=env, timeout=240)
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), "the planted module ran"


def test_the_import_path_keeps_only_folders_no_other_user_can_write(tmp_path: Path, monkeypatch: Any) -> None:
    from referee.checking import batch

    open_folder, ours = tmp_path / "open", tmp_path / "ours"
    open_folder.mkdir(mode=0o777)
    open_folder.chmod(0o777)
    ours.mkdir(mode=0o755)
    monkeypatch.setattr(sys, "path", [str(open_folder), str(ours), str(tmp_path / "missing.zip")])
    batch.private_import_path()
    assert sys.path == [str(ours), str(tmp_path / "missing.zip")]


def test_a_private_scratch_folder_is_ours_alone() -> None:
    import stat

    from referee.checking import batch

    path = Path(batch.private_scratch())
    info = path.lstat()
    assert stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) == 0o700


# -- 2. the deals come from a seed nobody can read while the match is played

BOTS = ROOT / "examples" / "bots"
GREEDY = f"{sys.executable} {BOTS / 'greedy_bot.py'}"


def _results(out: Path) -> dict[str, Any]:
    import json

    return json.loads((out / "results.json").read_text())  # type: ignore[no-any-return]


def test_without_seed_the_deals_come_from_the_system_and_the_seed_is_told_after_the_match(tmp_path: Path) -> None:
    """The host's command line holds no seed a bot could read (``/proc/<host>/cmdline``); each match draws its own,
    written to results.json at the end, from which game 1's deal is made again as docs/protocol.md says."""
    import random

    import referee

    seeds = []
    for name in ("one", "two"):
        out = tmp_path / name
        result = referee_cli("play", "--spec", "uno", "--games", "1", "--target", "50", "--out", str(out), GREEDY, GREEDY)
        assert result.returncode == 0, result.stderr
        seeds.append(_results(out)["seed"])
    assert seeds[0] != seeds[1] and all(isinstance(seed, int) and seed >= 0 for seed in seeds)
    log = (tmp_path / "two" / "game-001.log").read_text()
    players = next(line for line in log.splitlines() if line.startswith("players ")).split()[1:]
    again = referee.Game.new("uno", players, seed=random.Random(seeds[1]).randrange(2**32), target=50)
    shuffle = next(line for line in log.splitlines() if line.startswith("shuffle "))
    assert shuffle in again.log()


# -- 4. a folder of uploads cannot quote a private file


def test_a_link_out_of_a_checked_folder_is_not_read(tmp_path: Path) -> None:
    """``leak.log -> a private file`` in a folder of uploads: reported as a link out of the folder, its content never
    printed; a link to a log inside the folder is read as that log."""
    secret = tmp_path / "private" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("AWS_SECRET_ACCESS_KEY=abc123\n")
    uploads = tmp_path / "uploads"
    (uploads / "sub").mkdir(parents=True)
    (uploads / "ok.log").write_bytes(VALID.read_bytes())
    (uploads / "leak.log").symlink_to(secret)
    (uploads / "sub" / "inside.log").symlink_to(uploads / "ok.log")
    for command in ("check", "adjudicate"):
        result = referee_cli(command, str(uploads))
        output = result.stdout + result.stderr
        assert b"AWS_SECRET" not in output and b"abc123" not in output, command
        assert b"leak.log: error: a symbolic link out of the folder given" in result.stderr, command
        assert result.returncode == 2
    assert b"inside.log: valid" in referee_cli("check", str(uploads)).stdout


# -- 9. written files: no mode copied from a planted file, no folder reached through a link


def test_a_page_written_over_a_planted_file_gets_the_mode_of_a_new_file(tmp_path: Path) -> None:
    import stat

    page = tmp_path / "page.html"
    page.write_text("planted")
    page.chmod(0o6777)
    result = referee_cli("view", str(VALID), "--out", str(page))
    assert result.returncode == 0, result.stderr
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(page.stat().st_mode) == 0o666 & ~mask


def test_simulate_and_play_refuse_an_output_folder_that_is_a_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "out"
    link.symlink_to(elsewhere)
    for args in (("simulate", "--games", "2", "--out", str(link)), ("play", "--out", str(link), GREEDY, GREEDY)):
        result = referee_cli(*args)
        assert result.returncode == 2 and b"is a symbolic link" in result.stderr and len(result.stderr.splitlines()) == 1, args
    assert list(elsewhere.iterdir()) == []


# The attacks of hostile bots (round two's section 3, and issue 39's) are in tests/test_sandbox.py.
