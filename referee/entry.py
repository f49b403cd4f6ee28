"""The ``referee`` command's entry point: kept tiny so that Ctrl-C during start-up is exit 130 too."""

from __future__ import annotations

import contextlib
import os
import sys


def run() -> None:
    """Import the command line and run it; an interrupt at any moment ends silently with 130."""
    try:
        from referee.cli import run as run_cli

        run_cli()
    except KeyboardInterrupt:
        with contextlib.suppress(BaseException):  # already leaving; nothing more to say
            sys.stdout.flush()
        os._exit(130)
