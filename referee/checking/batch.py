"""Many logs -> results, in the order given: on one core, on every core (``-j``), or on a Dask cluster.

The work on one log is a plain function of its ``LogSource`` (``check_source``,
``adjudicate``), so each of the three ways runs the same code and yields the
same results in the same order; only the place it runs differs. Memory stays
bounded: at most a small window of chunks is in flight, and results are handed
on as soon as every earlier one is.

Standard input cannot be sent to another process; it is read here, in order.

A worker that dies (killed, out of memory) loses no log and no output: its
logs are tried again one by one on a fresh pool, and a log whose worker dies
twice becomes that log's ``input_error`` entry, so every report is still one
whole document. A local Dask cluster speaks TLS with credentials made for
this run alone (``Security.temporary()``): no other user of the machine can
reach it (docs/security.md).
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import re
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from referee.log.inputs import LogSource
from referee.records import dataclass

if TYPE_CHECKING:  # imported when a pool is started: multiprocessing costs a single check's start-up 9 ms
    from concurrent.futures import Future, ProcessPoolExecutor

R = TypeVar("R")
Work = Callable[[LogSource], R]

CHUNK = 16  # logs per task: enough to make the cost of sending a task small beside checking 16 games
WINDOW = 4  # chunks in flight per worker: keeps every worker busy without reading ahead without limit

_POOLS: list[ProcessPoolExecutor] = []


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_chunk(work: Callable[[LogSource], R], sources: list[LogSource]) -> list[R]:
    """A worker's task: the results of a few logs, in order."""
    return [work(source) for source in sources]


def _chunks(sources: Iterable[LogSource], size: int, small: int = 0) -> Iterator[list[LogSource]]:
    """Chunks of ``size`` logs, the first ``small`` of them of one log each (a short batch still uses every worker)."""
    chunk: list[LogSource] = []
    for source in sources:
        if source.is_stdin:  # standard input: alone, read here
            if chunk:
                yield chunk
                chunk = []
            yield [source]
            continue
        chunk.append(source)
        if len(chunk) >= (1 if small > 0 else size):
            small -= 1
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _is_local(chunk: list[LogSource]) -> bool:
    return len(chunk) == 1 and chunk[0].is_stdin


def run_serial(work: Callable[[LogSource], R], sources: Iterable[LogSource]) -> Iterator[R]:
    for source in sources:
        yield work(source)


def _worker_start() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (and exits 130), and die with the parent on Linux
    (``PR_SET_PDEATHSIG``): a parent killed outright leaves no worker holding the output pipe open."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)


LOST = "a worker process died while reading this log (killed, or out of memory); it was tried twice"


def lost(work: Callable[[LogSource], R], source: LogSource) -> R:
    """The result of a log whose worker died twice: the work's own entry for a log that cannot be read."""
    return work(replace(source, problem=LOST, path=None, url=None))


class _Pool:
    """A process pool that is replaced when a worker dies (every pending task of the old one fails then)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=_worker_start)
        _POOLS.append(pool)
        return pool

    def submit(self, work: Callable[[LogSource], Any], part: list[LogSource]) -> Future[list[Any]]:
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self.pool.submit(run_chunk, work, part)
        except BrokenProcessPool:
            self.renew()
            return self.pool.submit(run_chunk, work, part)

    def renew(self) -> None:
        """A fresh pool, if the current one is broken (several failed tasks renew it once)."""
        if getattr(self.pool, "_broken", False):
            self.close()
            self.pool = self._start()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(ValueError):
            _POOLS.remove(self.pool)


# A window entry: the task (or results computed here), its logs, and whether they were already tried alone.
_Entry = tuple[Any, list[LogSource], bool]


def run_parallel(work: Callable[[LogSource], R], sources: Iterable[LogSource], jobs: int, chunk: int = CHUNK) -> Iterator[R]:
    """``work`` over every source on ``jobs`` worker processes; results in the order of ``sources``."""
    from concurrent.futures import Future

    pool = _Pool(jobs)
    window: deque[_Entry] = deque()
    try:
        for part in _chunks(sources, chunk, jobs * WINDOW):
            window.append((run_chunk(work, part) if _is_local(part) else pool.submit(work, part), part, False))
            while len(window) >= jobs * WINDOW:
                yield from _take(window, pool, work)
        while window:
            yield from _take(window, pool, work)
    finally:
        for pending, _, _ in window:
            if isinstance(pending, Future):
                pending.cancel()
        pool.close()


def _take(window: deque[_Entry], pool: _Pool, work: Callable[[LogSource], R]) -> list[R]:
    """The results of the oldest task; if its worker died, its logs go back to the front of the window one by one
    (on a fresh pool), and a log tried alone whose worker died again is a lost log."""
    from concurrent.futures.process import BrokenProcessPool

    done, part, alone = window.popleft()
    if isinstance(done, list):
        return done
    try:
        return list(done.result())
    except BrokenProcessPool:
        pool.renew()
        if alone:
            return [lost(work, source) for source in part]
        window.extendleft(reversed([(pool.submit(work, [source]), [source], True) for source in part]))
        return []


# What distributed takes as a scheduler's address: an optional scheme, a host and a port (or an in-process address).
# Compiled on its first use (re caches it): only --dask reads it, and compiling it took a quarter of a millisecond.
_ADDRESS = r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):[0-9]{1,5}|inproc://[^/\s]+/[0-9]+/[0-9]+"


@dataclass(frozen=True, slots=True)
class Cluster:
    """A Dask cluster to run on: ``local`` (started here, TLS with throw-away credentials) or a scheduler's address,
    with the TLS credentials file (``--dask-security``) to reach it with."""

    address: str
    security: Path | None = None


SECURITY_KEYS = {"tls-ca-file": "tls_ca_file", "tls-client-cert": "tls_client_cert", "tls-client-key": "tls_client_key"}


def read_security(path: Path, distributed: Any) -> Any:
    """``--dask-security FILE``: a YAML mapping of ``tls-ca-file``, ``tls-client-cert`` and ``tls-client-key`` (paths,
    relative to the file's folder) -> a ``distributed.Security`` that requires encryption."""
    import yaml

    from referee.errors import InputError, Position, escape
    from referee.safe_io import read_bounded, reason

    where = Position(escape(str(path)))
    try:
        data = yaml.safe_load(read_bounded(path, 64 * 1024).decode("utf-8"))
    except OSError as error:
        raise InputError(f"cannot read: {reason(error)}", where) from None
    except (UnicodeDecodeError, yaml.YAMLError):
        raise InputError("not a --dask-security file: not YAML text", where) from None
    if not isinstance(data, dict) or not data or any(key not in SECURITY_KEYS or not isinstance(v, str) for key, v in data.items()):
        raise InputError(f"a --dask-security file is a mapping of {', '.join(SECURITY_KEYS)} to file names", where)
    files = {SECURITY_KEYS[key]: str(path.parent / value) for key, value in data.items()}
    for name in files.values():
        if not os.path.isfile(name):
            raise InputError(f"no file {escape(name)}", where)
    return distributed.Security(require_encryption=True, **files)


def local_cluster(distributed: Any, workers: int) -> tuple[Any, Any]:
    """A Dask cluster on this machine that only this process can use, and the credentials to reach it.

    The scheduler and workers listen on 127.0.0.1, where any local user can
    connect; so they speak TLS and require a client certificate signed by a
    CA made for this run alone (``Security.temporary()``: kept in memory,
    never written to disk). A client without it is refused at the handshake.
    The HTTP server a scheduler always starts listens on a free loopback port
    and serves no route. Its scratch space (which Dask puts on the import
    path of the scheduler, the nannies and the workers) is a folder of its
    own, made 0700 and checked as ours (``private_scratch``), never the
    shared ``/tmp/dask-scratch-space`` another user may have made first.
    """
    import logging

    import dask

    scratch = private_scratch()
    security = distributed.Security.temporary()
    # The scheduler always starts an HTTP server (health, metrics, JSON): on a free loopback port, serving nothing.
    http = {"dashboard_address": "127.0.0.1:0"}
    settings = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": [], "temporary-directory": scratch}

    def start() -> Any:
        with dask.config.set(settings):
            return distributed.LocalCluster(
                local_directory=scratch,
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                host="127.0.0.1",
                protocol="tls://",
                security=security,
                silence_logs=logging.CRITICAL,
                scheduler_kwargs=http,
            )

    return within(CLUSTER_START_SECONDS, start), security


CLUSTER_START_SECONDS = 60.0  # a local cluster starts in seconds; one that has not in a minute never will


def within(seconds: float, start: Callable[[], R]) -> R:
    """``start()``, given ``seconds``: distributed can wait for ever on a worker that failed to start (under a memory
    limit, a TLS handshake with a worker process that never answers), so the start runs in a thread of its own, and
    when it is late the cluster's processes are stopped and the command ends with one error line."""
    import threading

    from referee.errors import UsageError

    made: list[R] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            made.append(start())
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread, which decides
            failed.append(error)

    thread = threading.Thread(target=run, name="referee-dask-start", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        stop_workers()
        raise UsageError(f"--dask local: the cluster did not start within {seconds:g} s")
    if failed:
        raise failed[0]
    return made[0]


_SCRATCH: list[str] = []  # the scratch folders made, removed once their cluster is closed (or at exit)


def private_scratch() -> str:
    """A folder only this user can use (``mkdtemp``: mode 0700), checked as such, and removed at exit: a local cluster's
    scratch space, which Dask puts on every import path of the cluster."""
    import atexit
    import shutil
    import stat
    import tempfile

    from referee.errors import UsageError

    path = tempfile.mkdtemp(prefix="referee-dask-")
    atexit.register(shutil.rmtree, path, True)
    _SCRATCH.append(path)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise UsageError(f"--dask local: the scratch folder {path} is not ours alone")
    return path


def private_import_path() -> None:
    """Drop from ``sys.path`` every folder another user can write (world-writable, or owned by another user than root
    or us): a Dask cluster imports optional modules by name, and whatever sits there would run as us."""
    import sys

    me = os.getuid()
    kept = []
    for entry in sys.path:
        try:
            info = os.stat(entry or ".")
        except OSError:
            kept.append(entry)  # not a folder (a zip, a missing entry): nothing there to plant
            continue
        if info.st_mode & 0o002 or info.st_uid not in (0, me):
            continue
        kept.append(entry)
    sys.path[:] = kept


def run_on_dask(work: Callable[[LogSource], R], sources: Iterable[LogSource], where: Cluster, chunk: int = CHUNK) -> Iterator[R]:
    """``work`` over every source on a Dask cluster (``local`` starts one here); results in order."""
    import logging

    from referee.errors import UsageError, escape

    # multiprocessing's resource tracker (a process of its own, started with the first semaphore) warns at exit about
    # semaphores a worker killed under memory pressure left behind: not our output (the error line says what failed).
    os.environ.setdefault("PYTHONWARNINGS", "ignore::UserWarning:multiprocessing.resource_tracker")
    private_import_path()
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--dask needs Dask: pip install 'referee[dask]'") from None
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # its warnings are not our output: one error line says it
    cluster: Any = None
    address = where.address
    try:
        if address == "local":
            cluster, security = local_cluster(distributed, default_jobs())
            client = distributed.Client(cluster, security=security)
        else:
            if not re.fullmatch(_ADDRESS, address):
                raise UsageError(f"--dask {escape(address)}: not a scheduler address (tcp://HOST:PORT, tls://HOST:PORT or local)")
            security = read_security(where.security, distributed) if where.security is not None else None
            client = distributed.Client(address, timeout="10s", security=security)
    except (UsageError, MemoryError):
        raise
    except Exception as error:  # noqa: BLE001 - refused, timed out, not an address ('', 'http://...'), or distributed's own assert
        from referee.errors import RefereeError

        if isinstance(error, RefereeError):
            raise
        reason = str(error) or type(error).__name__
        import gc

        gc.collect()  # a half-made Client closes itself when collected: here, not inside the next Client's start-up
        raise UsageError(f"--dask {escape(address)}: cannot reach the scheduler: {escape(reason)}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        window: deque[tuple[Any, list[LogSource]]] = deque()
        for part in _chunks(sources, chunk, workers * WINDOW):
            window.append((run_chunk(work, part) if _is_local(part) else client.submit(run_chunk, work, part, pure=False), part))
            while len(window) >= workers * WINDOW:
                yield from _take_dask(window.popleft(), work)
        while window:
            yield from _take_dask(window.popleft(), work)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
            import shutil

            while _SCRATCH:
                shutil.rmtree(_SCRATCH.pop(), ignore_errors=True)


def _take_dask(entry: tuple[Any, list[LogSource]], work: Callable[[LogSource], R]) -> list[R]:
    done, part = entry
    if isinstance(done, list):
        return done
    try:
        result = done.result()
    except Exception:  # noqa: BLE001 - the work never raises on a bad log; this is the cluster (a lost worker, a missing module)
        return [lost(work, source) for source in part]
    done.release()
    return list(result)


def results(work: Callable[[LogSource], R], sources: Iterable[LogSource], jobs: int, dask: Cluster | None = None) -> Iterator[R]:
    """The one entry: serial for one job or one log, a process pool for more, or Dask when asked.

    ``sources`` may be a stream (a folder walked as it is read); only its first
    two items are looked at to decide.
    """
    stream = iter(sources)
    head = list(itertools.islice(stream, 2))
    sources = itertools.chain(head, stream)
    if dask is not None:
        return run_on_dask(work, sources, dask)
    if jobs <= 1 or len(head) <= 1:
        return run_serial(work, sources)
    return run_parallel(work, sources, jobs)


def stop_workers() -> None:
    """Ctrl-C: end every worker process at once, ours and a local Dask cluster's (the parent then exits 130)."""
    import multiprocessing

    processes = [process for pool in list(_POOLS) for process in list(getattr(pool, "_processes", {}).values())]
    with contextlib.suppress(Exception):
        processes += multiprocessing.active_children()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
