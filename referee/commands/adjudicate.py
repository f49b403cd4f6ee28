"""``referee adjudicate``: the rulings on every challenge and UNO catch of a log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from referee import errors
from referee.commands.options import (
    also_on_stderr,
    batch_format_option,
    batch_results,
    cluster_for,
    compiled_rules,
    complete_files,
    dask_option,
    dask_security_option,
    default_spec_file,
    input_problem,
    jobs_option,
    rule_texts,
    spec_option,
    spec_path_option,
    write_ci,
)


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="FILE|DIR|URL|-...", shell_complete=complete_files)
@spec_option(False)
@spec_path_option
@batch_format_option
@jobs_option
@dask_option
@dask_security_option
def adjudicate(
    logs: tuple[str, ...],
    spec_path: Path | None,
    spec_roots: tuple[Path, ...],
    output_format: str,
    jobs: int | None,
    dask_address: str | None,
    dask_security: Path | None,
) -> None:
    """Rule on every challenge and UNO catch in a log, and on what is pending where it stops.

    For each challenge: guilty or innocent, with the evidence (the cards of the
    colour in play the challenged player held), the penalty (who draws, how
    many or until which colour, whether they lose the turn) and whether the log
    then applied it correctly. For each catch: valid or invalid and why. Where
    the log stops at an open dispute it says who may challenge or catch and what
    each outcome costs whom, naming the exact cards in full mode. A folder
    means every *.log below it; a log that cannot be read is reported in place
    and the others are still ruled on. -j and --dask work as for check; in the
    CI formats a ruling the log did not apply, or the log's own error, is a
    failure.

    \b
    Exit status: 0 every ruling applied correctly, 1 a ruling not applied or a log invalid,
    2 a log unreadable or an invalid spec.

    \b
    Examples:
      referee adjudicate game.log
      referee adjudicate --format json paused-game.log
      referee adjudicate -j 2 --format github logs/
    """
    import functools

    from referee.checking.adjudicate import adjudicate as adjudicate_log
    from referee.checking.adjudicate import render_text
    from referee.checking.report import stream_json

    rules = compiled_rules(spec_path, spec_roots) if spec_path is not None else None
    progress, results = batch_results(
        logs, functools.partial(adjudicate_log, spec_override=spec_path), jobs, cluster_for(dask_address, dask_security), False, spec_roots
    )
    unreadable = bad = False

    def each() -> Any:
        nonlocal unreadable, bad
        for result in results:
            unreadable = unreadable or result.input_error is not None
            bad = bad or result.findings
            progress.advance(0)
            yield result

    if output_format == "text":
        for result in each():
            progress.finish()
            for text in render_text(result):
                click.echo(errors.escape(text), err=result.input_error is not None)
    elif output_format == "json":
        for piece in stream_json(result.to_json() for result in also_on_stderr(each(), input_problem, progress)):
            click.echo(piece, nl=False)
        click.echo("")
    else:
        from referee.checking.adjudicate import ci_findings

        texts = rule_texts(rules if rules is not None else compiled_rules(default_spec_file()))
        write_ci(output_format, (ci_findings(result, texts) for result in each()), "adjudicate", progress)
    progress.finish()
    if unreadable:
        raise SystemExit(errors.EXIT_INPUT)
    raise SystemExit(errors.EXIT_FINDINGS if bad else errors.EXIT_CLEAN)
