"""``referee view``: a replay page of a log, to step through in a browser."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import click

from referee import errors
from referee.commands.options import compiled_rules, complete_files, spec_option, spec_path_option, timeout_option


@click.command()
@click.argument("log", metavar="LOG|-", shell_complete=complete_files)
@click.option("--out", "out_path", type=click.Path(path_type=Path), help="The page to write (default: the log's name with .html).")
@click.option("--line", type=click.IntRange(1), help="Open the page at this line (the URL fragment #line-N does the same).")
@spec_option(False)
@spec_path_option
@timeout_option
def view(log: str, out_path: Path | None, line: int | None, spec_path: Path | None, spec_roots: tuple[Path, ...], timeout: float) -> None:
    """Write a replay page of a game: one self-contained HTML file to step through.

    The page shows the table after every line of the log (each hand as cards,
    both faces; whose turn it is, the direction, the side, the top card and the
    colour in play, the piles, penalties owed, the UNO window, totals), the
    log beside it as a timeline (click a line, use the arrow keys, Home/End or
    the slider; #line-N in the URL opens that line), the first error with what
    'explain' says, every challenge and catch with its ruling, and the totals
    by round as a chart. It needs no network and opens from a file. Logs of
    more than 20,000 lines are refused (exit 2).

    \b
    Exit status: 0 page written (whatever the verdict), 2 bad input.

    \b
    Examples:
      referee view game.log                      # writes game.html
      referee view game.log --line 412 --out /tmp/why.html
      cat game.log | referee view - --out game.html
    """
    import tempfile

    from referee.checking.timeline import page_data
    from referee.commands.page import render_page
    from referee.log.inputs import LogSource, display_name, one_log, stdin_stream
    from referee.log.writer import write_output_file

    source = one_log(log, spec_roots)
    if out_path is None:
        if source.path is None:
            raise click.UsageError("reading standard input: give the page's name with --out FILE.html")
        out_path = source.path.with_suffix(".html")
    from referee.log.inputs import check_output_path

    check_output_path(out_path)
    if spec_path is not None:
        compiled_rules(spec_path, spec_roots)
    # The page reads the log three times (replay, explain, adjudicate): it reads a private copy, made once and bounded,
    # of a regular file or of standard input (a FIFO or a device named as the log is refused before any read).
    from referee.checking.timeline import MAX_LOG_BYTES
    from referee.safe_io import open_regular, reason

    try:
        stream: Any = stdin_stream() if source.path is None else os.fdopen(open_regular(source.path), "rb")
    except OSError as error:
        raise errors.InputError(f"cannot read: {reason(error)}", errors.Position(source.display)) from None
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "log"
        try:
            with stream if source.path is not None else contextlib.nullcontext(stream), copy.open("wb") as target:
                copied = 0
                while piece := stream.read(1 << 20):
                    copied += len(piece)
                    if copied > MAX_LOG_BYTES:
                        raise errors.InputError(
                            f"the log is larger than {MAX_LOG_BYTES // (1024 * 1024)} MB: too long for one page (check handles any length)",
                            errors.Position(source.display),
                        )
                    target.write(piece)
        except OSError as error:
            raise errors.InputError(f"cannot read: {reason(error)}", errors.Position(source.display)) from None
        base = source.path.parent if source.path is not None else Path.cwd()
        data = page_data(LogSource(source.display, copy, base=base, spec_roots=spec_roots), spec_path, timeout)
    write_output_file(out_path, render_page(data, line))
    click.echo(display_name(str(out_path)))
