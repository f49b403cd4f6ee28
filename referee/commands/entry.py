"""The ``referee`` command's entry point: kept tiny so that Ctrl-C during start-up is exit 130 too."""

from __future__ import annotations

import os
import signal

from referee.errors import OUT_OF_MEMORY_LINE


def _leave(signum: int, frame: object) -> None:
    """A signal before the command line has installed its own handlers: leave at once and silently."""
    os._exit(143 if signum == signal.SIGTERM else 130)


def run() -> None:
    """Import the command line and run it; an interrupt at any moment ends silently with 130 (SIGTERM: 143)."""
    signal.signal(signal.SIGINT, _leave)  # first: importing the command line takes a while, and may be interrupted
    signal.signal(signal.SIGTERM, _leave)
    try:
        from referee.commands.cli import run as run_cli

        run_cli()
    except KeyboardInterrupt:
        import contextlib
        import sys

        with contextlib.suppress(BaseException):  # already leaving; nothing more to say
            sys.stdout.flush()
        os._exit(130)
    except MemoryError:  # out of memory outside the command's own handling (importing it, or in that handling itself)
        try:
            os.write(2, OUT_OF_MEMORY_LINE)
        finally:
            os._exit(2)
