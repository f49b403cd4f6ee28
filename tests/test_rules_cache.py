"""The disk cache of compiled rules: used when fresh, ignored when stale, damaged or not private, bypassed on request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REFEREE, write_spec

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "scenarios" / "codes" / "illegal-play.log"

# Checks one log in a fresh process and says whether PyYAML was imported (it is not, when the rules came from the cache).
PROBE = (
    "import sys; from pathlib import Path; from referee.checking.replay import check_path;"
    "v = check_path(Path(sys.argv[1]), 'x', Path(sys.argv[2]) if len(sys.argv) > 2 else None);"
    "print('yaml' in sys.modules, [str(e.code) for e in v.errors], v.input_error)"
)


def probe(cache: Path, *arguments: str, **extra: str) -> str:
    environment = {**os.environ, "REFEREE_CACHE_DIR": str(cache), **extra}
    result = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, env=environment, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


def test_a_second_run_takes_the_rules_from_the_cache_without_yaml(cache: Path) -> None:
    assert probe(cache, str(LOG)) == "True ['illegal-play'] None"
    assert len(list(cache.glob("*.pickle"))) == 1
    assert probe(cache, str(LOG)) == "False ['illegal-play'] None"


def test_an_edited_base_spec_is_seen_though_the_house_spec_is_unchanged(cache: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_bytes((ROOT / "specs" / "uno-flip.yaml").read_bytes())
    house = write_spec(tmp_path, "house", "extends: base.yaml\n")
    assert probe(cache, str(LOG), str(house)) == "True ['illegal-play'] None"
    assert probe(cache, str(LOG), str(house)) == "False ['illegal-play'] None"
    text = base.read_text()
    assert "hand-size: 7" in text
    base.write_text(text.replace("hand-size: 7", "hand-size: 6"))  # now the log deals one card too many
    assert probe(cache, str(LOG), str(house)) == "True ['bad-setup'] None"
    assert probe(cache, str(LOG), str(house)) == "False ['bad-setup'] None"


def test_a_damaged_entry_is_rebuilt(cache: Path) -> None:
    probe(cache, str(LOG))
    (entry,) = cache.glob("*.pickle")
    for damage in (b"", b"not a pickle", entry.read_bytes()[:100]):
        entry.write_bytes(damage)
        assert probe(cache, str(LOG)) == "True ['illegal-play'] None"
        assert probe(cache, str(LOG)) == "False ['illegal-play'] None"


def test_a_cache_others_can_write_is_not_read(cache: Path) -> None:
    probe(cache, str(LOG))
    cache.chmod(0o777)
    try:
        assert probe(cache, str(LOG)) == "True ['illegal-play'] None"
    finally:
        cache.chmod(0o700)
    (entry,) = cache.glob("*.pickle")
    entry.chmod(0o666)
    assert probe(cache, str(LOG)) == "True ['illegal-play'] None"


def test_no_cache_neither_reads_nor_writes(cache: Path) -> None:
    assert probe(cache, str(LOG), REFEREE_NO_CACHE="1") == "True ['illegal-play'] None"
    assert not list(cache.iterdir())
    environment = {**os.environ, "REFEREE_CACHE_DIR": str(cache)}
    result = subprocess.run([*REFEREE, "check", "--no-cache", str(LOG)], capture_output=True, env=environment)
    assert result.returncode == 1 and not list(cache.iterdir())
    result = subprocess.run([*REFEREE, "check", str(LOG)], capture_output=True, env=environment)
    assert result.returncode == 1 and len(list(cache.iterdir())) == 1


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert probe(blocked / "cache", str(LOG)) == "True ['illegal-play'] None"


def test_an_invalid_spec_is_reported_and_not_cached(cache: Path, tmp_path: Path) -> None:
    bad = write_spec(tmp_path, "bad", "extends: uno-flip\ntable: {hand-size: 99}\n")
    out = probe(cache, str(LOG), str(bad))
    assert out.startswith("True [] ") and "bad.yaml" in out
    assert not list(cache.glob("*.pickle"))


def test_every_command_that_reads_a_spec_takes_no_cache(cache: Path) -> None:
    """``--no-cache`` is one flag for every command with ``--spec`` (prove included), and it writes nothing."""
    import click

    from referee.commands.cli import main

    context = click.Context(main)
    every = {name: main.get_command(context, name) for name in main.list_commands(context)}
    commands = {
        name: command
        for name, command in every.items()
        if command is not None and any(p.name == "spec_path" or p.name == "spec_paths" for p in command.params)
    }
    assert {"check", "explain", "adjudicate", "rules", "prove", "simulate", "view"} <= set(commands)
    for name, command in commands.items():
        assert any("--no-cache" in p.opts for p in command.params), name
    environment = {**os.environ, "REFEREE_CACHE_DIR": str(cache)}
    result = subprocess.run(
        [*REFEREE, "prove", "--no-cache", "--spec", "uno-flip", "--invariant", "deck.cards"],
        capture_output=True,
        env=environment,
    )
    assert result.returncode == 0 and not list(cache.iterdir()), result.stderr


@pytest.mark.slow  # the quick tier keeps others of its kind; .ci/run's slow tier runs it
def test_a_spec_in_use_keeps_one_rules_object_however_many_others_are_loaded(tmp_path: Path) -> None:
    """The in-memory cache drops the least recently used spec, never the one in use (faces compare by identity)."""
    from referee.rules import compiler

    house = (ROOT / "specs" / "uno-flip.yaml").read_text(encoding="utf-8")
    official = compiler.load_rules(ROOT / "specs" / "uno-flip.yaml")
    others = []
    for number in range(compiler.MEMORY_SPECS + 6):
        spec = tmp_path / f"house-{number}.yaml"
        spec.write_text(house.replace("name: uno-flip", f"name: house-{number}", 1), encoding="utf-8")
        others.append(compiler.load_rules(spec))
        assert compiler.load_rules(ROOT / "specs" / "uno-flip.yaml") is official
    assert len(compiler._CACHE) == compiler.MEMORY_SPECS
    assert compiler.load_rules(tmp_path / "house-0.yaml") is not others[0]  # the least recently used was dropped
    assert compiler.load_rules(tmp_path / f"house-{compiler.MEMORY_SPECS + 5}.yaml") is others[-1]
