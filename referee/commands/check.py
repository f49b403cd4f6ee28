"""``referee check``: replay logs against the rules, one verdict per log."""

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
    input_problem,
    jobs_option,
    spec_option,
    spec_path_option,
    timeout_option,
    write_ci,
)

WITNESS_LIMIT = 64 * 1024 * 1024  # the largest log a witness is written for


def _write_witness(log: Path, out: Path, verdict: Any) -> None:
    """Write the observed-mode witness of a consistent public record: its lines, with each public one replaced."""
    from referee.errors import escape
    from referee.log.writer import write_output_file
    from referee.safe_io import read_bounded

    if verdict.consistency != "consistent" or verdict.errors:
        click.echo(f"{escape(str(out))}: no witness written: the log is not a consistent public record", err=True)
        return
    lines = read_bounded(log, WITNESS_LIMIT).decode("utf-8", "replace").split("\n")
    written: list[str] = []
    for number, text in enumerate(lines, start=1):
        replaced = verdict.witness.get(number)
        written.extend([text] if replaced is None else replaced)
    write_output_file(out, "\n".join(written))


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="FILE|DIR|URL|-...", shell_complete=complete_files)
@spec_option(False)
@spec_path_option
@batch_format_option
@click.option("-q", "--quiet", is_flag=True, help="Print only failures (no warnings, no valid lines, no summary, no progress).")
@jobs_option
@dask_option
@dask_security_option
@timeout_option
@click.option(
    "--witness",
    "witness_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="For one consistent log with public rounds: write an observed-mode log of one deal and draw pile that make it legal.",
)
def check(
    logs: tuple[str, ...],
    spec_path: Path | None,
    spec_roots: tuple[Path, ...],
    output_format: str,
    quiet: bool,
    jobs: int | None,
    dask_address: str | None,
    dask_security: Path | None,
    timeout: float,
    witness_path: Path | None,
) -> None:
    """Replay game logs and report the first rule violation in each.

    A folder means every *.log file below it; - reads standard input; a URL
    (s3://bucket/prefix/, memory://..., file://...) is read with fsspec.
    Prints compiler-style lines (path:line: code [rule-id]: message) and a
    summary; --format json prints the report of the log format contract;
    junit, sarif and github are for CI. A log that cannot be read is
    reported in place and the others are still checked. Logs are checked on
    every core (-j) or a Dask cluster (--dask); the output is the same, in
    the same order. On a terminal a long run shows its progress on standard
    error.

    A round whose log line is 'public' records only what the table sees (draw
    counts, faces played, hands shown at the end): it is judged consistent
    when some deal and draw pile make every line legal, else inconsistent
    at the first line none does, with the lines that contradict it.

    \b
    Exit status: 0 every log valid, 1 a violation, 2 a log unreadable or an
    invalid spec, 3 a public record the solver could not settle (--timeout).

    \b
    Examples:
      referee check game.log
      referee check --witness hands.log public-game.log
      referee check --spec house-stacking game.log
      cat game.log | referee check --format json -
      referee check -j 2 --format sarif logs/ > referee.sarif
      referee check --dask tcp://scheduler:8786 s3://bucket/games/
    """
    import functools

    from referee.checking.replay import check_source
    from referee.checking.report import Tally, render_file_text, stream_json

    if spec_path is not None:
        compiled_rules(spec_path, spec_roots)
    if witness_path is not None:
        if len(logs) != 1 or logs[0] == "-" or not Path(logs[0]).is_file():
            raise click.UsageError("--witness needs exactly one log file")
        from referee.log.inputs import check_output_path

        check_output_path(witness_path)
    progress, verdicts = batch_results(
        logs,
        functools.partial(
            check_source, spec_override=spec_path, timeout=timeout, witness=witness_path is not None, answers=output_format != "text"
        ),
        jobs,
        cluster_for(dask_address, dask_security),
        quiet,
        spec_roots,
    )
    tally = Tally()
    judged: list[Any] = []

    def each() -> Any:
        for verdict in verdicts:
            if witness_path is not None:  # one log only: memory must not grow with the number of logs
                judged.append(verdict)
            tally.add(verdict)
            progress.advance(verdict.lines)
            yield verdict

    if output_format == "text":
        for verdict in each():
            lines = render_file_text(verdict, quiet)
            if lines:
                progress.finish()
            for line in lines:
                click.echo(line, err=verdict.input_error is not None)
    elif output_format == "json":
        for piece in stream_json(verdict.to_json() for verdict in also_on_stderr(each(), input_problem, progress)):
            click.echo(piece, nl=False)
        click.echo("")
    else:
        from referee.checking.ci_report import from_verdict

        write_ci(output_format, (from_verdict(verdict, quiet) for verdict in each()), "check", progress)
    progress.finish()
    if output_format == "text" and not quiet:
        click.echo(tally.text())
    if tally.unreadable:
        raise SystemExit(errors.EXIT_INPUT)
    if witness_path is not None:
        _write_witness(Path(logs[0]), witness_path, judged[0])
    if not tally.invalid and tally.undetermined:
        raise SystemExit(errors.EXIT_INCONCLUSIVE)
    raise SystemExit(errors.EXIT_FINDINGS if tally.invalid else errors.EXIT_CLEAN)
