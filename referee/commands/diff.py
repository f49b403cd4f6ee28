"""``referee diff``: what one rulebook changes from another, each difference in play shown by a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from referee import errors
from referee.commands.options import format_option, resolve_specs, specs_no_cache_option


@click.command()
@click.argument("spec_files", nargs=-1, metavar="A B", callback=resolve_specs)
@click.option(
    "--spec",
    "spec_options",
    multiple=True,
    metavar="NAME|FILE",
    callback=resolve_specs,
    help="A spec (shipped name or file), the same as naming it as an argument: A first, then B.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    help="Folder for the games, one log each: NN-ITEM.log (created if absent).",
)
@format_option
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 3600),
    default=60,
    show_default=True,
    metavar="SECONDS",
    help="Search for each difference in play at most this long; a difference with no game by then is undecided (exit 3).",
)
@click.option(
    "--solver-timeout",
    type=click.IntRange(100, 600_000),
    default=5000,
    show_default=True,
    metavar="MS",
    help="Z3's time limit per query, in milliseconds, when the rulebook's claims are asked of both specs' models.",
)
@click.option("--no-solver", is_flag=True, help="Do not ask the rulebook's claims of the two Z3 models (games only).")
@specs_no_cache_option
def diff(
    spec_files: tuple[tuple[str, Path], ...],
    spec_options: tuple[tuple[str, Path], ...],
    out_dir: Path | None,
    output_format: str,
    timeout: float,
    solver_timeout: int,
    no_solver: bool,
) -> None:
    """Compare two rulebooks: what B changes from A, and a game for each change.

    A and B are specs, each a shipped name or a spec file (as --spec takes
    them; 'referee diff --spec A --spec B' is the same). First come the declared differences, item by item, each with both
    values and the spec line that sets it: the table, the matching, the
    options, the deck, each kind's effects and points, the disputes (these
    are in play: the engine reads them), then the rules and claims (wording:
    no game tells them apart).

    For each difference in play, diff searches a game that one spec accepts
    and the other rejects, written so that 'referee check --spec A' and
    'referee check --spec B' say so; the game is the shortest it found, and
    the difference alone makes the specs part on it. The report names the
    line where they part and why, in each spec's words. Then the rulebook's
    claims are asked of both specs' Z3 models (as 'referee prove' asks them;
    --no-solver skips it), and each claim the two answer differently is listed
    with the items that change it. With no difference in play the two engines
    decide every line alike: they accept the same games, for every player
    count and every length of game.

    \b
    Exit status: 0 the same games, 1 different games (shown by a game or a
    claim), 2 bad input, 3 undecided: a difference in play that neither a game
    found within --timeout nor a claim shows.

    \b
    Examples:
      referee diff uno uno-seven-zero                 # what seven-O changes
      referee diff uno-flip my-house.yaml --out diff/ # and write the games
      referee diff uno my-copy.yaml --format json
    """
    from referee.diff.compare import compare
    from referee.diff.report import file_name, render_text

    specs = spec_options + spec_files
    if len(specs) != 2:
        raise click.UsageError(f"diff compares two specs, A and B; {len(specs)} given")
    spec_a, spec_b = specs

    if out_dir is not None:
        from referee.log.inputs import prepare_output_folder

        prepare_output_folder(out_dir)
    solver = None if no_solver else _isolated_solver(solver_timeout)
    comparison = compare(spec_a[1], spec_b[1], (spec_a[0], spec_b[0]), timeout, solver=solver)
    files: dict[str, str] = {}
    if out_dir is not None:
        from referee.log.inputs import display_name
        from referee.log.writer import write_output_file

        for number, shown in enumerate(comparison.games, start=1):
            path = out_dir / file_name(number, shown.item)
            write_output_file(path, shown.log)
            files[shown.item] = display_name(str(path))
    if output_format == "json":
        click.echo(json.dumps(comparison.to_json(files), indent=1, ensure_ascii=False))
    else:
        for line in render_text(comparison, files).splitlines():
            click.echo(errors.escape(line))
    raise SystemExit(comparison.status.exit_code)


def _isolated_solver(timeout_ms: int) -> Any:
    """The claims asked of both Z3 models in a forked child, as ``prove`` runs: running out of memory is one error line."""
    from referee.commands.isolate import run_isolated
    from referee.diff.solver import claim_differences

    def asked(rules_a: Any, rules_b: Any, middles: Any) -> Any:
        return run_isolated(claim_differences, rules_a, rules_b, middles, timeout_ms)

    return asked
