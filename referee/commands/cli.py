"""The command line: the ``referee`` group, and the exit-code policy every command runs under. Each command lives in a
module of its own (``referee.commands.check``, ``.prove``, ...), imported when it is run or its help is shown, so
that ``referee check`` loads neither the other commands nor what they import (the prover, the host, the page).

Every command reads its inputs the same way (``referee.log.inputs``): a log is a
file, a folder or ``-``; ``--spec`` is a shipped name or a path. Exit codes:
0 clean, 1 findings, 2 usage/input/spec error, 3 inconclusive proof,
4 internal error (rerun with --debug), 130 interrupted, 141 closed output.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys

import click

from referee import __version__, errors
from referee.errors import RefereeError

_DEBUG = False
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})  # only writing fails so: our output could not be written

# The commands: each is the function of its name in the module of its name (``referee.commands.check.check``), imported
# when the command is run or listed.
COMMANDS = ("adjudicate", "cache", "check", "diff", "explain", "play", "prove", "rules", "schema", "simulate", "view")


class _Commands(click.Group):
    """The group of commands, each imported from its own module when it is asked for (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command's error names the close ones ("did you mean"), as click does for the commands it holds."""
        name = args[0]
        unknown = getattr(click.exceptions, "NoSuchCommand", None)  # click 8.2 and later
        if unknown is not None and name not in COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            raise unknown(name, possibilities=COMMANDS, ctx=ctx)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        command: click.Command = getattr(importlib.import_module(f"referee.commands.{cmd_name}"), cmd_name)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="referee")
@click.option("--debug", is_flag=True, help="Show a traceback for an internal error.")
def main(debug: bool) -> None:
    """The UNO Flip referee: check recorded games against the rules as data.

    Every command that reads logs takes files, folders (every *.log below
    them) or - for standard input; --spec takes a shipped spec name or a file.
    The log format, the JSON outputs and the spec language are documented in
    the docs/ folder of the project.

    \b
    Examples:
      referee check game.log              # is every event legal?
      referee check --format json logs/   # every *.log below logs/, as JSON
      referee simulate --players 4 --seed 7 --games 3 --out /tmp/games
      referee rules play.match            # what a rule says, and its source
      referee explain game.log:17         # the state at line 17, and why its move is (not) legal
      referee adjudicate game.log         # rulings on every challenge and UNO catch
      referee view game.log               # a replay page to step through: game.html
      referee prove                       # Z3 proofs of the claims and invariants of every shipped spec
    """
    global _DEBUG
    _DEBUG = debug


def _usage_error(error: click.ClickException) -> None:
    """Click's errors in the one ``error:`` form of every other input error (with a hint to --help)."""
    message = errors.escape(error.format_message())
    context = getattr(error, "ctx", None)
    click.echo(f"error: {message}", err=True)
    if context is not None:
        click.echo(f"see '{context.command_path} --help'", err=True)


def _quiet_exit(code: int) -> None:
    """Exit at once, without Python complaining about a closed standard output at shutdown (workers of -j and the bots
    of a match stopped first)."""
    for module, name in (("referee.checking.batch", "stop_workers"), ("referee.play.host", "stop_bots")):
        stop = getattr(sys.modules.get(module), name, None)  # absent while the module is still importing
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(code)


def _finish(code: int) -> None:
    """Flush the outputs and leave without interpreter shutdown (no late Ctrl-C, no ``__del__`` noise)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_exit(errors.EXIT_CLOSED_OUTPUT)
    except OSError as error:
        code = _output_failed(error)
        _quiet_exit(code)
    except (ValueError, AttributeError):
        pass
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    os._exit(code)


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C: exit 130 at once and silently, whatever was running (a check, a proof, writing output); SIGTERM: 143.

    Worker processes of ``-j`` are stopped first (in ``_quiet_exit``): they hold our output open.
    """
    import signal

    _quiet_exit(errors.EXIT_TERMINATED if signum == signal.SIGTERM else errors.EXIT_INTERRUPTED)


def _out_of_memory() -> int:
    with contextlib.suppress(Exception):
        sys.stderr.flush()
        os.write(2, errors.OUT_OF_MEMORY_LINE)
    return errors.EXIT_INPUT


def _output_failed(error: OSError) -> int:
    """Standard output cannot be written (a full disk, a closed descriptor): one line, exit 2."""
    with contextlib.suppress(Exception):
        sys.stderr.write(f"error: cannot write standard output: {errors.escape(error.strerror or str(error))}\n")
        sys.stderr.flush()
    return errors.EXIT_INPUT


def execute(arguments: list[str]) -> int:
    """Run one command line and return its exit code (errors printed, never raised): the CLI as a function."""
    try:
        main.main(args=arguments, prog_name="referee", standalone_mode=False)
        return errors.EXIT_CLEAN
    except click.exceptions.Abort:
        return errors.EXIT_INTERRUPTED
    except click.exceptions.NoArgsIsHelpError as error:  # ``referee`` alone (or a group alone): the usage, as text
        context = error.ctx
        click.echo(context.get_help() if context is not None else error.format_message(), err=True)
        return errors.EXIT_INPUT
    except click.ClickException as error:
        _usage_error(error)
        return errors.EXIT_INPUT
    except RefereeError as error:
        click.echo(error.render(), err=True)
        return error.exit_code
    except KeyboardInterrupt:
        return errors.EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (``| head``): end quietly, as a program killed by SIGPIPE would.
        return errors.EXIT_CLOSED_OUTPUT
    except MemoryError:
        return _out_of_memory()
    except OSError as error:
        if getattr(error, "filename", None) is None and error.errno in _OUTPUT_ERRNOS:
            return _output_failed(error)
        raise
    except SystemExit as stop:
        if type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):  # click met EPIPE on standard output and exits 1: we say 141
            return errors.EXIT_CLOSED_OUTPUT
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else errors.EXIT_INPUT)
    except Exception as error:  # noqa: BLE001 - the one place bugs are caught
        from referee.commands.isolate import memory_like

        if memory_like(error):  # the solver's library could not even be loaded under a memory limit
            return _out_of_memory()
        if _DEBUG:
            raise
        click.echo(
            f"referee: internal error: {error.__class__.__name__}: {errors.escape(str(error))} (rerun with --debug for the traceback)",
            err=True,
        )
        return errors.EXIT_INTERNAL


def run() -> None:
    """Entry point with the exit-code policy of robustness.md; never returns."""
    import signal

    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    code = execute(sys.argv[1:])
    if code in (errors.EXIT_INTERRUPTED, errors.EXIT_CLOSED_OUTPUT):
        _quiet_exit(code)
    _finish(code)
