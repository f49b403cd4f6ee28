"""The bots' sandbox (referee/play/sandbox.py, docs/security.md "Bots"): each attack of issues 29 and 39 made by a
hostile bot, with the host run as root and as an unprivileged user; each limit exceeded by a bot that is then a
crashed bot while the match goes on; nothing left running.

The unprivileged host is a user the test makes up (uid ``UNPRIVILEGED``, no name, no home): it runs the referee from
a copy of the package in a folder of its own, since this machine's Python may live where only root can read
(pyenv under /root). On a machine where the tests do not run as root, the one host is the user running them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import REFEREE, run_referee

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "bots"
GREEDY = ROOT / "examples" / "bots" / "greedy_bot.py"
UNPRIVILEGED = 4242
IS_ROOT = os.geteuid() == 0
SYSTEM = {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr"}


def _sandbox_or_skip() -> None:
    from referee.play.sandbox import Sandbox

    sandbox = Sandbox(wanted=True)
    sandbox.close()
    if not sandbox.active:
        pytest.skip(f"no sandbox can be made on this machine: {sandbox.why}")


def _running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
            except OSError:
                continue
    return found


class Host:
    """Runs ``referee play`` as root or as an unprivileged user, from a folder (``base``) that user owns, holding the
    bots, the match folder and, for the made-up user, a copy of the referee and its two pure dependencies."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.uid = UNPRIVILEGED if who == "user" and IS_ROOT else os.geteuid()
        self.base = Path(tempfile.mkdtemp(prefix="referee-sandbox-test-"))
        self.base.chmod(0o755)
        self.python = sys.executable
        self.env = {**os.environ, "HOME": str(self.base / "home")}
        (self.base / "home").mkdir()
        (self.base / "bots").mkdir()
        for bot in (GREEDY, *BOTS.glob("*.py")):
            shutil.copy(bot, self.base / "bots" / bot.name)
        if self.uid != os.geteuid():
            try:
                self._as_another_user()
            except BaseException:  # a skip included: nothing of it is left in /tmp
                self.close()
                raise

    def _as_another_user(self) -> None:
        import click
        import yaml

        lib = self.base / "lib"
        for package in (ROOT / "referee", Path(click.__file__).parent, Path(yaml.__file__).parent):
            shutil.copytree(package, lib / package.name, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "specs", lib / "specs")  # where a source tree's referee finds its shipped specs
        self.env["PYTHONPATH"] = str(lib)
        self.env.pop("PYTHONSAFEPATH", None)
        for path in [self.base, *self.base.rglob("*")]:
            os.lchown(path, self.uid, self.uid)
        for python in (sys.executable, "/usr/bin/python3"):
            try:
                probe = self.run([python, "-c", "import referee.play.sandbox, click, yaml"], timeout=60)
            except OSError:  # not a program this user may run
                continue
            if probe.returncode == 0:
                self.python = python
                return
        pytest.skip(f"no Python here that uid {self.uid} can run with a copy of the referee")

    def _become(self) -> None:
        if self.uid != os.geteuid():
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)

    def run(self, command: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=self.env, cwd=self.base, preexec_fn=self._become
        )

    def bot(self, name: str, *arguments: str) -> str:
        return shlex.join([self.python, str(self.base / "bots" / name), *arguments])

    def play(self, *arguments: str, out: str = "match") -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
        """A match of one game to 50 points; its results by bot name ({} if there are none)."""
        command = [self.python, "-m", "referee", "play", "--spec", "uno", "--games", "1", "--target", "50", "--seed", "3"]
        result = self.run([*command, "--out", str(self.base / out), *arguments])
        results = self.base / out / "results.json"
        return result, {bot["name"]: bot for bot in json.loads(results.read_text())["bots"]} if results.exists() else {}

    def valid(self, out: str = "match") -> bool:
        checked = self.run([self.python, "-m", "referee", "check", str(self.base / out)])
        return checked.returncode == 0

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(params=["root", "user"])
def host(request: Any) -> Iterator[Host]:
    _sandbox_or_skip()
    if request.param == "root" and not IS_ROOT:
        pytest.skip("the tests do not run as root here")
    made = Host(request.param)
    try:
        yield made
    finally:
        made.close()


class Watcher:
    """Notes, from the host's side, the users that the bot's processes (a Python whose command line holds ``marker``)
    run as, while a match is played."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.uids: set[int] = set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stop.wait(0.02):
            for pid in _running(self.marker):
                try:
                    status = Path(f"/proc/{pid}/status").read_text()
                    if b"\0play\0" in Path(f"/proc/{pid}/cmdline").read_bytes():  # the host: its bots' lines in its own
                        continue
                except OSError:
                    continue
                fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
                if fields["Name"].strip().startswith("python"):  # not bwrap, setpriv or prlimit on the way to it
                    self.uids.update(int(uid) for uid in fields["Uid"].split())

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


class Listener:
    """A Unix socket server, as a tmux server or a desktop bus is: it notes whether anyone connected."""

    def __init__(self, path: Path | None = None, abstract: str | None = None) -> None:
        self.connected = threading.Event()
        self.abstract = abstract
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path) if path is not None else "\0" + str(abstract))
        if path is not None:
            path.chmod(0o777)
        self.server.listen(4)
        self.server.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.server.accept()
            except (TimeoutError, OSError):
                continue
            self.connected.set()
            connection.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.server.close()


# -- the attacks of issue 39: undo the mounts, reach a socket, read another bot's files, write a sysctl


def test_a_hostile_bot_undoes_no_mount_reaches_no_socket_and_reads_no_file(host: Host) -> None:
    """The bot tries each escape of issue 39 from inside its sandbox; every one fails, as root and as a user, and the
    match is played to its end with a valid log."""
    secret = host.base / "secret.txt"
    secret.write_text("the organiser's key\n")
    writable = host.base / "writable"
    writable.mkdir()
    writable.chmod(0o777)
    (host.base / "out-of-reach").mkdir()
    socket_path = host.base / "out-of-reach" / "default"
    listener = Listener(path=socket_path)
    abstract = Listener(abstract=f"referee-test-{os.getpid()}")
    for path in (secret, writable, socket_path.parent, socket_path):
        os.lchown(path, host.uid, host.uid)
    sysctl = Path("/proc/sys/kernel/core_uses_pid").read_text()
    settings = {
        "socket": str(socket_path),
        "abstract": abstract.abstract,
        "secrets": [str(secret), str(host.base / "bots" / "greedy_bot.py"), str(ROOT / "README.md"), "/etc/shadow"],
        "folders": [str(host.base / "match"), str(writable), str(host.base / "bots")],
    }
    settings["marker"] = marker = f"escaping-{os.getpid()}-{host.who}"
    watcher = Watcher(marker)
    try:
        result, bots = host.play(
            "--bot-stderr", str(host.base / "kept"), host.bot("escaping.py", json.dumps(settings)), host.bot("greedy_bot.py")
        )
    finally:
        listener.close()
        abstract.close()
        watcher.close()
    assert watcher.uids == {65534 if host.uid == 0 else host.uid}, watcher.uids  # the bot's user, seen from the host
    assert result.returncode == 0, result.stderr
    found = json.loads((host.base / "kept" / "escaping.stderr").read_text().splitlines()[0])
    assert found["unmounted"] == [] and not found["remounted"] and not found["remounted_usr"] and not found["mounted"], found
    assert not found["sysctl"] and Path("/proc/sys/kernel/core_uses_pid").read_text() == sysctl
    assert not found["unshared"]
    assert found["connected"] == [] and not listener.connected.is_set() and not abstract.connected.is_set()
    assert found["read"] == [], found
    assert found["seen"] == {str(host.base / "bots"): ["escaping.py"]}, found  # its own script alone: no other bot's
    # the folder of its script is made in its private /tmp (writable where the host's user is the bot's): what it
    # writes there stays there; nothing lands on the host's file system
    assert set(found["wrote"]) <= {str(host.base / "bots")}, found
    assert not any((Path(folder) / "escaped.txt").exists() for folder in [*settings["folders"], "/usr"])
    assert bots["escaping"]["crashes"] == 0 and bots["greedy_bot"]["crashes"] == 0 and host.valid()
    _assert_unprivileged(found, host)


def _assert_unprivileged(found: dict[str, Any], host: Host) -> None:
    """No capability, no new privileges, the filter on, and the bot's user an unprivileged one on the host too."""
    status = found["status"]
    assert all(int(status[cap], 16) == 0 for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")), status
    assert status["NoNewPrivs"] == "1" and status["Seccomp"] == "2", status
    assert found["uid"] == 65534
    allowed = SYSTEM | {Path(path).parts[1] for path in (host.python, os.path.realpath(host.python), str(host.base))}
    assert set(found["root"]) <= allowed, found["root"]


def test_a_bot_reads_the_file_given_to_it_and_nothing_beside_it(host: Host) -> None:
    """``--bot-file NAME=PATH``: that bot reads PATH at the same path; the file beside it, and the other bot, do not."""
    models = host.base / "models"
    models.mkdir()
    (models / "model.txt").write_text("weights\n")
    (models / "other.txt").write_text("not given\n")
    reader = host.base / "bots" / "reader.py"
    reader.write_text(READER)
    for path in (models, models / "model.txt", models / "other.txt", reader):
        os.lchown(path, host.uid, host.uid)
    arguments = ["--bot-stderr", str(host.base / "kept"), "--bot-file", "reader=models/model.txt"]
    command = f"{host.python} {reader}"  # it names neither file: the command line binds what it names
    result, bots = host.play(*arguments, f"reader={command}", f"second={command}")
    assert result.returncode == 0, result.stderr
    said = {name: json.loads((host.base / "kept" / f"{name}.stderr").read_text()) for name in ("reader", "second")}
    assert said["reader"] == {"models/model.txt": "weights\n", "models/other.txt": None}
    assert said["second"] == {"models/model.txt": None, "models/other.txt": None}
    assert host.valid()


READER = """
import json, sys
said = {}
for path in ("models/model.txt", "models/other.txt"):
    try:
        said[path] = open(path).read()
    except OSError:
        said[path] = None
print(json.dumps(said), file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if "legal" in message:
        print(next(move for move in message["legal"] if move != "wait"), flush=True)
"""


# -- the attacks of issue 29 (round two): no other process seen, nothing planted, nothing left running

HOSTILE = BOTS / "hostile.py"


def _results(out: Path) -> dict[str, Any]:
    return json.loads((out / "results.json").read_text())  # type: ignore[no-any-return]


referee_cli = run_referee


def _hostile_match(tmp_path: Path, *extra: str, gentle: bool = False) -> tuple[Any, dict[str, Any], Path, str]:
    import json

    out, writable, kept = tmp_path / "match", tmp_path / "writable", tmp_path / "stderr"
    writable.mkdir()
    writable.chmod(0o777)
    out.mkdir()
    marker = f"orphan-{os.getpid()}-{tmp_path.name}"
    hostile = f"{sys.executable} {HOSTILE} {out} {writable} {marker}" + (" gentle" if gentle else "")
    result = referee_cli(
        "play",
        "--spec",
        "uno",
        "--games",
        "2",
        "--target",
        "50",
        "--out",
        str(out),
        "--bot-stderr",
        str(kept),
        *extra,
        hostile,
        f"{sys.executable} {GREEDY}",
    )
    said = (kept / "hostile.stderr").read_text().splitlines()
    return result, json.loads(said[0]), out, marker


def test_a_bot_in_the_sandbox_reaches_nothing_it_must_not(tmp_path: Path) -> None:
    """The attacks of issue 29, point 3, made by a bot: it sees no other process (so neither the host's command line
    nor another bot's pipes), plants no link in the match folder, writes no file outside its own folder, and the
    process it double-forked into a session of its own is gone when the match ends."""
    _sandbox_or_skip()
    result, found, out, marker = _hostile_match(tmp_path)
    try:
        assert result.returncode == 0, result.stderr
        assert b"warning" not in result.stderr
        assert found["processes"] <= 1 and not found["host_seen"], found  # its own sandbox's first process, at most
        assert found["fd_read"] == found["fd_written"] == 0, found
        assert not found["planted"] and not found["wrote_outside"], found
        assert not (tmp_path / "writable" / "escaped.txt").exists()
        assert all(not path.is_symlink() for path in out.iterdir())
        assert {bot["name"]: bot["crashes"] for bot in _results(out)["bots"]}["greedy_bot"] == 0
        assert _running(marker) == [], "a bot's process outlived the match"
    finally:
        for pid in _running(marker):
            os.kill(pid, 9)


def test_without_the_sandbox_the_same_bot_reaches_the_host(tmp_path: Path) -> None:
    """``--no-sandbox`` runs bots bare, as the docs warn: the same bot then sees the host's command line (the attack
    test above can fail). The match folder is still written through the host's own descriptor: a planted link is
    replaced, never followed, the match ends with its results, and what the bot left behind is ended."""
    result, found, out, marker = _hostile_match(tmp_path, "--no-sandbox", gentle=True)
    try:
        assert result.returncode == 0, result.stderr
        assert found["host_seen"] and found["processes"] > 2, found
        assert found["planted"] and (out / "results.json").is_file()
        assert all(not path.is_symlink() for path in out.iterdir())
        assert _running(marker) == [], "a bot's process outlived the match (the host adopts and ends orphans)"
    finally:
        for pid in _running(marker):
            os.kill(pid, 9)


# -- the limits: each exceeded by a bot, which is then a crashed bot; the match goes on

LIMITS = ("--bot-memory", "256", "--bot-processes", "24", "--bot-file-size", "4", "--bot-disk", "16", "--bot-cpu", "2")
WAYS = ["fork", "memory", "file", "disk", "cpu", "files"]


@pytest.mark.parametrize("way", [pytest.param(way, marks=pytest.mark.slow) if way == "cpu" else way for way in WAYS])  # cpu: 2 s each
def test_a_bot_past_a_limit_is_a_crashed_bot_and_the_match_goes_on(host: Host, way: str) -> None:
    marker = f"limit-{way}-{os.getpid()}-{host.who}"
    extra = ("--bot-open-files", "64") if way == "files" else ()
    result, bots = host.play("--move-timeout", "30", *LIMITS, *extra, host.bot("greedy_then.py", way, marker), host.bot("greedy_bot.py"))
    try:
        assert result.returncode == 0, result.stderr
        assert bots["greedy_then"]["crashes"] == 1 and bots["greedy_then"]["timeouts"] == 0, bots["greedy_then"]
        assert bots["greedy_then"]["left_match"] and bots["greedy_bot"]["crashes"] == 0
        assert host.valid()
        assert _running(marker) == [], "a process of the bot outlived the match"
    finally:
        for pid in _running(marker):
            os.kill(pid, 9)


def test_the_limits_are_set_in_the_bot_as_given() -> None:
    """The rlimits a bot runs under are those of the options (read by the bot from /proc/self/limits)."""
    _sandbox_or_skip()
    from referee.play.sandbox import MIB, Limits, Sandbox

    sandbox = Sandbox(limits=Limits(memory=300 * MIB, processes=20, open_files=50, file_size=3 * MIB, cpu=77, disk=5 * MIB))
    try:
        code = "import os; print(open('/proc/self/limits').read()); print(os.statvfs('/tmp').f_blocks * os.statvfs('/tmp').f_frsize)"
        process = sandbox.popen("x", [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = process.communicate(timeout=60)
    finally:
        sandbox.close()
    assert process.returncode == 0, err
    rows = {line[:26].strip(): line[26:].split()[:2] for line in out.decode().splitlines()[1:] if line[:26].strip()}
    assert rows["Max address space"] == [str(300 * MIB)] * 2
    assert rows["Max processes"] == ["20", "20"] and rows["Max open files"] == ["50", "50"]
    assert rows["Max file size"] == [str(3 * MIB)] * 2 and rows["Max cpu time"] == ["77", "77"]
    assert rows["Max core file size"] == ["0", "0"]
    assert out.decode().splitlines()[-1] == str(5 * MIB)


# -- bots in each language of docs/protocol.md run unchanged

NODE_BOT = """
const readline = require('readline');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.legal) console.log(message.legal[0]);
});
"""
BASH_BOT = """
while IFS= read -r line; do
  case "$line" in
    *'"legal":["'*) move=${line#*\\"legal\\":[\\"}; printf '%s\\n' "${move%%\\"*}" ;;
  esac
done
"""


@pytest.mark.parametrize("language", ["node", "jq", "bash"])
def test_bots_in_node_jq_and_bash_play_in_the_sandbox(tmp_path: Path, language: str) -> None:
    _sandbox_or_skip()
    if shutil.which(language) is None:
        pytest.skip(f"{language} is not installed")
    bot = tmp_path / f"bot.{ {'node': 'js', 'jq': 'jq', 'bash': 'sh'}[language] }"
    bot.write_text({"node": NODE_BOT, "jq": "select(.legal) | .legal[0]", "bash": BASH_BOT}[language])
    command = {"node": f"node {bot}", "jq": f"jq --unbuffered -r -f {bot}", "bash": f"bash {bot}"}[language]
    out = tmp_path / "match"
    arguments = ["play", "--spec", "uno", "--games", "2", "--target", "50", "--seed", "1", "--out", str(out)]
    result = run_referee(*arguments, command, command, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    results = json.loads((out / "results.json").read_text())
    assert all(bot["crashes"] == bot["timeouts"] == bot["illegal_moves"] == 0 for bot in results["bots"]), results
    assert run_referee("check", str(out), timeout=120).returncode == 0


# -- what the host binds: nothing of the host but what the command line names


def test_the_paths_a_command_names_are_bound_and_no_home_is(tmp_path: Path) -> None:
    from referee.play.sandbox import needed_paths

    script = tmp_path / "bot.py"
    script.write_text("#!/usr/bin/env python3\n")
    (tmp_path / "pkg").mkdir()
    bound = [path for path, _ in needed_paths(["/usr/bin/python3", "bot.py", "-m", "pkg.main", "--level", "3"], str(tmp_path))]
    assert str(script) in bound and str(tmp_path / "pkg") in bound
    assert not any(path in ("/", os.path.expanduser("~")) for path in bound), bound
    home_program = Path(os.path.expanduser("~")) / "bin" / "no-such-bot"
    assert needed_paths([str(home_program)], str(tmp_path)) == []


def test_a_bot_that_cannot_read_its_script_is_told_why(host: Host) -> None:
    """A script only its owner may read, when the host is root (the bot runs as nobody), or a module the bot loads
    from a path its command does not name as an argument: the bot cannot start, and the error says what it sees."""
    script = host.base / "bots" / "private.py"
    shutil.copy(GREEDY, script)
    os.lchown(script, host.uid, host.uid)
    if host.uid == 0:
        script.chmod(0o600)
        command = host.bot("private.py")
        said = "which must be readable by all"
    else:  # as a user the bot is that user: a script it may read, but named only inside -c code
        command = shlex.join([host.python, "-c", f"import runpy; runpy.run_path({str(script)!r}, run_name='__main__')"])
        said = "sees only the files its command names and those given with --bot-file"
    result, bots = host.play(command, host.bot("greedy_bot.py"))
    assert result.returncode == 2 and bots == {}, result.stderr
    assert result.stderr.startswith("error: bot ") and " could not start: " in result.stderr and said in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def test_no_sandbox_to_be_had_is_one_error_line(tmp_path: Path) -> None:
    """Without bwrap on the PATH the match is refused in one line that says why and what --no-sandbox does."""
    out = tmp_path / "m"
    path = os.pathsep.join(part for part in os.environ.get("PATH", "").split(os.pathsep) if not (Path(part) / "bwrap").exists())
    command = [*REFEREE, "play", "--spec", "uno", "--games", "1", "--out", str(out)]
    bots = [f"{sys.executable} {GREEDY}"] * 2
    result = subprocess.run([*command, *bots], capture_output=True, text=True, timeout=120, env={**os.environ, "PATH": path})
    assert result.returncode == 2, result.stderr
    why = "bwrap (bubblewrap) is not installed"
    assert result.stderr == f"error: cannot run the bots in a sandbox: {why} (docs/security.md; --no-sandbox runs them bare, as you)\n"
    bare = subprocess.run([*command, "--no-sandbox", *bots], capture_output=True, text=True, timeout=120, env={**os.environ, "PATH": path})
    assert bare.returncode == 0 and bare.stderr == "", bare.stderr


def test_the_seccomp_filter_refuses_what_it_lists() -> None:
    """The compiled filter, loaded in a child process, refuses mount and unshare with EPERM and clone3 with ENOSYS,
    and lets ordinary work (fork, threads, files) through."""
    pytest.importorskip("ctypes")
    from referee.play.seccomp import SeccompUnavailable, write_filter

    folder = Path(tempfile.mkdtemp())
    try:
        write_filter(folder / "filter.bpf")
    except SeccompUnavailable as error:
        pytest.skip(str(error))
    program = FILTERED.replace("FILTER", str(folder / "filter.bpf"))
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    shutil.rmtree(folder)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"mount": 1, "unshare": 1, "clone3": 38, "fork": 0, "thread": True}


FILTERED = """
import ctypes, errno, json, os, threading
libc = ctypes.CDLL(None, use_errno=True)
program = open("FILTER", "rb").read()
class Filter(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
assert libc.prctl(38, 1, 0, 0, 0) == 0  # no_new_privs, as bwrap sets it
assert libc.prctl(22, 2, ctypes.byref(Filter(len(program) // 8, program)), 0, 0) == 0, ctypes.get_errno()
said = {}
libc.mount(b"none", b"/mnt", b"tmpfs", 0, None); said["mount"] = ctypes.get_errno()
libc.unshare(0x10000000); said["unshare"] = ctypes.get_errno()
libc.syscall(435, None, 0); said["clone3"] = ctypes.get_errno()
pid = os.fork()
if pid == 0:
    os._exit(0)
said["fork"] = os.waitpid(pid, 0)[1]
ran = []
thread = threading.Thread(target=lambda: ran.append(1)); thread.start(); thread.join()
said["thread"] = ran == [1]
print(json.dumps(said))
"""
