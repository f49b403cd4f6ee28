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


def _report_expected(verdicts: Any, output_format: str, quiet: bool, progress: Any) -> int:
    """``--expect``: each log against the verdict its comments give, as text lines and a summary or one JSON report
    (``files``); how many logs are not as expected."""
    from referee.checking.expectations import Expected
    from referee.checking.report import stream_json
    from referee.verdicts import Expectations

    counts = {"logs": 0, "unexpected": 0}

    def judged() -> Any:
        for verdict in verdicts:
            result = Expected.of(verdict, verdict.expected or Expectations())
            counts["logs"] += 1
            counts["unexpected"] += not result.as_expected
            yield result

    if output_format == "json":
        for piece in stream_json(result.to_json() for result in judged()):
            click.echo(piece, nl=False)
        click.echo("")
        return counts["unexpected"]
    for result in judged():
        if not quiet or not result.as_expected:
            progress.finish()
            click.echo(result.text())
    progress.finish()
    if not quiet:
        logs, unexpected = counts["logs"], counts["unexpected"]
        plural = "s" if logs != 1 else ""
        click.echo(f"{logs} log{plural} checked against their expectations: {logs - unexpected} as expected, {unexpected} not")
    return counts["unexpected"]


def _check_options(logs: tuple[str, ...], output_format: str, witness_path: Path | None, expect: bool) -> None:
    """The options that go together only so: a usage error otherwise."""
    if expect and (witness_path is not None or output_format not in ("text", "json")):
        raise click.UsageError("--expect reports as text or json, and writes no witness")
    if witness_path is not None:
        if len(logs) != 1 or logs[0] == "-" or not Path(logs[0]).is_file():
            raise click.UsageError("--witness needs exactly one log file")
        from referee.log.inputs import check_output_path

        check_output_path(witness_path)


def _report_verdicts(verdicts: Any, output_format: str, quiet: bool, progress: Any) -> None:
    """Each verdict as compiler-style text lines, one JSON report or a CI format, as it comes."""
    from referee.checking.report import render_file_text, stream_json

    if output_format == "text":
        for verdict in verdicts:
            lines = render_file_text(verdict, quiet)
            if lines:
                progress.finish()
            for line in lines:
                click.echo(line, err=verdict.input_error is not None)
    elif output_format == "json":
        for piece in stream_json(verdict.to_json() for verdict in also_on_stderr(verdicts, input_problem, progress)):
            click.echo(piece, nl=False)
        click.echo("")
    else:
        from referee.checking.ci_report import from_verdict

        write_ci(output_format, (from_verdict(verdict, quiet) for verdict in verdicts), "check", progress)


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
@click.option(
    "--expect",
    is_flag=True,
    help="Golden mode: compare each log's verdict with the one its '# expect:' comments give, and report the logs that differ.",
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
    expect: bool,
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

    With --expect each log is a test: a line the referee must reject ends
    with '# expect: CODE', a line that must draw a warning with
    '# expect: warning CODE', and a log with neither must be valid with no
    warning. Each log is reported as expected or not (text or json), and the
    exit status is 0 only when every one is (docs/commands.md).

    \b
    Exit status: 0 every log valid, 1 a violation, 2 a log unreadable or an
    invalid spec, 3 a public record the solver could not settle (--timeout).
    With --expect: 0 every log as expected, 1 one is not, 2 a log unreadable
    or bad options.

    \b
    Examples:
      referee check game.log
      referee check --witness hands.log public-game.log
      referee check --spec house-stacking game.log
      cat game.log | referee check --format json -
      referee check -j 2 --format sarif logs/ > referee.sarif
      referee check --dask tcp://scheduler:8786 s3://bucket/games/
      referee check --expect tests/logs/
    """
    import functools

    from referee.checking.replay import check_source
    from referee.checking.report import Tally

    if spec_path is not None:
        compiled_rules(spec_path, spec_roots)
    _check_options(logs, output_format, witness_path, expect)
    progress, verdicts = batch_results(
        logs,
        functools.partial(
            check_source,
            spec_override=spec_path,
            timeout=timeout,
            witness=witness_path is not None,
            answers=output_format != "text",
            expect=expect,
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

    if expect:
        unexpected = _report_expected(each(), output_format, quiet, progress)
        if tally.unreadable:
            raise SystemExit(errors.EXIT_INPUT)
        raise SystemExit(errors.EXIT_FINDINGS if unexpected else errors.EXIT_CLEAN)
    _report_verdicts(each(), output_format, quiet, progress)
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
