"""Issue 17, case by case: hostile logs, specs and names, and a second user on the same machine (docs/security.md).

Each test is one numbered case of the issue; each failed on the code before it.
The tests run as root; a second user is a forked child that drops to ``nobody``.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import referee
from referee.rules import cache as rules_cache

from helpers import REFEREE, run_referee, write_spec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
GAME = SCENARIOS / "games" / "game-full-4p.log"
VALID = SCENARIOS / "rulings" / "r04-start-number.log"
SECRET = "s3cr3t-line-of-a-private-file"
NOBODY = 65534
ROOT_USER = hasattr(os, "getuid") and os.getuid() == 0


referee_cli = run_referee


@pytest.fixture(autouse=True)
def cache_on(monkeypatch: Any) -> None:
    """The cache tests need the cache: another test in this process may have run a command with --no-cache."""
    monkeypatch.setattr(rules_cache, "enabled", True)


@pytest.fixture
def private_file(tmp_path: Path) -> Path:
    """A file the logs must not be able to read: YAML-ish lines, as /etc/shadow has."""
    secret = tmp_path / "secret" / "shadow"
    secret.parent.mkdir()
    secret.write_text(f"root: {SECRET}\n{SECRET}: x\n")
    return secret


# -- 1. the rules cache runs no code another user wrote


def _evil_pickle(marker: Path) -> bytes:
    class Evil:
        def __reduce__(self) -> tuple[Any, ...]:
            return (os.mkdir, (str(marker),))

    return pickle.dumps(("referee-rules/2", [], Evil()))


def _entry_names(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".pickle"))


def _load_fresh(spec: Path) -> Any:
    """The rules of ``spec`` through the disk cache (the in-memory cache emptied first)."""
    from referee.rules import compiler

    compiler._CACHE.clear()
    return compiler.load_rules(spec)


def test_a_cache_below_a_folder_others_may_write_is_neither_read_nor_written(tmp_path: Path, monkeypatch: Any) -> None:
    """The issue's set-up: XDG_CACHE_HOME on a shared folder (0777, no sticky bit). Another user can rename what is in
    it, so nothing there is trusted: the cache is not used at all."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.delenv("REFEREE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    spec = tmp_path / "my.yaml"
    spec.write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    _load_fresh(spec)
    assert not (shared / "referee").exists() or not _entry_names(shared / "referee")
    # A planted entry with the right name is not read either.
    (shared / "referee").mkdir(mode=0o700, exist_ok=True)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(shared / "referee"))
    rules_cache_name = _planted_name(spec)
    marker = tmp_path / "ran"
    (shared / "referee" / rules_cache_name).write_bytes(_evil_pickle(marker))
    _load_fresh(spec)
    assert not marker.exists()


def _planted_name(spec: Path) -> str:
    """The name the cache gives the entry of ``spec`` (found by letting it write one in a private folder)."""
    import tempfile

    with tempfile.TemporaryDirectory() as private:
        os.chmod(private, 0o700)
        saved = os.environ.get("REFEREE_CACHE_DIR")
        os.environ["REFEREE_CACHE_DIR"] = private
        try:
            _load_fresh(spec)
            (name,) = _entry_names(Path(private))
        finally:
            if saved is None:
                del os.environ["REFEREE_CACHE_DIR"]
            else:
                os.environ["REFEREE_CACHE_DIR"] = saved
    return name


def test_an_entry_that_names_a_function_is_refused_even_when_it_is_ours(tmp_path: Path, monkeypatch: Any) -> None:
    """Defence in depth: the unpickler builds only referee's record classes, so even a private entry cannot call."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(cache))
    spec = tmp_path / "my.yaml"
    spec.write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    _load_fresh(spec)
    (name,) = _entry_names(cache)
    marker = tmp_path / "ran"
    (cache / name).write_bytes(_evil_pickle(marker))
    (cache / name).chmod(0o600)
    rules = _load_fresh(spec)
    assert not marker.exists() and rules.spec.name == "house-short-game"


@pytest.mark.skipif(not ROOT_USER, reason="needs root, to be a second user")
@pytest.mark.slow
def test_a_second_user_swapping_the_cache_folder_in_a_loop_runs_no_code(tmp_path: Path) -> None:
    """The issue's attack, reproduced: another user exchanges the cache folder with one of theirs
    (``renameat2(RENAME_EXCHANGE)``) in a loop while we load rules again and again. Before, their pickle ran within
    seconds (the check was made on one path lookup and the open on another)."""
    import shutil
    import tempfile

    shared = Path(tempfile.mkdtemp(prefix="referee-shared-", dir="/tmp"))  # under /tmp: the other user can reach it
    shared.chmod(0o777)
    ours, theirs, count = shared / "referee", shared / "theirs", shared / "swaps"
    ours.mkdir(mode=0o700)
    spec = tmp_path / "my.yaml"
    spec.write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    name = _planted_name(spec)
    (ours / name).write_bytes(pickle.dumps(("referee-rules/2", [], _load_fresh(spec))))  # our own good entry
    (ours / name).chmod(0o600)
    marker = tmp_path / "pwned"
    seconds = 15
    import ctypes  # here: after setuid the other user cannot read this Python's library (it lives under /root)

    libc = ctypes.CDLL(None, use_errno=True)
    child = os.fork()
    if child == 0:  # the other user
        swaps = 0
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            theirs.mkdir(mode=0o755)
            (theirs / name).write_bytes(_evil_pickle(marker))
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                swaps += libc.renameat2(-100, bytes(ours), -100, bytes(theirs), 2) == 0  # AT_FDCWD, RENAME_EXCHANGE
            count.write_text(str(swaps))
        except BaseException as error:  # noqa: BLE001 - said to the parent through the count file
            count.write_text(f"0 {error!r}")
        finally:
            os._exit(0)
    tries = 0
    try:
        os.environ["REFEREE_CACHE_DIR"] = str(ours)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not marker.exists():
            _load_fresh(spec)
            tries += 1
    finally:
        os.environ["REFEREE_CACHE_DIR"] = _TEST_CACHE
        os.waitpid(child, 0)
        said = count.read_text() if count.exists() else "0 (no count written)"
        swaps = int(said.split()[0])
        shutil.rmtree(shared, ignore_errors=True)
    assert swaps > 1000 and tries > 5, (said, tries)  # the attack ran, and we loaded throughout
    assert not marker.exists(), f"the other user's pickle ran, after {tries} loads"


_TEST_CACHE = os.environ["REFEREE_CACHE_DIR"]


@pytest.mark.skipif(not ROOT_USER, reason="needs root, to be a second user")
def test_the_swap_at_the_worst_moment_runs_no_code(tmp_path: Path, monkeypatch: Any) -> None:
    """The same race, won every time: the other user's folder is swapped in just before a cache entry is opened
    (after every check on the path). Before, that opened their pickle and ran it; now the folder is not even used
    (a folder above it is shared and not sticky), and where it is used the entry is opened through a descriptor."""
    import builtins
    import ctypes
    import io
    import shutil
    import tempfile

    shared = Path(tempfile.mkdtemp(prefix="referee-shared-", dir="/tmp"))
    shared.chmod(0o777)
    ours, theirs = shared / "referee", shared / "theirs"
    ours.mkdir(mode=0o700)
    spec = tmp_path / "my.yaml"
    spec.write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    name = _planted_name(spec)
    (ours / name).write_bytes(pickle.dumps(("referee-rules/2", [], _load_fresh(spec))))
    (ours / name).chmod(0o600)
    marker = tmp_path / "pwned"
    child = os.fork()
    if child == 0:  # the other user prepares their folder
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            theirs.mkdir(mode=0o755)
            (theirs / name).write_bytes(_evil_pickle(marker))
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    libc = ctypes.CDLL(None, use_errno=True)
    swapped = []

    def swap_first(target: Any) -> None:
        if not swapped and str(target).endswith(".pickle"):
            swapped.append(libc.renameat2(-100, bytes(ours), -100, bytes(theirs), 2))  # what the other user may do

    real_open, real_os_open = io.open, os.open

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        swap_first(file)
        return real_open(file, *args, **kwargs)

    def spy_os_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        swap_first(path)
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(io, "open", spy_open)
    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(ours))
    try:
        rules = _load_fresh(spec)
    finally:
        monkeypatch.undo()
        shutil.rmtree(shared, ignore_errors=True)
    assert not marker.exists(), "the other user's pickle ran"
    assert rules.spec.name == "house-short-game"


def test_the_cache_folder_walk_refuses_links_and_shared_folders(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    assert rules_cache.open_folder(private, create=False) is not None
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    (shared / "cache").mkdir(mode=0o700)
    assert rules_cache.open_folder(shared / "cache", create=False) is None
    shared.chmod(0o1777)  # sticky, as /tmp: others cannot rename what is ours in it
    assert rules_cache.open_folder(shared / "cache", create=False) is not None
    private.chmod(0o770)
    assert rules_cache.open_folder(private, create=False) is None


# -- 2. --dask local: nobody else can use the cluster


_DASK_PROBE = """
import faulthandler, sys
faulthandler.dump_traceback_later(100, exit=True)  # if it hangs, say where
import gc
import os
import distributed
from referee.checking import batch

if __name__ == "__main__":
    cluster, security = batch.local_cluster(distributed, 0)  # the scheduler is what the other user reached
    try:
        print(cluster.scheduler_address.startswith("tls://127.0.0.1:"), flush=True)
        for other in (None, distributed.Security.temporary()):  # no TLS at all; TLS with a certificate of their own
            try:
                distributed.Client(cluster.scheduler_address, timeout="3s", security=other).close()
                print("connected")
            except Exception as error:
                print("refused", type(error).__name__, flush=True)
            gc.collect()  # a half-made Client closes itself when collected: here, not inside the next one's start-up
        for attempt in range(3):  # under load the handshake can time out; our own credentials must be let in
            try:
                client = distributed.Client(cluster.scheduler_address, security=security, timeout="60s")
                print(len(client.scheduler_info()["workers"]) + 3, flush=True)
                break
            except Exception as error:
                print("ours failed", type(error).__name__, error, flush=True)
    finally:
        os._exit(0)  # the test ends the process group: the refusals are the point, not the teardown
"""


@pytest.mark.slow
def test_a_local_dask_cluster_refuses_a_client_without_its_credentials(tmp_path: Path) -> None:
    """What the other user did (found the port, connected, ran code) is refused; our own client works. In a process
    of its own: a Dask client's event loop does not share a test process well."""
    pytest.importorskip("distributed")
    probe = tmp_path / "probe.py"
    probe.write_text(_DASK_PROBE)
    out = tmp_path / "out.txt"
    with out.open("w") as stream:  # a file, not a pipe: a worker process that outlives the cluster cannot hold it open
        process = subprocess.Popen([sys.executable, str(probe)], stdout=stream, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code: int | None = process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    assert code is not None, f"the probe did not end; it said: {out.read_text()!r}"
    lines = out.read_text().split("\n")
    assert code == 0 and lines[0] == "True" and "3" in lines[3:], lines
    assert lines[1].startswith("refused") and lines[2].startswith("refused"), lines


@pytest.mark.slow
def test_dask_security_file_reaches_a_tls_scheduler_and_without_it_is_one_line(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from referee.checking import batch

    cluster, security = batch.local_cluster(distributed, 1)
    try:
        for key in ("tls_ca_file", "tls_client_cert", "tls_client_key"):
            (tmp_path / f"{key}.pem").write_text(getattr(security, key))
        (tmp_path / "tls.yaml").write_text(
            "tls-ca-file: tls_ca_file.pem\ntls-client-cert: tls_client_cert.pem\ntls-client-key: tls_client_key.pem\n"
        )
        address = cluster.scheduler_address
        good = referee_cli("check", "--dask", address, "--dask-security", str(tmp_path / "tls.yaml"), "--format", "json", str(VALID))
        assert good.returncode == 0, good.stderr
        assert json.loads(good.stdout)["files"][0]["valid"] is True
        bare = referee_cli("check", "--dask", address, str(VALID))
        assert bare.returncode == 2 and len(bare.stderr.splitlines()) == 1 and bare.stderr.startswith(b"error: --dask")
        (tmp_path / "bad.yaml").write_text("tls-ca: x\n")
        bad = referee_cli("check", "--dask", address, "--dask-security", str(tmp_path / "bad.yaml"), str(VALID))
        assert bad.returncode == 2 and b"a --dask-security file is a mapping" in bad.stderr
    finally:
        cluster.close()


def test_dask_security_goes_with_an_address_only() -> None:
    result = referee_cli("check", "--dask", "local", "--dask-security", str(VALID), str(VALID))
    assert result.returncode == 2 and b"--dask-security goes with --dask ADDRESS" in result.stderr


# -- 3. a log decides no file outside its folder, and no error quotes a file that is not a spec


def _game_naming(spec_line: str) -> str:
    text = GAME.read_text(encoding="utf-8")
    assert "\nplayers Kim Dan Ivy Fay\n" in text
    return text.replace("\nplayers Kim Dan Ivy Fay\n", f"\nplayers Kim Dan Ivy Fay\nspec {spec_line}\n", 1)


@pytest.mark.parametrize(
    "how", [pytest.param("absolute", marks=pytest.mark.slow), "dotdot", pytest.param("symlink", marks=pytest.mark.slow)]
)
def test_a_log_spec_line_cannot_name_a_file_outside_its_folder(tmp_path: Path, private_file: Path, how: str) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    if how == "absolute":
        line = str(private_file)
    elif how == "dotdot":
        line = "../secret/shadow"
    else:
        (logs / "link.yaml").symlink_to(private_file)
        line = "link.yaml"
    (logs / "game.log").write_text(_game_naming(line), encoding="utf-8")
    for output in ("text", "json", "sarif", "junit", "github"):
        result = referee_cli("check", "--format", output, str(logs / "game.log"))
        assert result.returncode == 2, (output, result.stderr)
        assert SECRET.encode() not in result.stdout + result.stderr
    result = referee_cli("check", str(logs / "game.log"))
    assert b"--spec-path DIR" in result.stderr and b"game.log:3: error: no spec" in result.stderr
    for command in (["explain", f"{logs / 'game.log'}:5"], ["adjudicate", str(logs / "game.log")]):
        result = referee_cli(*command)
        assert result.returncode == 2 and SECRET.encode() not in result.stdout + result.stderr
    # Allowed, the file is still no spec: "not a spec file", and nothing of it is printed.
    allowed = referee_cli("check", "--spec-path", str(private_file.parent), "--format", "json", str(logs / "game.log"))
    assert allowed.returncode == 2 and b"not a spec file" in allowed.stdout + allowed.stderr
    assert SECRET.encode() not in allowed.stdout + allowed.stderr


def test_a_spec_in_the_log_folder_tree_and_in_a_spec_path_is_read(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "specs").mkdir(parents=True)
    (logs / "specs" / "short.yaml").write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    (logs / "game.log").write_text(_game_naming("specs/short.yaml"), encoding="utf-8")
    result = referee_cli("check", "--format", "json", str(logs / "game.log"))
    assert json.loads(result.stdout)["files"][0].get("input_error") is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "short.yaml").write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    (logs / "game.log").write_text(_game_naming(str(elsewhere / "short.yaml")), encoding="utf-8")
    assert referee_cli("check", str(logs / "game.log")).returncode == 2
    result = referee_cli("check", "--spec-path", str(elsewhere), "--format", "json", str(logs / "game.log"))
    assert json.loads(result.stdout)["files"][0].get("input_error") is None, result.stdout


def test_extends_is_confined_to_the_spec_folder_tree(tmp_path: Path, private_file: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    write_spec(specs, "house", "extends: ../secret/shadow\n")
    result = referee_cli("rules", "--spec", str(specs / "house.yaml"))
    assert result.returncode == 2 and b"house.yaml:3:10: error: no spec '../secret/shadow' here" in result.stderr
    assert SECRET.encode() not in result.stdout + result.stderr
    result = referee_cli("check", "--spec", str(specs / "house.yaml"), "--spec-path", str(tmp_path), str(VALID))
    assert result.returncode == 2 and b"not a spec file" in result.stderr and SECRET.encode() not in result.stderr


def test_a_spec_that_is_not_a_spec_file_is_never_quoted(private_file: Path) -> None:
    for command in (["check", str(VALID)], ["rules"], ["prove", "--players", "2"]):
        result = referee_cli(*command, "--spec", str(private_file))
        assert result.returncode == 2 and b"not a spec file" in result.stderr and SECRET.encode() not in result.stderr


def test_the_library_takes_a_string_as_log_text_never_as_a_path(private_file: Path) -> None:
    report = referee.check(str(private_file))
    assert not report.valid and SECRET not in json.dumps(report.to_json())
    assert report.to_json()["path"] == "<text>"
    assert referee.check(VALID).valid  # a Path is a file
    with pytest.raises(TypeError):
        referee.check(b"players Ann Bob\n")  # type: ignore[arg-type]


# -- 4. bounded memory, no hangs


def _limit_memory(megabytes: int) -> Any:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return apply


def test_a_huge_sparse_spec_is_refused_without_reading_it(tmp_path: Path) -> None:
    spec = tmp_path / "huge.yaml"
    with spec.open("wb") as handle:
        handle.write(b"format: referee-spec/1\nname: huge\n")
        handle.truncate(3 * 1024**3)
    started = time.monotonic()
    result = referee_cli("check", "--spec", str(spec), str(VALID), preexec_fn=_limit_memory(1500))
    assert result.returncode == 2 and b"larger than 1,048,576 bytes" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1 and time.monotonic() - started < 60


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_cached_spec_whose_base_became_a_pipe_or_a_device_neither_hangs_nor_grows(tmp_path: Path, kind: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    base = tmp_path / "base.yaml"
    base.write_bytes((ROOT / "specs" / "uno-flip.yaml").read_bytes())
    house = write_spec(tmp_path, "house", "extends: base.yaml\n")
    env = {"REFEREE_CACHE_DIR": str(cache)}
    assert referee_cli("check", "--spec", str(house), str(VALID), env=env).returncode == 0
    base.unlink()
    if kind == "fifo":
        os.mkfifo(base)
    else:
        base.symlink_to("/dev/zero")
    result = referee_cli("check", "--spec", str(house), str(VALID), env=env, preexec_fn=_limit_memory(1500), timeout=60)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    # A pipe is refused when read; a link to /dev/zero points out of the spec's folder and is not even opened.
    expected = b"cannot read spec: is a pipe (FIFO), not a regular file" if kind == "fifo" else b"no spec 'base.yaml' here"
    assert expected in result.stderr


def test_view_of_a_device_is_refused_at_once(tmp_path: Path) -> None:
    result = referee_cli("view", "/dev/zero", "--out", str(tmp_path / "z.html"), preexec_fn=_limit_memory(1500), timeout=60)
    assert result.returncode == 2 and result.stderr == b"/dev/zero: error: cannot read: is a device, not a regular file\n"


def test_view_holds_no_long_line_whole(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    with log.open("wb") as handle:
        handle.write(b"players Ann Bob\n# " + b"x" * (60 * 1024 * 1024) + b"\nround 1\n")
    result = referee_cli("view", str(log), preexec_fn=_limit_memory(120), timeout=120)  # holding the line whole did not fit
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "long.html").read_text(encoding="utf-8")
    assert len(page) < 2_000_000


def test_out_of_memory_is_one_line_and_exit_2() -> None:
    code = (
        "import sys; sys.argv = ['referee', 'rules']; import referee.commands.cli as c\n"
        "def oom(**_): raise MemoryError()\n"
        "c.main.main = oom; c.run()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 2 and result.stderr.startswith(b"error: out of memory") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("megabytes", [40, 60, 90])
def test_prove_under_a_memory_limit_is_one_line_not_an_internal_error_or_a_crash(megabytes: int) -> None:
    """Under ``ulimit -v`` Z3 fails to load (40 MB), raises MemoryError (60) or aborts in C++ (90): before, exit 4 or a
    signal (139, 134); now the proof runs in a child and each is one line, exit 2."""
    result = referee_cli("prove", "--spec", "uno-flip", "--players", "2", preexec_fn=_limit_memory(megabytes), timeout=300)
    assert result.returncode in (0, 2), (result.returncode, result.stderr)
    if result.returncode == 2:
        assert result.stderr == b"error: out of memory (a limit on this process, or an input too large for it)\n"


@pytest.mark.slow
@pytest.mark.parametrize("megabytes", [300, 600])
def test_dask_local_under_a_memory_limit_is_a_result_or_one_line(megabytes: int) -> None:
    pytest.importorskip("distributed")
    result = referee_cli("check", "--dask", "local", str(VALID), preexec_fn=_limit_memory(megabytes), timeout=180)
    assert result.returncode in (0, 2), result.stderr
    assert len(result.stderr.splitlines()) == (1 if result.returncode == 2 else 0), result.stderr


# -- 5. signals


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def many_logs(tmp_path: Path) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    data = GAME.read_bytes()
    for number in range(400):
        (folder / f"g{number:04d}.log").write_bytes(data)
    return folder


def test_sigterm_ends_the_workers_and_exits_143(many_logs: Path) -> None:
    process = subprocess.Popen([*REFEREE, "check", "-j", "2", str(many_logs)], stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(process.pid)
        assert len(workers) >= 2
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=10)  # returns: nothing holds our output pipe open any more
        assert process.returncode == 143
        time.sleep(0.5)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        process.kill()
        process.communicate()


@pytest.mark.parametrize(
    "command",
    [["check"], pytest.param(["explain", "--line", "3"], marks=pytest.mark.slow), pytest.param(["adjudicate"], marks=pytest.mark.slow)],
)
def test_ctrl_c_stops_reading_a_device_at_once(command: list[str]) -> None:
    args = [*command[:1], "/dev/zero", *command[1:]]
    process = subprocess.Popen([*REFEREE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.7)  # well into the read
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
        took = time.monotonic() - sent
        assert process.returncode == 130 and took < 2.0, (process.returncode, took)
        assert b"Traceback" not in err
    finally:
        process.kill()
        process.communicate()


def test_the_library_honours_a_signal_handler_while_checking_a_device() -> None:
    code = (
        "import signal, time, sys; from pathlib import Path; import referee\n"
        "class Late(Exception): pass\n"
        "def late(*_): raise Late()\n"
        "signal.signal(signal.SIGALRM, late); signal.setitimer(signal.ITIMER_REAL, 1.0)\n"
        "start = time.monotonic()\n"
        "try:\n    referee.check(Path('/dev/zero'))\nexcept Late:\n    print(round(time.monotonic() - start, 2))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, text=True)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) < 2.0


def test_ctrl_c_during_start_up_prints_no_traceback() -> None:
    """From the first line of ours on, Ctrl-C is exit 130 and silent. Before it, while the interpreter imports its own
    ``site`` module (the first ~10 ms), the interrupt is Python's: that case is told apart and not counted."""
    ours = 0
    for delay in (0.0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16, 0.25, 0.4):
        process = subprocess.Popen([*REFEREE, "rules"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        python_own = b"Could not import runpy" in err or b"Fatal Python error" in err or (b"Traceback" in err and b"/referee/" not in err)
        if process.returncode == -signal.SIGINT or python_own:
            continue  # the interpreter's start-up (site, runpy), before any line of ours ran
        ours += 1
        assert b"Traceback" not in err and process.returncode in (130, 0), (delay, process.returncode, err)
    assert ours >= 3


# -- 6. outputs


def test_a_full_disk_on_standard_output_is_one_line_exit_2() -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run([*REFEREE, "rules"], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 2
    assert result.stderr == b"error: cannot write standard output: No space left on device\n"


@pytest.mark.parametrize("output", ["json", pytest.param("sarif", marks=pytest.mark.slow), pytest.param("junit", marks=pytest.mark.slow)])
def test_a_killed_worker_leaves_a_whole_report(many_logs: Path, output: str) -> None:
    process = subprocess.Popen(
        [*REFEREE, "check", "-j", "2", "--format", output, str(many_logs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    os.kill(_children(process.pid)[0], signal.SIGKILL)
    out, err = process.communicate(timeout=300)
    assert process.returncode in (0, 2), err
    if output == "junit":
        import xml.etree.ElementTree as ET

        cases = list(ET.fromstring(out).iter("testcase"))
        assert len(cases) == 400
    elif output == "json":
        assert len(json.loads(out)["files"]) == 400
    else:
        json.loads(out)  # one whole document


# -- 7. the replay page


HOSTILE_TEXT = ["<!--", "</script>", "<script>alert(1)</script>", "__TITLE__", "__DATA__", "\u2028", "\u2029", "&amp;", "]]>"]


def test_the_page_embeds_data_that_no_text_can_break(tmp_path: Path) -> None:
    from referee.commands.page import embedded_json

    for text in HOSTILE_TEXT:
        embedded = embedded_json({"line": text})
        assert not set("<>&\u2028\u2029") & set(embedded)
        assert json.loads(embedded) == {"line": text}


def test_the_page_allows_only_its_own_script(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_bytes(GAME.read_bytes())
    assert referee_cli("view", str(log)).returncode == 0
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    policy = page.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "script-src 'sha256-" in policy


# -- 8. the library writes logs that read back the same


@pytest.mark.parametrize(
    ("names", "why"),
    [
        (["Ann Bob", "Cat"], "not a player name"),
        (["Ann\nspec /etc/shadow", "Bob"], "not a player name"),
        (["", "Bob"], "not a player name"),
        (["round", "Bob"], "reserved word"),
        (["Red", "Bob"], "reserved word"),
        (["Ann", "Ann"], "must differ"),
        (["Ann\x1b[31m", "Bob"], "not a player name"),
    ],
)
def test_game_new_refuses_names_a_log_cannot_hold(names: list[str], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        referee.Game.new("uno-flip", names, seed=1)


def test_push_of_a_non_move_is_a_type_error_and_from_log_of_empty_text_is_our_error() -> None:
    game = referee.Game.new("uno-flip", ["Ann", "Bob"], seed=1)
    for bad in (None, 3, b"Ann passes"):
        with pytest.raises(TypeError):
            game.push(bad)  # type: ignore[arg-type]
    from referee.errors import RefereeError

    with pytest.raises(RefereeError):
        referee.Game.from_log("")


# -- 9. smaller


def _cache_env(**values: str) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("REFEREE_CACHE_DIR", "XDG_CACHE_HOME", "HOME")}
    return {**environment, **values}


def test_a_relative_xdg_cache_home_and_an_empty_home_are_ignored(tmp_path: Path) -> None:
    spec = tmp_path / "my.yaml"
    spec.write_bytes((ROOT / "specs" / "house-short-game.yaml").read_bytes())
    work = tmp_path / "work"
    work.mkdir()
    for environment in (_cache_env(XDG_CACHE_HOME="relative", HOME=str(tmp_path / "home")), _cache_env(HOME="")):
        result = subprocess.run([*REFEREE, "rules", "--spec", str(spec)], cwd=work, env=environment, capture_output=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert not list(work.iterdir())  # nothing written under the current folder
    assert not Path("/.cache/referee").exists() or not any(Path("/.cache/referee").iterdir())


def test_a_cache_entry_of_the_wrong_type_is_a_miss_not_a_crash(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {"REFEREE_CACHE_DIR": str(cache)}
    assert referee_cli("rules", "--spec", "house-short-game", env=env).returncode == 0
    for entry in cache.glob("*.pickle"):  # the entry as written, its rules replaced by something else
        magic, files, _ = pickle.loads(entry.read_bytes())
        entry.write_bytes(pickle.dumps((magic, files, ["not", "rules"])))
        entry.chmod(0o600)
    result = referee_cli("rules", "--spec", "house-short-game", env=env)
    assert result.returncode == 0, result.stderr


def test_a_fifo_or_device_named_log_in_a_folder_is_reported_not_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.log")
    (tmp_path / "good.log").write_bytes(VALID.read_bytes())
    result = referee_cli("check", str(tmp_path), timeout=60)
    assert result.returncode == 2
    assert b"pipe.log: error: cannot read: is a pipe (FIFO), not a regular file" in result.stderr
    assert b"2 logs checked: 1 valid, 0 with errors, 1 unreadable" in result.stdout


def test_a_chained_url_is_refused() -> None:
    result = referee_cli("check", "memory://a.log::file:///etc/passwd")
    assert result.returncode == 2 and b"chained URLs" in result.stderr and len(result.stderr.splitlines()) == 1


def test_cache_clear_removes_the_entries(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {"REFEREE_CACHE_DIR": str(cache)}
    referee_cli("rules", "--spec", "house-short-game", env=env)
    assert list(cache.glob("*.pickle"))
    result = referee_cli("cache", "clear", env=env)
    assert result.returncode == 0 and b"removed 1 entry" in result.stdout and not list(cache.glob("*.pickle"))
    assert referee_cli("cache", "path", env=env).stdout.decode().strip() == str(cache)
