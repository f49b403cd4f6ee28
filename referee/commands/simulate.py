"""``referee simulate``: random legal games written as logs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee import errors
from referee.commands.options import spec_option


@click.command()
@spec_option(True)
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
