"""Many logs -> results, in the order given: on one core, on every core (``-j``), or on a Dask cluster.

The work on one log is a plain function of its ``LogSource`` (``check_source``,
``adjudicate``), so each of the three ways runs the same code and yields the
same results in the same order; only the place it runs differs. Memory stays
bounded: at most a small window of chunks is in flight, and results are handed
on as soon as every earlier one is.

Standard input cannot be sent to another process; it is read here, in order.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from referee.inputs import LogSource

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


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (and exits 130)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_parallel(work: Callable[[LogSource], R], sources: Iterable[LogSource], jobs: int, chunk: int = CHUNK) -> Iterator[R]:
    """``work`` over every source on ``jobs`` worker processes; results in the order of ``sources``."""
    from concurrent.futures import Future, ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupt)
    _POOLS.append(pool)
    window: deque[Future[list[R]] | list[R]] = deque()
    try:
        for part in _chunks(sources, chunk, jobs * WINDOW):
            window.append(run_chunk(work, part) if _is_local(part) else pool.submit(run_chunk, work, part))
            while len(window) >= jobs * WINDOW:
                yield from _take(window.popleft())
        while window:
            yield from _take(window.popleft())
    finally:
        for pending in window:
            if isinstance(pending, Future):
                pending.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        _POOLS.remove(pool)


def _take(done: Future[list[R]] | list[R]) -> list[R]:
    if isinstance(done, list):
        return done
    from concurrent.futures.process import BrokenProcessPool

    from referee.errors import WorkerError

    try:
        return done.result()
    except BrokenProcessPool:
        raise WorkerError("a worker process died (out of memory, or killed); rerun, or with fewer --jobs") from None


def run_on_dask(work: Callable[[LogSource], R], sources: Iterable[LogSource], address: str, chunk: int = CHUNK) -> Iterator[R]:
    """``work`` over every source on a Dask cluster (``local`` starts one here); results in order."""
    from referee.errors import UsageError, escape

    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--dask needs Dask: pip install 'referee[dask]'") from None
    cluster: Any = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(n_workers=default_jobs(), threads_per_worker=1, processes=True, dashboard_address=None)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout="10s")
    except Exception as error:  # noqa: BLE001 - refused, timed out, not an address ('', 'http://...'), or distributed's own assert
        reason = str(error) or type(error).__name__
        raise UsageError(f"--dask {escape(address)}: cannot reach the scheduler: {escape(reason)}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        window: deque[Any] = deque()
        for part in _chunks(sources, chunk, workers * WINDOW):
            window.append(run_chunk(work, part) if _is_local(part) else client.submit(run_chunk, work, part, pure=False))
            while len(window) >= workers * WINDOW:
                yield from _take_dask(window.popleft())
        while window:
            yield from _take_dask(window.popleft())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _take_dask(done: Any) -> list[Any]:
    if isinstance(done, list):
        return done
    from referee.errors import WorkerError, escape

    try:
        result = done.result()
    except Exception as error:  # noqa: BLE001 - the work never raises on a bad log; this is the cluster (a lost worker, a missing module)
        raise WorkerError(f"--dask: the cluster failed: {error.__class__.__name__}: {escape(str(error))}") from None
    done.release()
    return list(result)


def results(work: Callable[[LogSource], R], sources: Iterable[LogSource], jobs: int, dask: str | None = None) -> Iterator[R]:
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
