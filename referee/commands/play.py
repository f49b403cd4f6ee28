"""``referee play``: a match between bot programs, hosted and refereed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from referee import errors
from referee.commands.options import complete_files, spec_option

_LIMITS = {
    "memory": "Each process of a bot may map this much memory (its address space); past it, allocations fail.",
    "processes": "A bot may run this many processes and threads at once; past it, fork fails.",
    "open_files": "Each process of a bot may hold this many files open.",
    "file_size": "A bot may write no file larger than this (it is killed, SIGXFSZ).",
    "cpu": "Each process of a bot may use this much CPU time over the match (it is killed, SIGXCPU).",
    "disk": "The size of a bot's private /tmp, also its home (a file system in memory).",
}


@click.command()
@spec_option(True)
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
    help="Run the bots bare, as yourself, without the --bot-* limits: they can then see each other, your files and "
    "the host (by default each runs in a bubblewrap sandbox of its own, docs/security.md).",
)
@click.option(
    "--bot-file",
    "bot_files",
    multiple=True,
    metavar="NAME=PATH",
    help="Let bot NAME read PATH (a file or a folder: a model, a data folder), read-only, at the same path; repeatable. "
    "In its sandbox a bot sees only the system's program folders, its program and the files its command line names.",
)
@click.option("--bot-memory", type=click.IntRange(16, 1 << 20), default=2048, show_default=True, metavar="MB", help=_LIMITS["memory"])
@click.option("--bot-processes", type=click.IntRange(1, 1 << 16), default=64, show_default=True, metavar="N", help=_LIMITS["processes"])
@click.option("--bot-open-files", type=click.IntRange(8, 1 << 20), default=256, show_default=True, metavar="N", help=_LIMITS["open_files"])
@click.option("--bot-file-size", type=click.IntRange(1, 1 << 20), default=64, show_default=True, metavar="MB", help=_LIMITS["file_size"])
@click.option("--bot-cpu", type=click.IntRange(1, 1 << 30), default=3600, show_default=True, metavar="SECONDS", help=_LIMITS["cpu"])
@click.option("--bot-disk", type=click.IntRange(1, 1 << 20), default=64, show_default=True, metavar="MB", help=_LIMITS["disk"])
@click.argument("bots", nargs=-1, required=True, metavar="[NAME=]BOT...", shell_complete=complete_files)
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
    bot_files: tuple[str, ...],
    bot_memory: int,
    bot_processes: int,
    bot_open_files: int,
    bot_file_size: int,
    bot_cpu: int,
    bot_disk: int,
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

    Each bot runs in a bubblewrap sandbox of its own (docs/security.md): an
    empty root holding the system's program folders, its program's
    installation and the files its command line names (its script), read
    only; a private /tmp; no network; an unprivileged user, even when the host
    is root; no capabilities; a seccomp filter; and the --bot-* limits. A bot
    past a limit is a crashed bot. Where no sandbox can be made the match is
    refused: --no-sandbox runs the bots bare, as you.

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
    from referee.play.sandbox import MIB, Limits, Sandbox
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
    limits = Limits(
        memory=bot_memory * MIB,
        processes=bot_processes,
        open_files=bot_open_files,
        file_size=bot_file_size * MIB,
        cpu=bot_cpu,
        disk=bot_disk * MIB,
    )
    sandbox = Sandbox(wanted=not no_sandbox, limits=limits, files=_bot_files(bot_files))
    if sandbox.why is not None:
        raise errors.UsageError(f"cannot run the bots in a sandbox: {sandbox.why} (docs/security.md; --no-sandbox runs them bare, as you)")

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
        sandbox.close()
        raise click.UsageError(f"bot names: {error}") from None
    unknown = sorted(set(sandbox.files) - set(match.names))
    if unknown:
        sandbox.close()
        raise click.UsageError(f"--bot-file {unknown[0]}=...: no bot is named {unknown[0]} (the bots: {', '.join(match.names)})")
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


def _bot_files(given: tuple[str, ...]) -> dict[str, list[Path]]:
    """``--bot-file NAME=PATH`` by bot name; a path that is not there is an error (the bot would miss it)."""
    files: dict[str, list[Path]] = {}
    for item in given:
        named = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]{0,31})=(.+)", item, re.DOTALL)
        if named is None:
            raise click.UsageError(f"--bot-file '{errors.escape(item)}': give NAME=PATH (a bot's name, then a file or folder)")
        path = Path(named.group(2))
        if not path.exists():
            raise click.UsageError(f"--bot-file {named.group(1)}={errors.escape(str(path))}: no such file or folder")
        files.setdefault(named.group(1), []).append(path)
    return files


def _new_match_folder(out_dir: Path) -> None:
    """The match folder, made or checked; one that already holds a match is refused (its logs would mix)."""
    from referee.log.inputs import prepare_output_folder

    prepare_output_folder(out_dir)
    earlier = sorted(path.name for path in out_dir.iterdir() if path.name == "results.json" or path.name.startswith("game-"))
    if earlier:  # a second match's logs beside a first's would be checked as one match
        raise errors.InputError(
            f"already holds a match ({earlier[0]}): give an empty or new folder", errors.Position(errors.escape(str(out_dir)))
        )
