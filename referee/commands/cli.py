"""The command line: each command's options, help, output and exit status, wired to the library that does the work
(the replay, the prover, the host, the page). Heavy modules are imported inside the command that needs them, so that
``referee check`` starts without the prover or the host.

Every command reads its inputs the same way (``referee.log.inputs``): a log is a
file, a folder or ``-``; ``--spec`` is a shipped name or a path. Exit codes:
0 clean, 1 findings, 2 usage/input/spec error, 3 inconclusive proof,
4 internal error (rerun with --debug), 130 interrupted, 141 closed output.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from referee import __version__, errors
from referee.errors import RefereeError

_DEBUG = False
F = TypeVar("F", bound=Callable[..., Any])
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})  # only writing fails so: our output could not be written


def _resolve_spec(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """``--spec`` everywhere: a shipped spec name or a path to a spec file."""
    if value is None:
        return None
    if value == "":
        raise click.BadParameter("an empty name names no spec", ctx=ctx, param=param)
    from referee.spec.extends import resolve_spec

    return resolve_spec(value, None)


def _no_cache(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        from referee.rules import cache as rules_cache

        rules_cache.enabled = False


def _complete_files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a file or folder name (the shell lists them: click's ``file`` completion type)."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


def _complete_spec(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of ``--spec``: the shipped spec names that start with what is typed, and file names."""
    from click.shell_completion import CompletionItem

    from referee.spec.paths import shipped_spec_names

    names = [CompletionItem(name) for name in shipped_spec_names() if name.startswith(incomplete)]
    return [CompletionItem(incomplete, type="file"), *names]  # bash: the names where any match, else file names


def _spec_option(default: bool) -> Callable[[F], F]:
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
    no_cache = click.option(
        "--no-cache",
        is_flag=True,
        expose_value=False,
        callback=_no_cache,
        help="Compile the spec afresh: neither read nor write the cache of compiled rules (see 'referee cache path').",
    )

    def both(function: F) -> F:
        return spec(no_cache(function))

    return both


def _spec_roots(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    """``--spec-path DIR``: folders, resolved once, that a log's ``spec`` line (and a spec's ``extends``) may name files in."""
    return tuple(Path(os.path.realpath(folder)) for folder in value)


_spec_path_option = click.option(
    "--spec-path",
    "spec_roots",
    multiple=True,
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    callback=_spec_roots,
    help="A folder whose spec files a log's 'spec' line may name (repeatable). Without it a log may name only a shipped "
    "spec or a spec file in its own folder tree; see docs/security.md.",
)

_format_option = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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


_batch_format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "junit", "sarif", "github"]),
    default="text",
    show_default=True,
    help="Output format: text, the JSON report, or for CI: JUnit XML, SARIF 2.1.0, GitHub annotations.",
)
_jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 1024),
    default=None,
    metavar="N",
    help="Check N logs at a time on N processes [default: every core]. The output is the same as with -j 1.",
)
_timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0.001),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="The time for one log's public rounds, replaying the ways their hidden cards can go and solving; a record not "
    "settled in time is undetermined (exit 3).",
)
_dask_option = click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Run on a Dask cluster: 'local' (one started here, TLS with throw-away credentials) or a scheduler address "
    "such as tls://host:8786; needs referee[dask]. The cluster runs our code: trust it (docs/security.md).",
)
_dask_security_option = click.option(
    "--dask-security",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="TLS credentials for --dask ADDRESS: a YAML file with tls-ca-file, tls-client-cert, tls-client-key (docs/security.md).",
)


def _cluster(address: str | None, security: Path | None) -> Any:
    """Where --dask points, and the credentials to reach it with: None when no --dask was given."""
    if security is not None and address in (None, "local"):
        raise click.UsageError("--dask-security goes with --dask ADDRESS (a local cluster makes its own credentials)")
    if address is None:
        return None
    from referee.checking.batch import Cluster

    return Cluster(address, security)


def _batch(logs: tuple[str, ...], work: Any, jobs: int | None, dask: Any, quiet: bool, spec_roots: tuple[Path, ...]) -> tuple[Any, Any]:
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


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="FILE|DIR|URL|-...", shell_complete=_complete_files)
@_spec_option(False)
@_spec_path_option
@_batch_format_option
@click.option("-q", "--quiet", is_flag=True, help="Print only failures (no warnings, no valid lines, no summary, no progress).")
@_jobs_option
@_dask_option
@_dask_security_option
@_timeout_option
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
        _load_rules(spec_path, spec_roots)
    if witness_path is not None:
        if len(logs) != 1 or logs[0] == "-" or not Path(logs[0]).is_file():
            raise click.UsageError("--witness needs exactly one log file")
        from referee.log.inputs import check_output_path

        check_output_path(witness_path)
    progress, verdicts = _batch(
        logs,
        functools.partial(
            check_source, spec_override=spec_path, timeout=timeout, witness=witness_path is not None, answers=output_format != "text"
        ),
        jobs,
        _cluster(dask_address, dask_security),
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
        from referee.checking.report import file_json

        for piece in stream_json(file_json(verdict) for verdict in _also_on_stderr(each(), _input_error, progress)):
            click.echo(piece, nl=False)
        click.echo("")
    else:
        from referee.checking.ci_report import from_verdict

        _write_ci(output_format, (from_verdict(verdict, quiet) for verdict in each()), "check", progress)
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


def _input_error(item: Any) -> str | None:
    """A verdict's, a ruling result's or a CI record's one-line reason why its log could not be read."""
    return item["input_error"] if isinstance(item, dict) else item.input_error  # type: ignore[no-any-return]


def _also_on_stderr(items: Any, problem: Callable[[Any], str | None], progress: Any) -> Any:
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


def _write_ci(output_format: str, logs: Any, command: str, progress: Any) -> None:
    """JUnit, SARIF or GitHub annotations on standard output; unreadable logs also said on standard error."""
    from referee.checking import ci_report

    def echo(text: str) -> None:
        click.echo(text, nl=False)

    said = _also_on_stderr(logs, _input_error, progress)
    if output_format == "junit":
        ci_report.write_junit(said, echo, command)
    elif output_format == "sarif":
        ci_report.write_sarif(said, echo, command, __version__)
    else:
        ci_report.write_github(said, echo)


def _load_rules(spec_path: Path, roots: tuple[Path, ...] = ()) -> Any:
    """A spec's compiled rules; an invalid spec raises ``SpecError`` (exit 2) before any work is done."""
    from referee.rules.compiler import load_rules

    return load_rules(spec_path, roots)


@main.command()
@_spec_option(True)
@click.option("--games", type=click.IntRange(1, 100_000), default=10, show_default=True, help="How many games the bots play.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    required=True,
    help="Folder for the games (game-NNN.log, full mode) and results.json.",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    help="Game N (from 1) is dealt from seed SEED+N-1. Default: drawn from the system's randomness and written to "
    "results.json once the match ends (a seed given here is visible to every local user, and tells every deal).",
)
@click.option(
    "--move-timeout",
    type=click.FloatRange(0.001, 3600),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long a bot may take to answer one decision; a bot that takes longer leaves the match.",
)
@click.option(
    "--target",
    type=click.IntRange(1, 999_999),
    metavar="POINTS",
    help="Play each game to this score instead of the spec's target (the logs get a 'target' line).",
)
@click.option(
    "--max-moves",
    type=click.IntRange(1, 10_000_000),
    default=50_000,
    show_default=True,
    help="Stop a game after this many moves (10x the longest game measured): its log ends unfinished and nobody wins "
    "it (bots that never finish). A game no move can change any more is stopped at once, as blocked.",
)
@click.option("--json", "as_json", is_flag=True, help="Print results.json to standard output instead of the table.")
@click.option(
    "--bot-stderr",
    type=click.Path(path_type=Path, file_okay=False),
    help="Keep each bot's standard error in DIR/NAME.stderr (its first 10 MB); by default it is read and dropped.",
)
@click.option(
    "--no-sandbox",
    is_flag=True,
    help="Run the bots bare, as yourself: they can then see each other and the host (by default each runs in a "
    "bubblewrap sandbox of its own, docs/security.md).",
)
@click.argument("bots", nargs=-1, required=True, metavar="[NAME=]BOT...", shell_complete=_complete_files)
def play(
    spec_path: Path,
    games: int,
    out_dir: Path,
    seed: int | None,
    move_timeout: float,
    target: int | None,
    max_moves: int,
    as_json: bool,
    bot_stderr: Path | None,
    no_sandbox: bool,
    bots: tuple[str, ...],
) -> None:
    """Host a match: BOT programs play GAMES games, each seeing only its own seat.

    Each BOT is a command line (quote it: "python3 my_bot.py"), started once
    for the match and run without a shell. For each decision the host writes
    one JSON line to the bot's standard input (protocol 2, docs/protocol.md):
    what its seat sees ("view", the round's history in pieces) and its legal
    moves ("legal"); the bot writes back one of them, a line such as "Ann
    plays red-5", or "wait" when it may let an out-of-turn chance (an UNO
    call, a catch) go by. After each round and each game every bot gets one
    more line, wanting no answer: how it ended. Seats and the dealer rotate
    from game to game. A bot is named NAME=COMMAND ("champ=python3 bot.py"),
    else after its program's file (greedy_bot.py, node bot.js, python3 -m
    my.bot -> greedy_bot, bot, bot). A game no move can change any more
    (blocked), or still going at --max-moves, is stopped and won by nobody.

    An illegal answer is recorded and the host draws or passes for the bot (as
    the rules allow); a bot that times out, closes its output or exits is
    recorded and leaves the match, its seat drawing or passing from then on.
    Nothing a bot does stops the match.

    Every game is written to OUT/game-NNN.log (full mode: 'referee check
    OUT' accepts them; OUT must not hold an earlier match's files) and the
    results to OUT/results.json: per bot, games,
    wins (with a 95% interval on the win rate), points, illegal moves,
    timeouts and crashes.

    On a terminal one line on standard error tells the games done, the moves
    per second and the time left. Ctrl-C or SIGTERM stops every bot, writes
    OUT/results.json with the games finished so far ("partial": true) and
    exits 130 or 143.

    \b
    Exit status: 0 the match was played (whatever the bots did), 2 bad options or a bot that cannot be started.

    \b
    Examples:
      referee play --spec uno --games 100 --out match/ \\
          "python3 examples/bots/random_bot.py" "python3 examples/bots/greedy_bot.py"
      referee check match/
    """
    import json

    from referee.log.inputs import display_name, prepare_output_folder
    from referee.log.writer import OutputFolder, bundle_spec
    from referee.play.host import Match, on_interrupt
    from referee.play.sandbox import Sandbox
    from referee.rules.compiler import load_rules
    from referee.spec.paths import shipped_spec_path

    rules = load_rules(spec_path)
    spec = rules.spec
    if seed is None:  # not 0: a bot that knows the seed knows every hand (it reads the host's command line)
        import secrets

        seed = secrets.randbits(63)
    if not spec.min_players <= len(bots) <= spec.max_players:
        count = f"{len(bots)} bot{'' if len(bots) == 1 else 's'}"
        raise click.UsageError(f"spec {spec.name} is for {spec.min_players} to {spec.max_players} players (one bot each), not {count}")
    commands, given = _bot_commands(bots)
    shipped = shipped_spec_path(spec.name) == spec_path
    _new_match_folder(out_dir)
    # a spec file is copied into the match folder, and the logs name the copy: the folder checks from anywhere
    spec_line = None if shipped else bundle_spec(spec_path, out_dir)
    if bot_stderr is not None:
        prepare_output_folder(bot_stderr)
    progress = sys.stderr is not None and sys.stderr.isatty()
    folder = OutputFolder(out_dir)  # the match folder, written through this descriptor alone
    sandbox = Sandbox([out_dir, *([bot_stderr] if bot_stderr is not None else [])], wanted=not no_sandbox)
    if sandbox.why is not None:
        click.echo(f"warning: the bots run without a sandbox: {sandbox.why} (docs/security.md; --no-sandbox says so)", err=True)

    def written(number: int, log: str, table: object) -> None:
        folder.write(f"game-{number + 1:03d}.log", log)
        if progress:
            click.echo("\r" + match.progress_text() + "\x1b[K", nl=False, err=True)

    def partial() -> None:  # Ctrl-C or SIGTERM: the games finished so far, marked partial
        folder.write("results.json", json.dumps(match.results(partial=True), indent=2) + "\n")

    spec_name = spec.name if shipped else spec_path
    try:
        match = Match(
            spec_name,
            commands,
            games,
            seed,
            move_timeout,
            target=target,
            on_game=written,
            max_moves=max_moves,
            spec_line=spec_line,
            names=given,
            stderr_dir=bot_stderr,
            sandbox=sandbox,
        )
    except ValueError as error:  # a name given twice, or one a log cannot hold
        raise click.UsageError(f"bot names: {error}") from None
    with on_interrupt(partial):
        match.run()
    if progress:
        click.echo("", err=True)
    results = match.results()
    folder.write("results.json", json.dumps(results, indent=2) + "\n")
    folder.close()
    if as_json:
        click.echo(json.dumps(results, indent=2))
        return
    click.echo(match.table_text(), nl=False)
    for reason, why in (
        ("max-moves", f"stopped after {max_moves} moves"),
        ("blocked", "stopped as blocked (no move could change the position)"),
    ):
        numbers = [str(stop["game"]) for stop in match.unfinished if stop["reason"] == reason]
        if numbers:
            click.echo(f"{why}, won by nobody: game{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}")
    rate = match.moves / match.seconds if match.seconds else 0.0
    click.echo(f"{games} game{'s' if games != 1 else ''} in {display_name(str(out_dir))}: {match.moves} moves, {rate:,.0f} moves/s")


@main.command()
@_spec_option(True)
@click.option("--players", type=click.IntRange(1, 1000), default=4, show_default=True, help="Players per game (within the spec's range).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Random seed; the same seed writes the same games.")
@click.option("--games", type=click.IntRange(1, 100_000), default=1, show_default=True, help="How many games (more than one needs --out).")
@click.option(
    "--mode",
    type=click.Choice(["full", "observed", "public"]),
    default="full",
    show_default=True,
    help="Full (shuffle lines), observed (hand/start lines) or public (what the table saw: draw counts, hands shown).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    help="Folder for the games, one file each: game-SSSSSS.log, SSSSSS the game's seed (default: one game to standard output).",
)
@click.option("--max-rounds", type=click.IntRange(1, 1000), default=200, show_default=True, help="Stop a game after this many rounds.")
@click.option(
    "--target",
    type=click.IntRange(1, 999_999),
    metavar="POINTS",
    help="Write a 'target POINTS' header: play to this score instead of the spec's own target (default: the spec's).",
)
def simulate(
    spec_path: Path, players: int, seed: int, games: int, mode: str, out_dir: Path | None, max_rounds: int, target: int | None
) -> None:
    """Write random self-play games in the log format.

    Each move is one of the legal moves of the library (Game.legal_moves),
    chosen as a real table would: the players draw instead of playing now
    and then, keep playable drawn cards, bluff wild draws, challenge rightly
    and wrongly, forget UNO and get caught, and claim scores. Every game
    passes 'referee check'.

    Game number K (from 0) uses seed SEED+K and is written to
    OUT/game-SSSSSS.log with SSSSSS that seed in six digits, for example
    game-000007.log. A spec given as a file is copied into OUT/specs/ (with
    the files it extends) and each log names the copy ('spec specs/NAME.yaml'),
    so 'referee check OUT' needs no flag and the folder can be moved whole; on
    standard output the log names the file's absolute path (check it with
    --spec-path DIR or --spec FILE). Progress goes to standard error when it
    is a terminal.

    \b
    Exit status: 0 written, 2 bad options, a spec the players do not fit, or an output folder that cannot be written.

    \b
    Examples:
      referee simulate --players 3 --seed 1            # one game to standard output
      referee simulate --players 6 --mode observed --games 100 --out games/
    """
    from referee.log.inputs import prepare_output_folder
    from referee.log.writer import bundle_spec, write_output_file
    from referee.play.simulate import simulate_game
    from referee.rules.compiler import load_rules
    from referee.spec.paths import default_spec_name, shipped_spec_path

    rules = load_rules(spec_path)
    spec = rules.spec
    if not spec.min_players <= players <= spec.max_players:
        raise click.UsageError(f"spec {spec.name} is for {spec.min_players} to {spec.max_players} players, not {players}")
    negative = [kind.name for kind in spec.kinds if kind.points is not None and kind.points < 0]
    if negative:
        raise errors.InputError(
            f"spec {spec.name} gives negative points ({', '.join(negative)}): its scores cannot be written in a log",
            errors.Position(errors.escape(str(spec_path))),
        )
    if games > 1 and out_dir is None:
        raise click.UsageError(f"{games} games need --out DIR (one file per game); standard output takes one game")
    # The log names its spec: nothing for the default, a shipped name, or a spec file: with --out, its copy in the
    # folder (specs/NAME.yaml, named relative to the logs), else the file's absolute path.
    shipped = shipped_spec_path(spec.name) == spec_path
    spec_line = None if shipped and spec.name == default_spec_name() else spec.name if shipped else str(spec_path.resolve())
    if out_dir is not None:
        prepare_output_folder(out_dir)
        if not shipped:
            spec_line = bundle_spec(spec_path, out_dir)
    progress = out_dir is not None and games > 1 and sys.stderr is not None and sys.stderr.isatty()
    for number in range(games):
        text = simulate_game(rules, players, seed + number, mode, spec_line=spec_line, max_rounds=max_rounds, target=target)
        if out_dir is None:
            click.echo(text, nl=False)
        else:
            write_output_file(out_dir / f"game-{seed + number:06d}.log", text)
            if progress:
                click.echo(f"\r{number + 1}/{games} games written", nl=False, err=True)
    if progress:
        click.echo("", err=True)
    if out_dir is not None:
        from referee.log.inputs import display_name

        click.echo(f"wrote {games} game{'s' if games != 1 else ''} to {display_name(str(out_dir))}")


@main.command()
@click.argument("target", metavar="LOG:LINE | LOG", shell_complete=_complete_files)
@click.option("--line", type=click.IntRange(1), help="The line to explain (instead of LOG:LINE).")
@click.option("--move", help='A hypothetical event to judge at that line instead of the recorded one, e.g. "Bob plays red-5".')
@_spec_option(False)
@_spec_path_option
@_format_option
@_timeout_option
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
        _load_rules(spec_path, spec_roots)
    result = explain_line(source, number, move, spec_path, timeout)
    if output_format == "json":
        import json

        click.echo(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
    else:
        for text in render_text(result):
            click.echo(errors.escape(text))
    raise SystemExit(errors.EXIT_FINDINGS if result.legal is False or result.log_error is not None else errors.EXIT_CLEAN)


@main.command()
@click.argument("rule_id", required=False)
@_spec_option(True)
@_format_option
@click.option(
    "--deck",
    is_flag=True,
    help="Print the spec's deck instead: every physical card, grouped by its first face (in UNO Flip, what each light "
    "face is paired with), with how many there are.",
)
@click.option(
    "--claims",
    is_flag=True,
    help="Print the claims 'referee prove' holds the spec to instead (its rulebook's, and those it restates or "
    "withdraws): id and statement; with a CLAIM-ID, that claim's source and figures.",
)
def rules(rule_id: str | None, spec_path: Path, output_format: str, deck: bool, claims: bool) -> None:
    """List the spec's rules, or show one: id, summary, source, options.

    Summaries show the option values in force under the spec (a house spec
    with a 300-point target says 300). Shipped specs: uno-flip (the official
    rules of UNO Flip), uno (classic UNO), house-dealer-chooses,
    house-lowest-score, house-short-game, house-stacking, uno-seven-zero,
    uno-jump-in, uno-draw-to-match, uno-progressive, uno-party and
    uno-flip-party (what most tables play); any spec file may be
    given instead.

    \b
    Examples:
      referee rules                          # every rule of the official spec
      referee rules challenge.innocent       # one rule, with the options that change it
      referee rules --spec house-stacking penalty.no-stacking
      referee rules --deck                   # which dark face each light face is paired with
      referee rules --claims --spec uno      # the claims 'referee prove' checks
    """
    import json

    from referee.checking.explain import rule_data

    compiled = _load_rules(spec_path)
    spec = compiled.spec
    if claims:
        if deck:
            raise click.UsageError("give --claims or --deck, not both")
        _print_claims(compiled, rule_id, output_format)
        return
    if deck:
        if rule_id is not None:
            raise click.UsageError("--deck prints the whole deck: give no rule id with it")
        _print_deck(compiled, output_format)
        return
    chosen = list(spec.rules)
    if rule_id is not None:
        chosen = [rule for rule in spec.rules if rule.id == rule_id]
        if not chosen:
            hint = errors.did_you_mean(rule_id, [rule.id for rule in spec.rules], 3)
            raise click.UsageError(f"spec {spec.name} has no rule '{errors.escape(rule_id)}'{hint}")
    data = [rule_data(rule, compiled) for rule in chosen]
    if output_format == "json":
        click.echo(json.dumps({"spec": spec.name, "rules": data}, indent=1, ensure_ascii=False))
        return
    for item in data:
        if rule_id is None:
            click.echo(errors.escape(f"{item['id']:<24} {item['summary']}"))
            continue
        click.echo(errors.escape(f"{item['id']}: {item['summary']}"))
        click.echo(errors.escape(f"  source: {item['source']}"))
        if item["ruling"] is not None:
            click.echo(errors.escape(f"  ruling {item['ruling']['number']}: {item['ruling']['text']}"))
        for name, value in item["options"].items():
            click.echo(errors.escape(f"  option {name}: {json.dumps(value)}"))
        if item["checks"]:
            click.echo(errors.escape(f"  enforced by the checks: {', '.join(item['checks'])}"))


def _print_claims(compiled: Any, claim_id: str | None, output_format: str) -> None:
    """``rules --claims``: the claims in force for a spec (one, with its figures, when ``claim_id`` is given)."""
    import json

    from referee.proof.claims import game_claims

    every = game_claims(compiled)
    chosen = every if claim_id is None else [claim for claim in every if claim.id == claim_id]
    if not chosen:
        hint = errors.did_you_mean(claim_id or "", [claim.id for claim in every])
        raise click.UsageError(f"spec {compiled.spec.name} has no claim '{errors.escape(claim_id or '')}'{errors.escape(hint)}")
    data = [claim.to_json() for claim in chosen]
    if output_format == "json":
        click.echo(json.dumps({"spec": compiled.spec.name, "claims": data}, indent=1, ensure_ascii=False))
        return
    for item in data:
        where = " (withdrawn: " + item["withdrawn"] + ")" if item["withdrawn"] else " (restated by the spec)" if item["restated"] else ""
        if claim_id is None:
            click.echo(errors.escape(f"{item['id']:<28} {item['statement']}{where}"))
            continue
        click.echo(errors.escape(f"{item['id']}: {item['statement']}{where}"))
        click.echo(errors.escape(f"  source: {item['source']}"))
        if item["if"]:
            click.echo(errors.escape(f"  in force when: {json.dumps(item['if'])}"))
        click.echo(errors.escape(f"  {item['form']}: {json.dumps(item['figures'])}"))


@main.command()
@click.argument("logs", nargs=-1, required=True, metavar="FILE|DIR|URL|-...", shell_complete=_complete_files)
@_spec_option(False)
@_spec_path_option
@_batch_format_option
@_jobs_option
@_dask_option
@_dask_security_option
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

    rules = _load_rules(spec_path, spec_roots) if spec_path is not None else None
    progress, results = _batch(
        logs, functools.partial(adjudicate_log, spec_override=spec_path), jobs, _cluster(dask_address, dask_security), False, spec_roots
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
        for piece in stream_json(result.to_json() for result in _also_on_stderr(each(), _input_error, progress)):
            click.echo(piece, nl=False)
        click.echo("")
    else:
        from referee.checking.ci_report import from_rulings

        texts = _rule_texts(rules if rules is not None else _load_rules(_default_spec()))
        _write_ci(output_format, (from_rulings(result, texts) for result in each()), "adjudicate", progress)
    progress.finish()
    if unreadable:
        raise SystemExit(errors.EXIT_INPUT)
    raise SystemExit(errors.EXIT_FINDINGS if bad else errors.EXIT_CLEAN)


def _print_deck(compiled: Any, output_format: str) -> None:
    """The deck, a line per first face: ``red-1  2  red-1/pink-3 red-1/purple-2`` (how many, then the cards)."""
    import json
    from collections import Counter

    counts = Counter(card.token for card in compiled.deck)
    groups: dict[str, list[str]] = {}
    for token in sorted(counts):
        groups.setdefault(token.partition("/")[0], []).append(token)
    if output_format == "json":
        cards = [{"card": token, "count": counts[token]} for token in sorted(counts)]
        click.echo(json.dumps({"spec": compiled.spec.name, "cards": sum(counts.values()), "deck": cards}, indent=1))
        return
    width = max(len(face) for face in groups)
    for face, tokens in groups.items():
        total = sum(counts[token] for token in tokens)
        shown = " ".join(f"{token}" + (f" x{counts[token]}" if counts[token] > 1 else "") for token in tokens)
        click.echo(errors.escape(f"{face:<{width}}  {total}  {shown}"))


def _default_spec() -> Path:
    from referee.spec.extends import default_spec_name, resolve_spec

    return resolve_spec(default_spec_name(), None)


def _rule_texts(rules: Any) -> dict[str, tuple[str, str]]:
    """Rule id -> (summary, citation) of a spec, for the rules a SARIF report describes."""
    return {rule.id: (rule.summary, rule.citation.render(rules.spec.sources)) for rule in rules.spec.rules}


@main.command()
@click.argument("log", metavar="LOG|-", shell_complete=_complete_files)
@click.option("--out", "out_path", type=click.Path(path_type=Path), help="The page to write (default: the log's name with .html).")
@click.option("--line", type=click.IntRange(1), help="Open the page at this line (the URL fragment #line-N does the same).")
@_spec_option(False)
@_spec_path_option
@_timeout_option
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

    from referee.commands.page import page_data, render_page
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
        _load_rules(spec_path, spec_roots)
    # The page reads the log three times (replay, explain, adjudicate): it reads a private copy, made once and bounded,
    # of a regular file or of standard input (a FIFO or a device named as the log is refused before any read).
    from referee.commands.page import MAX_LOG_BYTES
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


@main.command()
@click.argument("spec_files", nargs=-1, metavar="[SPEC]...")
@click.option(
    "--spec",
    "spec_paths",
    multiple=True,
    metavar="NAME|FILE",
    help="A spec (shipped name or file); repeat for several, or name them as arguments. Default: every shipped spec.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    expose_value=False,
    callback=_no_cache,
    help="Compile the specs afresh: neither read nor write the cache of compiled rules (see 'referee cache path').",
)
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
@_format_option
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
    replays to the violating step. A timeout or an 'unknown' from the solver
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
    """
    from referee.commands.isolate import run_isolated
    from referee.log.inputs import check_output_path
    from referee.proof.invariants import load_invariants
    from referee.proof.prove import prove_spec
    from referee.proof.queries import Status
    from referee.proof.report import render_json, render_junit, render_text
    from referee.spec.extends import resolve_spec, shipped_spec_names

    if junit_path is not None:
        check_output_path(junit_path)
    invariants = load_invariants()
    names = (*spec_paths, *spec_files) or tuple(shipped_spec_names())
    paths = []
    for name in names:
        if name == "":
            raise click.UsageError("an empty name names no spec")
        paths.append(resolve_spec(name, None))
    loaded = [_load_rules(path) for path in paths]
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
        if output_format == "text":
            for line in render_text(result):
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


def _bot_commands(bots: tuple[str, ...]) -> tuple[list[list[str]], list[str | None]]:
    """Each bot's command line, split as a shell would (nothing is run by a shell), and its name if given as NAME=."""
    import shlex

    commands: list[list[str]] = []
    given: list[str | None] = []
    for bot in bots:
        named = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]{0,31})=(.*)", bot, re.DOTALL)  # NAME=COMMAND names the bot
        try:
            command = shlex.split(named.group(2) if named else bot)
        except ValueError as error:
            raise click.UsageError(f"bot '{errors.escape(bot)}': {error}") from None
        if not command:
            raise click.UsageError("a bot is a command line, not an empty string")
        commands.append(command)
        given.append(named.group(1) if named else None)
    return commands, given


def _new_match_folder(out_dir: Path) -> None:
    """The match folder, made or checked; one that already holds a match is refused (its logs would mix)."""
    from referee.log.inputs import prepare_output_folder

    prepare_output_folder(out_dir)
    earlier = sorted(path.name for path in out_dir.iterdir() if path.name == "results.json" or path.name.startswith("game-"))
    if earlier:  # a second match's logs beside a first's would be checked as one match
        raise errors.InputError(
            f"already holds a match ({earlier[0]}): give an empty or new folder", errors.Position(errors.escape(str(out_dir)))
        )


@main.command()
def schema() -> None:
    """Print the JSON Schema of the spec language, for editors and CI.

    The schema checks a spec file's structure as you type: every key, effect,
    start action, check and option of the vocabulary, with the values each
    takes (a misspelt key or option is an error). It is generated from the
    vocabulary the loader reads, and shipped in the package as
    referee/spec/spec.schema.json; what needs the whole spec at once (a rule a kind
    cites, a check governed twice) is only the loader's. docs/spec-language.md
    says how to use it in an editor.

    \b
    Examples:
      referee schema > referee-spec.schema.json
      # in a spec file, for the YAML language server:
      # yaml-language-server: $schema=./referee-spec.schema.json
    """
    from referee.spec.schema import schema_text

    click.echo(schema_text(), nl=False)


@main.group()
def cache() -> None:
    """The cache of compiled rules: where it is, and removing it.

    Compiled specs are kept so that a check starts fast; an entry is used only
    while every file it was built from is unchanged, so there is rarely a
    reason to clear it, except before uninstalling or to reclaim the space.

    \b
    Examples:
      referee cache path
      referee cache clear
    """


@cache.command("path")
def cache_path() -> None:
    """Print the cache folder (nothing, exit 2, when no absolute folder is configured)."""
    from referee.log.inputs import display_name
    from referee.rules import cache as rules_cache

    place = rules_cache.folder()
    if place is None:
        raise errors.UsageError("no cache folder: neither REFEREE_CACHE_DIR, XDG_CACHE_HOME nor HOME is an absolute path")
    click.echo(display_name(str(place)))


@cache.command("clear")
def cache_clear() -> None:
    """Remove every entry of the cache of compiled rules."""
    from referee.log.inputs import display_name
    from referee.rules import cache as rules_cache

    place, removed = rules_cache.clear()
    if place is None:
        click.echo("no cache folder: nothing to clear")
        return
    click.echo(f"removed {removed} entr{'y' if removed == 1 else 'ies'} from {display_name(str(place))}")


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


_OUT_OF_MEMORY_LINE = f"error: {errors.OUT_OF_MEMORY}\n".encode()  # made now: there may be no memory to make it then


def _out_of_memory() -> int:
    with contextlib.suppress(Exception):
        sys.stderr.flush()
        os.write(2, _OUT_OF_MEMORY_LINE)
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
