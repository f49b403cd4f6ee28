"""The command line: a thin click layer over the library.

Exit codes: 0 clean, 1 findings, 2 usage/input/spec error, 3 inconclusive
proof, 4 internal error (rerun with --debug), 130 interrupted.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from referee import errors
from referee.errors import RefereeError

_DEBUG = False


def _expand(paths: tuple[str, ...]) -> Iterator[tuple[Path, str]]:
    """Each log to check: files as given, directories as every ``*.log`` below them, sorted."""
    for given in paths:
        path = Path(given)
        if given != "-" and path.is_dir():
            for found in sorted(path.rglob("*.log")):
                if found.is_file():
                    yield found, str(found)
        else:
            yield path, given


_spec_file_option = click.option(
    "--spec",
    "spec_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Rule spec to use instead of the log's 'spec' line.",
)
_format_option = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
@click.option("--debug", is_flag=True, help="Show a traceback for an internal error.")
def main(debug: bool) -> None:
    """The UNO Flip referee: check recorded games against the rules as data.

    \b
    Examples:
      referee check game.log              # is every event legal?
      referee check --format json logs/   # every *.log below logs/, as JSON
      referee simulate --players 4 --seed 7 --games 3 --out /tmp/games
      referee rules play.match            # what a rule says, and its source
      referee explain game.log:17         # the state at line 17, and why its move is (not) legal
      referee adjudicate game.log         # rulings on every challenge and UNO catch
      referee prove                       # Z3 proofs of the invariants of every shipped spec
    """
    global _DEBUG
    _DEBUG = debug


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="FILE|DIR|-...")
@_spec_file_option
@_format_option
@click.option("-q", "--quiet", is_flag=True, help="Print only failures (no warnings, no valid lines, no summary).")
def check(logs: tuple[str, ...], spec_path: Path | None, output_format: str, quiet: bool) -> None:
    """Replay game logs and report the first rule violation in each.

    A directory means every *.log file below it; - reads standard input.
    Prints compiler-style lines (path:line: code [rule-id]: message) and a
    summary; --format json prints the report of the log format contract.

    \b
    Exit status: 0 every log valid, 1 a violation, 2 unreadable input or invalid spec.

    \b
    Examples:
      referee check game.log
      referee check --spec specs/house-stacking.yaml game.log
      cat game.log | referee check --format json -
    """
    from referee.replay import check_path
    from referee.report import render_file_text, render_json, summary

    if spec_path is not None:
        _load_spec_or_exit(spec_path)
    verdicts = []
    for path, display in _expand(logs):
        verdict = check_path(path, display, spec_path)
        verdicts.append(verdict)
        if output_format == "text":
            for line in render_file_text(verdict, quiet):
                click.echo(line, err=verdict.input_error is not None)
    if not verdicts:
        click.echo(f"error: no *.log files in {', '.join(logs)}", err=True)
        raise SystemExit(errors.EXIT_INPUT)
    if output_format == "json":
        click.echo(render_json(verdicts))
    elif not quiet:
        click.echo(summary(verdicts))
    if any(verdict.input_error is not None for verdict in verdicts):
        raise SystemExit(errors.EXIT_INPUT)
    raise SystemExit(errors.EXIT_FINDINGS if any(verdict.errors for verdict in verdicts) else errors.EXIT_CLEAN)


def _load_spec_or_exit(spec_path: Path) -> None:
    from referee.compiler import load_rules

    load_rules(spec_path)


@main.command()
@click.option("--spec", "spec_name", default="uno-flip", show_default=True, help="A shipped spec name or a spec file.")
@click.option("--players", type=click.IntRange(2, 10), default=4, show_default=True, help="Players per game (2 to 10).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed; the same seed writes the same games.")
@click.option("--games", type=click.IntRange(1, 100_000), default=1, show_default=True, help="How many games.")
@click.option(
    "--mode",
    type=click.Choice(["full", "observed"]),
    default="full",
    show_default=True,
    help="Full (shuffle lines) or observed (hand/start lines).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for game-NNNN.log files (default: print one game to stdout).",
)
@click.option("--max-rounds", type=click.IntRange(1, 1000), default=200, show_default=True, help="Stop a game after this many rounds.")
def simulate(spec_name: str, players: int, seed: int, games: int, mode: str, out_dir: Path | None, max_rounds: int) -> None:
    """Write random self-play games in the log format.

    The players draw instead of playing now and then, keep playable drawn
    cards, bluff wild draws, challenge rightly and wrongly, forget UNO and
    get caught, and claim scores. Every game passes 'referee check'.

    \b
    Examples:
      referee simulate --players 3 --seed 1            # one game to stdout
      referee simulate --players 6 --mode observed --games 100 --out games/
    """
    from referee.log_writer import write_atomically
    from referee.simulate import simulate_game

    rules = _rules_for_name(spec_name)
    spec_line = None if spec_name == "uno-flip" else spec_name
    for number in range(games):
        text = simulate_game(rules, players, seed + number, mode, spec_line=spec_line, max_rounds=max_rounds)
        if out_dir is None:
            click.echo(text, nl=False)
            if number + 1 < games:
                click.echo("# ---")
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
            write_atomically(out_dir / f"game-{seed + number:06d}.log", text)
    if out_dir is not None:
        click.echo(f"wrote {games} game{'s' if games != 1 else ''} to {out_dir}")


def _log_and_line(target: str, line: int | None) -> tuple[Path, int]:
    if line is None:
        path_text, colon, line_text = target.rpartition(":")
        if not colon or not line_text.isdigit():
            raise click.UsageError("give the line as LOG:LINE or LOG --line N")
        return Path(path_text), int(line_text)
    return Path(target), line


@main.command()
@click.argument("target", metavar="LOG:LINE | LOG")
@click.option("--line", type=click.IntRange(1), help="The line to explain (instead of LOG:LINE).")
@click.option("--move", help='A hypothetical event to judge at that line instead of the recorded one, e.g. "Bob plays red-5".')
@_spec_file_option
@_format_option
def explain(target: str, line: int | None, move: str | None, spec_path: Path | None, output_format: str) -> None:
    """Show the state just before a line, and why its event is or is not legal.

    Prints the round, side, direction, whose turn it is, the top card and the
    colour in play, penalties owed, an open UNO window or challenge, every
    hand's size and the acting player's hand (both faces, each card playable
    or why not); then the ruling on the event with its rule id, summary and
    source, and for an illegal event what was allowed instead.

    \b
    Exit status: 0 the event is legal, 1 it is not (or the log is invalid before it), 2 bad input.

    \b
    Examples:
      referee explain game.log:17
      referee explain game.log --line 17 --move "Bob plays wild red"
      referee explain --format json game.log:17
    """
    from referee.explain import explain as explain_line
    from referee.explain import render_text

    path, number = _log_and_line(target, line)
    if not path.is_file():
        raise click.UsageError(f"{path}: no such file")
    result = explain_line(path, number, move, spec_path)
    if output_format == "json":
        click.echo(json.dumps(result, indent=1, ensure_ascii=False))
    else:
        for text in render_text(result):
            click.echo(errors.escape(text))
    raise SystemExit(errors.EXIT_FINDINGS if result.get("legal") is False or "log_error" in result else errors.EXIT_CLEAN)


@main.command()
@click.argument("rule_id", required=False)
@click.option("--spec", "spec_name", default="uno-flip", show_default=True, help="A shipped spec name or a spec file.")
@_format_option
def rules(rule_id: str | None, spec_name: str, output_format: str) -> None:
    """List the spec's rules, or show one: id, summary, source, options.

    \b
    Examples:
      referee rules                          # every rule of the official spec
      referee rules challenge.innocent       # one rule, with the options that change it
      referee rules --spec house-stacking penalty.no-stacking
    """
    from referee.engine import Engine
    from referee.explain import rule_data

    engine = Engine(_rules_for_name(spec_name))
    spec = engine.rules.spec
    chosen = list(spec.rules)
    if rule_id is not None:
        chosen = [rule for rule in spec.rules if rule.id == rule_id]
        if not chosen:
            import difflib

            close = difflib.get_close_matches(rule_id, [rule.id for rule in spec.rules], n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise click.UsageError(f"spec {spec.name} has no rule '{rule_id}'{hint}")
    data = [{**rule_data(rule, engine), "checks": list(rule.checks)} for rule in chosen]
    if output_format == "json":
        click.echo(json.dumps({"spec": spec.name, "rules": data}, indent=1, ensure_ascii=False))
        return
    for item in data:
        if rule_id is None:
            click.echo(f"{item['id']:<24} {item['summary']}")
            continue
        click.echo(f"{item['id']}: {item['summary']}")
        click.echo(f"  source: {item['source']}" + (f" (ruling {item['ruling']})" if item["ruling"] else ""))
        for name, value in item["options"].items():
            click.echo(f"  option {name}: {value}")
        if item["checks"]:
            click.echo(f"  enforced by the checks: {', '.join(item['checks'])}")


def _rules_for_name(spec_name: str):  # type: ignore[no-untyped-def]
    from referee.replay import rules_for

    path = Path(spec_name)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return rules_for(None, None, path)
    return rules_for(spec_name, None, None)


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@_spec_file_option
@_format_option
def adjudicate(logs: tuple[str, ...], spec_path: Path | None, output_format: str) -> None:
    """Rule on every challenge and UNO catch in a log, and on what is pending where it stops.

    For each challenge: guilty or innocent, with the evidence (the cards of the
    colour in play the challenged player held), the penalty (who draws, how
    many or until which colour, whether they lose the turn) and whether the log
    then applied it correctly. For each catch: valid or invalid and why. Where
    the log stops at an open dispute it says who may challenge or catch and what
    each outcome costs whom, naming the exact cards in full mode.

    \b
    Exit status: 0 every ruling applied correctly, 1 a ruling not applied or the log invalid, 2 bad input.

    \b
    Examples:
      referee adjudicate game.log
      referee adjudicate --format json paused-game.log
    """
    from referee.adjudicate import adjudicate as adjudicate_log
    from referee.adjudicate import render_text

    results = []
    for path, _ in _expand(logs):
        result = adjudicate_log(path, spec_path)
        results.append(result)
        if output_format == "text":
            for text in render_text(result):
                click.echo(errors.escape(text))
    if output_format == "json":
        click.echo(json.dumps({"files": results}, indent=1, ensure_ascii=False))
    bad = any("log_error" in result or any(d["applied"] is False for d in result["disputes"]) for result in results)
    raise SystemExit(errors.EXIT_FINDINGS if bad else errors.EXIT_CLEAN)


@main.command()
@click.option("--spec", "spec_paths", multiple=True, help="A spec (shipped name or file); repeat for several. Default: every shipped spec.")
@click.option("--invariant", "invariant_id", help="Prove only this invariant (see specs/invariants.yml).")
@click.option("--players", type=click.IntRange(2, 10), help="Prove for this player count only (default: 2 to 10).")
@_format_option
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False, path_type=Path), help="Also write a JUnit XML report here (for CI).")
@click.option(
    "--timeout",
    "timeout_ms",
    type=click.IntRange(100, 600_000),
    default=5000,
    show_default=True,
    help="Solver time limit per query, in milliseconds.",
)
def prove(
    spec_paths: tuple[str, ...],
    invariant_id: str | None,
    players: int | None,
    output_format: str,
    junit_path: Path | None,
    timeout_ms: int,
) -> None:
    """Prove the rules' invariants with Z3, and look for gaps in the rules.

    Every invariant of specs/invariants.yml is proved by induction over the
    transition relation compiled from the spec (or asked directly of the
    spec's data), for every player count from 2 to 10. A refuted invariant
    comes with the shortest counterexample found, as a game log that
    'referee check --spec SPEC' replays to the violating state. A timeout or
    an 'unknown' from the solver is reported as unknown, never as proved.

    \b
    Exit status: 0 all proved, 1 something refuted, 2 bad input, 3 inconclusive.

    \b
    Examples:
      referee prove                                   # every shipped spec
      referee prove --spec specs/house-stacking.yaml --invariant cards.conservation
      referee prove --spec my-house-rules.yaml --format json --junit proofs.xml
    """
    from referee.proof.prove import load_invariants, prove_spec
    from referee.proof.report import render_json, render_junit, render_text
    from referee.spec_model import resolve_spec, shipped_spec_names

    invariants = load_invariants()
    if invariant_id is not None and invariant_id not in {i.id for i in invariants.invariants}:
        known = ", ".join(i.id for i in invariants.invariants)
        raise click.UsageError(f"no invariant '{invariant_id}' (known: {known})")
    paths = [resolve_spec(name, None) for name in spec_paths] or [resolve_spec(name, None) for name in shipped_spec_names()]
    counts = (players,) if players else tuple(range(2, 11))
    results = []
    for path in paths:
        result = prove_spec(path, invariants, invariant_id, counts, timeout_ms)
        results.append(result)
        if output_format == "text":
            for line in render_text(result):
                click.echo(line)
    if output_format == "json":
        click.echo(render_json(results))
    if junit_path is not None:
        from referee.log_writer import write_atomically

        write_atomically(junit_path, render_junit(results))
    statuses = {outcome.status for result in results for outcome in result["invariants"]}
    open_gaps = any(not gap["closed"] for result in results for gap in result["gaps"])
    if "refuted" in statuses or open_gaps:
        raise SystemExit(errors.EXIT_FINDINGS)
    raise SystemExit(errors.EXIT_INCONCLUSIVE if "unknown" in statuses else errors.EXIT_CLEAN)


def run() -> None:
    """Entry point with the exit-code policy of robustness.md."""
    try:
        main.main(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(errors.EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.show()
        sys.exit(errors.EXIT_INPUT)
    except RefereeError as error:
        click.echo(error.render(), err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        sys.exit(errors.EXIT_INTERRUPTED)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(errors.EXIT_FINDINGS)
    except SystemExit:
        raise
    except Exception as error:  # noqa: BLE001 - the one place bugs are caught
        if _DEBUG:
            raise
        click.echo(
            f"referee: internal error: {error.__class__.__name__}: {errors.escape(str(error))} (rerun with --debug for the traceback)",
            err=True,
        )
        sys.exit(errors.EXIT_INTERNAL)
