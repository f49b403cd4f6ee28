"""``referee prove``: Z3 proofs of a spec's claims and invariants, and what a house spec must declare."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import click

from referee import errors
from referee.commands.options import compiled_rules, format_option, specs_no_cache_option


def _declare(paths: list[Path], loaded: list[Any], players: int | None, timeout_ms: int) -> NoReturn:
    """``prove --declare``: the claims each spec must restate, as YAML; exit 1 when any spec has some."""
    from referee.commands.isolate import run_isolated
    from referee.proof.declare import declare_text

    needed = False
    for path, compiled in zip(paths, loaded, strict=True):
        spec = compiled.spec
        counts = (players,) if players else tuple(range(spec.min_players, spec.max_players + 1))
        text, count = run_isolated(declare_text, path, counts, timeout_ms)
        needed = needed or count > 0
        for line in text.splitlines():
            click.echo(errors.escape(line))
    raise SystemExit(1 if needed else 0)


@click.command()
@click.argument("spec_files", nargs=-1, metavar="[SPEC]...")
@click.option(
    "--spec",
    "spec_paths",
    multiple=True,
    metavar="NAME|FILE",
    help="A spec (shipped name or file); repeat for several, or name them as arguments. Default: every shipped spec.",
)
@specs_no_cache_option
@click.option(
    "--invariant",
    "--claim",
    "invariant_id",
    metavar="ID",
    help="Prove only this invariant or claim (ids: 'referee rules --claims', and specs/invariants.yml).",
)
@click.option("--players", type=click.IntRange(1, 1000), help="Prove for this player count only (default: the spec's whole range).")
@click.option(
    "--declare",
    is_flag=True,
    help="Print, as YAML to paste into the spec's claims: list, every claim of the rulebook the spec makes untrue, "
    "restated with the spec's own figures and proved so (exit 0: nothing to declare, 1: something).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    help="Folder for each counterexample, the whole log: SPEC-NAME.ID.log (created if absent). Without it the text "
    "report shows the end of each one.",
)
@format_option
@click.option(
    "--junit",
    "junit_path",
    type=click.Path(path_type=Path),
    help="Also write a JUnit XML report here (for CI): a new file or a regular file.",
)
@click.option(
    "--timeout",
    "timeout_ms",
    type=click.IntRange(100, 600_000),
    default=5000,
    show_default=True,
    help="Solver time limit per query, in milliseconds.",
)
def prove(
    spec_files: tuple[str, ...],
    spec_paths: tuple[str, ...],
    invariant_id: str | None,
    players: int | None,
    declare: bool,
    out_dir: Path | None,
    output_format: str,
    junit_path: Path | None,
    timeout_ms: int,
) -> None:
    """Prove what the rulebook says (claims) and the rules' invariants with Z3; look for gaps.

    Every claim of the game (specs/claims/GAME.yml, and those a house spec
    restates) states the rulebook's own figure and is asked of the transition
    relation and deal compiled from the spec, or enumerated case by case; every
    invariant of specs/invariants.yml is proved by induction; all for every
    player count of the spec's range. Anything refuted comes with the shortest
    counterexample found, as a game log that 'referee check --spec SPEC'
    replays to the violating step: the text report shows its end, --out DIR
    writes it whole, and --format json and --junit carry it whole. A timeout or an 'unknown' from the solver
    is reported as unknown, never as proved.

    \b
    Specs are named as arguments or with --spec (the same: a shipped name or
    a file), so that a pre-commit hook can pass the spec files changed.

    \b
    Exit status: 0 all proved, 1 something refuted, 2 bad input, 3 inconclusive.

    \b
    Examples:
      referee prove                                   # every shipped spec
      referee prove rules/house.yaml rules/party.yaml # these spec files
      referee prove --spec house-stacking --invariant cards.conservation
      referee prove --spec my-house-rules.yaml --format json --junit proofs.xml
      referee prove --spec my-house-rules.yaml --declare   # the claims to restate
      referee prove --spec my-house-rules.yaml --out refuted/ # whole counterexamples
    """
    from referee.commands.isolate import run_isolated
    from referee.log.inputs import check_output_path
    from referee.proof.answers import Status
    from referee.proof.invariants import load_invariants
    from referee.proof.prove import prove_spec
    from referee.proof.report import render_json, render_junit, render_text
    from referee.spec.extends import resolve_spec, shipped_spec_names

    if junit_path is not None:
        check_output_path(junit_path)
    if out_dir is not None:
        from referee.log.inputs import prepare_output_folder

        prepare_output_folder(out_dir)
    invariants = load_invariants()
    names = (*spec_paths, *spec_files) or tuple(shipped_spec_names())
    paths = []
    for name in names:
        if name == "":
            raise click.UsageError("an empty name names no spec")
        paths.append(resolve_spec(name, None))
    loaded = [compiled_rules(path) for path in paths]
    _check_prove_request(loaded, players, invariant_id, [i.id for i in invariants.invariants])
    if declare:
        _declare(paths, loaded, players, timeout_ms)
    results = []
    for name, path, compiled in zip(names, paths, loaded, strict=True):
        spec = compiled.spec
        counts = (players,) if players else tuple(range(spec.min_players, spec.max_players + 1))
        result = run_isolated(prove_spec, path, invariants, invariant_id, counts, timeout_ms)  # out of memory: one line
        result.spec = errors.escape(name)  # as the user wrote it (a shipped name, or the path given)
        results.append(result)
        written = _write_counterexamples(result, out_dir) if out_dir is not None else None
        if output_format == "text":
            for line in render_text(result, written):
                click.echo(errors.escape(line))
    if output_format == "json":
        click.echo(render_json(results))
    if junit_path is not None:
        from referee.log.writer import write_output_file

        write_output_file(junit_path, render_junit(results))
    statuses = {outcome.status for result in results for outcome in result.results}
    open_gaps = any(not gap.closed for result in results for gap in result.gaps)
    if Status.REFUTED in statuses or open_gaps:
        raise SystemExit(errors.EXIT_FINDINGS)
    raise SystemExit(errors.EXIT_INCONCLUSIVE if Status.UNKNOWN in statuses else errors.EXIT_CLEAN)


def _write_counterexamples(result: Any, out_dir: Path) -> dict[str, Path]:
    """``--out DIR``: each counterexample of one spec's proof as a log file; the paths by claim or invariant id."""
    from referee.log.writer import write_output_file
    from referee.proof.report import counterexample_name

    written = {}
    for outcome in result.results:
        if outcome.counterexample:
            path = out_dir / counterexample_name(result, outcome)
            write_output_file(path, outcome.counterexample)
            written[outcome.id] = path
    return written


def _check_prove_request(loaded: list[Any], players: int | None, invariant_id: str | None, known: list[str]) -> None:
    """A player count that every spec asked about allows, and an invariant or claim id that exists."""
    for compiled in loaded:
        spec = compiled.spec
        if players is not None and not spec.min_players <= players <= spec.max_players:
            raise click.UsageError(f"spec {spec.name} is for {spec.min_players} to {spec.max_players} players, not {players}")
    if invariant_id is not None:
        from referee.proof.claims import game_claims

        claim_ids = {claim.id for compiled in loaded for claim in game_claims(compiled)}
        if invariant_id not in known and invariant_id not in claim_ids:
            hint = errors.escape(errors.did_you_mean(invariant_id, [*known, *claim_ids]))
            raise click.UsageError(
                f"no invariant or claim '{errors.escape(invariant_id)}'{hint} (invariants: {', '.join(known)}; "
                "claims: 'referee rules --claims --spec SPEC')"
            )
