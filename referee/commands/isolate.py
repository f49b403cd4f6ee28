"""Run a heavy native computation (a Z3 proof) in a forked child, so that running out of memory is an error line.

Under an address-space limit (``ulimit -v``) Z3 does not always raise: it may
fail to load its library, abort in C++ or crash outright. In-process any of
these ends the command with a traceback, exit 4, or a signal. In a child, the
parent sees how the child ended and says it once: ``error: out of memory``,
exit 2 (robustness.md: run heavy proofs in a subprocess). The child is a fork
of this process (our own code, our own data): its result comes back pickled
through a pipe, and it dies with its parent (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from referee.errors import EXIT_INPUT, OUT_OF_MEMORY, RefereeError, ReportedError

T = TypeVar("T")


class ChildFailed(RefereeError):
    """The child ran out of memory or died: one ``error:`` line, exit 2."""

    exit_code = EXIT_INPUT


_REPORT_FAILED = 86  # the child's exit status when it could not even send its outcome (out of memory while reporting)


def _memory_limited() -> bool:
    """Whether this process runs under a limit on its memory (``ulimit -v``/``-d``): then a child that ended without
    a word (the interpreter failing at some allocation, in ways that vary) ran out of it."""
    import resource

    limits = (resource.RLIMIT_AS, resource.RLIMIT_DATA)
    return any(resource.getrlimit(limit)[0] not in (resource.RLIM_INFINITY, -1) for limit in limits)


def memory_like(error: BaseException) -> bool:
    """A MemoryError, or the solver failing to load or to allocate (what Z3 says under a memory limit)."""
    if isinstance(error, MemoryError):
        return True
    text = f"{type(error).__name__}: {error}"
    return type(error).__name__ == "Z3Exception" and ("not found" in text or "memory" in text.lower())


def run_isolated(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a forked child; its result, or its exception raised again here.

    Where ``fork`` is missing it runs here. A child that runs out of memory,
    or is killed by a signal other than an interrupt, raises ``ChildFailed``.
    """
    if not hasattr(os, "fork"):  # pragma: no cover - not on Linux or macOS
        return function(*args)
    import sys
    import tempfile

    reader, writer = os.pipe()
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed below; the child's standard error, passed on unless it died
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(reader)
        os.dup2(errors.fileno(), 2)
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: die with the parent
        try:
            try:
                payload = pickle.dumps(("ok", function(*args)))
            except BaseException as error:  # noqa: BLE001 - every way out is reported to the parent
                if memory_like(error):
                    payload = pickle.dumps(("memory", None))
                elif isinstance(error, RefereeError):  # ours: sent as rendered, with its exit code
                    payload = pickle.dumps(("referee", (error.render(), error.exit_code)))
                else:
                    try:
                        payload = pickle.dumps(("raised", error))
                    except Exception:  # noqa: BLE001 - an exception that does not pickle
                        payload = pickle.dumps(("raised", RuntimeError(f"{type(error).__name__}: {error}")))
            with os.fdopen(writer, "wb") as stream:
                stream.write(payload)
        except BaseException:  # noqa: BLE001 - the report itself failed: under a memory limit, the one way it does
            os._exit(_REPORT_FAILED)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as stream:
        data = stream.read()
    _, status = os.waitpid(pid, 0)
    kind: str
    value: Any
    kind, value = pickle.loads(data) if data else ("died", None)
    with errors:
        if kind not in ("died", "memory"):
            _pass_on(errors)
    if kind == "died":
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT:
            raise KeyboardInterrupt
        starved = os.WIFSIGNALED(status) or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == _REPORT_FAILED) or _memory_limited()
        raise ChildFailed(OUT_OF_MEMORY if starved else f"the proof's process ended early (status {status})")
    if kind == "memory":
        raise ChildFailed(OUT_OF_MEMORY)
    if kind == "referee":
        text, code = value
        reported = ReportedError(text)
        reported.exit_code = code
        raise reported
    if kind == "raised":
        raise value
    result: T = value
    return result


def _pass_on(errors: Any) -> None:
    """What the child wrote on standard error, written on ours (at most 1 MiB)."""
    import sys

    errors.seek(0)
    said = errors.read(1 << 20)
    if said:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
            sys.stderr.buffer.write(said)
            sys.stderr.flush()
