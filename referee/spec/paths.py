"""Where the shipped specs are: the package data folder, its spec names, and the default spec. No other module of
referee is imported here: every spec module may read these."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

MAX_SPEC_BYTES = 1024 * 1024  # a spec or claims file (a larger one is an error the loader reports; the rules cache reads no more)


def _shipped_specs() -> Path:
    """The shipped specs: package data (``specs/`` in the source tree, mapped to ``referee.specs``), installed as files."""
    try:
        return Path(str(importlib.import_module("referee.specs").__file__)).resolve().parent
    except ImportError:  # the source tree imported without an install (``python -m referee`` in a clone): specs/ beside
        return Path(__file__).resolve().parents[2] / "specs"  # referee/spec/paths.py -> the clone's specs/


SPECS = _shipped_specs()


@functools.cache
def default_spec_name() -> str:
    """The shipped spec a log without a ``spec`` line is checked against: data, in ``specs/default-spec``."""
    lines = (SPECS / "default-spec").read_text(encoding="utf-8").splitlines()
    return next(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def shipped_spec_names() -> list[str]:
    """Names of the specs shipped inside the package."""
    return sorted(entry.name[:-5] for entry in SPECS.iterdir() if entry.name.endswith(".yaml"))


def shipped_file(path: Path | str) -> str | None:
    """``specs/FILE`` for a file of the shipped specs (as a report names it), None for any other file."""
    try:
        return f"specs/{Path(path).resolve().relative_to(SPECS)}"
    except ValueError:
        return None


def shipped_spec_path(name: str) -> Path | None:
    entry = SPECS / f"{name}.yaml"
    return entry if entry.is_file() else None
