"""``referee explain``: the state at a line of a log, and why its event is legal or not."""

from __future__ import annotations

from pathlib import Path

import click

from referee import errors
from referee.commands.options import compiled_rules, complete_files, format_option, spec_option, spec_path_option, timeout_option


@click.command()
@click.argument("target", metavar="LOG:LINE | LOG", shell_complete=complete_files)
@click.option("--line", type=click.IntRange(1), help="The line to explain (instead of LOG:LINE).")
@click.option("--move", help='A hypothetical event to judge at that line instead of the recorded one, e.g. "Bob plays red-5".')
@spec_option(False)
@spec_path_option
@format_option
@timeout_option
def explain(
    target: str,
    line: int | None,
    move: str | None,
    spec_path: Path | None,
    spec_roots: tuple[Path, ...],
    output_format: str,
    timeout: float,
) -> None:
    """Show the state just before a line, and why its event is or is not legal.

    Prints the round, side, direction, whose turn it is, the top card and the
    colour in play, penalties owed, an open UNO window or challenge, every
    hand's size and the acting player's hand (both faces, each card playable
    or why not); then the ruling on the event with its rule id, summary and
    source, and for an illegal event what was allowed instead. LOG may be -
    (standard input): give the line with --line (or write -- -:LINE).

    \b
    Exit status: 0 the event is legal, 1 it is not (or the log is invalid before it),
    2 bad input (also a line past the end of the log).

    \b
    Examples:
      referee explain game.log:17
      referee explain game.log --line 17 --move "Bob plays wild red"
      referee explain --format json game.log:17
    """
    from referee.checking.explain import explain as explain_line
    from referee.checking.explain import render_text
    from referee.log.inputs import log_and_line, one_log

    log_argument, number = log_and_line(target, line)
    source = one_log(log_argument, spec_roots)
    if spec_path is not None:
        compiled_rules(spec_path, spec_roots)
    result = explain_line(source, number, move, spec_path, timeout)
    if output_format == "json":
        import json

        click.echo(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
    else:
        for text in render_text(result):
            click.echo(errors.escape(text))
    raise SystemExit(errors.EXIT_FINDINGS if result.legal is False or result.log_error is not None else errors.EXIT_CLEAN)
