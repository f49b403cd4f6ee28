"""The options and helpers the commands share: ``--spec`` and ``--no-cache``, ``--spec-path``, the output formats,
``-j`` and ``--dask``, a batch of logs, the CI outputs, and a spec's compiled rules."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from referee import __version__, errors

F = TypeVar("F", bound=Callable[..., Any])


def _resolve_spec(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """``--spec`` everywhere: a shipped spec name or a path to a spec file."""
    if value is None:
        return None
    if value == "":
        raise click.BadParameter("an empty name names no spec", ctx=ctx, param=param)
    from referee.spec.extends import resolve_spec

    return resolve_spec(value, None)


def resolve_specs(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[tuple[str, Path], ...]:
    """A repeatable ``--spec`` (or spec arguments): each name as given, with the file it resolves to."""
    return tuple((name, path) for name in value if (path := _resolve_spec(ctx, param, name)) is not None)


def skip_cache(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        from referee.rules import cache as rules_cache

        rules_cache.enabled = False


def complete_files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a file or folder name (the shell lists them: click's ``file`` completion type)."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


def _complete_spec(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of ``--spec``: the shipped spec names that start with what is typed, and file names."""
    from click.shell_completion import CompletionItem

    from referee.spec.paths import shipped_spec_names

    names = [CompletionItem(name) for name in shipped_spec_names() if name.startswith(incomplete)]
    return [CompletionItem(incomplete, type="file"), *names]  # bash: the names where any match, else file names


def spec_option(default: bool) -> Callable[[F], F]:
    """``--spec`` and, beside it, ``--no-cache`` (every command that reads a spec can bypass the rules cache); with
    ``default``, the option defaults to the default spec (``specs/default-spec``)."""
    help_text = "A shipped spec name (see 'referee rules --help') or a spec file"
    help_text += "; default: the default spec (specs/default-spec, UNO Flip)." if default else "; overrides the log's 'spec' line."

    def default_name() -> str:
        from referee.spec.paths import default_spec_name

        return default_spec_name()

    spec = click.option(
        "--spec",
        "spec_path",
        default=default_name if default else None,
        metavar="NAME|FILE",
        callback=_resolve_spec,
        shell_complete=_complete_spec,
        help=help_text,
    )

    def both(function: F) -> F:
        return spec(no_cache_option("spec")(function))

    return both


def _spec_roots(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    """``--spec-path DIR``: folders, resolved once, that a log's ``spec`` line (and a spec's ``extends``) may name files in."""
    return tuple(Path(os.path.realpath(folder)) for folder in value)


spec_path_option = click.option(
    "--spec-path",
    "spec_roots",
    multiple=True,
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    callback=_spec_roots,
    help="A folder whose spec files a log's 'spec' line may name (repeatable). Without it a log may name only a shipped "
    "spec or a spec file in its own folder tree; see docs/security.md.",
)


def no_cache_option(what: str) -> Callable[[F], F]:
    """``--no-cache``: compile ``what`` ("spec", "specs") afresh, neither reading nor writing the rules cache."""
    return click.option(
        "--no-cache",
        is_flag=True,
        expose_value=False,
        callback=skip_cache,
        help=f"Compile the {what} afresh: neither read nor write the cache of compiled rules (see 'referee cache path').",
    )


specs_no_cache_option = no_cache_option("specs")  # a command that reads several specs (one spec: ``spec_option``)

format_option = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


batch_format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "junit", "sarif", "github"]),
    default="text",
    show_default=True,
    help="Output format: text, the JSON report, or for CI: JUnit XML, SARIF 2.1.0, GitHub annotations.",
)


jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 1024),
    default=None,
    metavar="N",
    help="Check N logs at a time on N processes [default: every core]. The output is the same as with -j 1.",
)


timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0.001),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="The time for one log's public rounds, replaying the ways their hidden cards can go and solving; a record not "
    "settled in time is undetermined (exit 3).",
)


dask_option = click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Run on a Dask cluster: 'local' (one started here, TLS with throw-away credentials) or a scheduler address "
    "such as tls://host:8786; needs referee[dask]. The cluster runs our code: trust it (docs/security.md).",
)


dask_security_option = click.option(
    "--dask-security",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="TLS credentials for --dask ADDRESS: a YAML file with tls-ca-file, tls-client-cert, tls-client-key (docs/security.md).",
)


def cluster_for(address: str | None, security: Path | None) -> Any:
    """Where --dask points, and the credentials to reach it with: None when no --dask was given."""
    if security is not None and address in (None, "local"):
        raise click.UsageError("--dask-security goes with --dask ADDRESS (a local cluster makes its own credentials)")
    if address is None:
        return None
    from referee.checking.batch import Cluster

    return Cluster(address, security)


def batch_results(
    logs: tuple[str, ...], work: Any, jobs: int | None, dask: Any, quiet: bool, spec_roots: tuple[Path, ...]
) -> tuple[Any, Any]:
    """The logs named, and an iterator of ``work`` over them in order (serial, on every core, or on Dask)."""
    from referee.checking import batch
    from referee.commands.progress import Progress, wanted
    from referee.log.inputs import expand_logs

    sources: Any = expand_logs(logs, spec_roots)
    showing = wanted(quiet)
    if showing:  # the time left needs the total: on a terminal the names are listed first
        sources = list(sources)
    progress = Progress(len(sources) if showing else 0, showing)
    return progress, batch.results(work, sources, jobs if jobs is not None else batch.default_jobs(), dask)


def input_problem(item: Any) -> str | None:
    """A verdict's, a ruling result's or a CI record's one-line reason why its log could not be read."""
    return item["input_error"] if isinstance(item, dict) else item.input_error  # type: ignore[no-any-return]


def also_on_stderr(items: Any, problem: Callable[[Any], str | None], progress: Any) -> Any:
    """Pass the items on; for a log that could not be read, also say why on standard error.

    In the formats for programs (JSON, JUnit, SARIF, GitHub) the reason is in
    the output too; standard error says why the exit code is 2.
    """
    for item in items:
        reason = problem(item)
        if reason is not None:
            progress.finish()
            click.echo(errors.escape(reason), err=True)
        yield item


def write_ci(output_format: str, logs: Any, command: str, progress: Any) -> None:
    """JUnit, SARIF or GitHub annotations on standard output; unreadable logs also said on standard error."""
    from referee.checking import ci_report

    def echo(text: str) -> None:
        click.echo(text, nl=False)

    said = also_on_stderr(logs, input_problem, progress)
    if output_format == "junit":
        ci_report.write_junit(said, echo, command)
    elif output_format == "sarif":
        ci_report.write_sarif(said, echo, command, __version__)
    else:
        ci_report.write_github(said, echo)


def compiled_rules(spec_path: Path, roots: tuple[Path, ...] = ()) -> Any:
    """A spec's compiled rules; an invalid spec raises ``SpecError`` (exit 2) before any work is done."""
    from referee.rules.compiler import load_rules

    return load_rules(spec_path, roots)


def default_spec_file() -> Path:
    from referee.spec.extends import default_spec_name, resolve_spec

    return resolve_spec(default_spec_name(), None)


def rule_texts(rules: Any) -> dict[str, tuple[str, str]]:
    """Rule id -> (summary, citation) of a spec, for the rules a SARIF report describes."""
    return {rule.id: (rule.summary, rule.citation.render(rules.spec.sources)) for rule in rules.spec.rules}
