"""A disk cache of compiled rules, so that ``referee check`` on one small log starts fast.

Reading and compiling a spec costs more than checking a small log (PyYAML
alone is a third of the start-up). The compiled ``Rules`` are kept as a
pickle in the user's cache folder:

- the entry's name is a hash of the spec file's resolved path and bytes, the
  Python version and the size and time of the referee modules that define
  compiled rules (an upgrade or an edit of the code is a new name);
- the entry lists every file the spec was built from (the ``extends`` chain)
  with a hash of its bytes; if any of them changed, the entry is not used;
- an entry that cannot be read or unpickled, or is not what it should be, is
  ignored and written anew; a cache that cannot be written is no error.

Folder: ``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/referee``, else
``~/.cache/referee``. A pickle runs code when loaded, so only a folder and
files owned by this user and not writable by anyone else are read.
``--no-cache`` (or ``REFEREE_NO_CACHE=1``) bypasses the cache both ways.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAGIC = "referee-rules/1"
enabled = os.environ.get("REFEREE_NO_CACHE", "") in ("", "0")


def _digest(data: bytes) -> str:
    try:
        from _blake2 import blake2b  # a C module: no OpenSSL load, as ``import hashlib`` has
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=20).hexdigest()


def folder() -> Path:
    given = os.environ.get("REFEREE_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "referee"


def _code_stamp() -> str:
    """The Python, and the files of the modules that define compiled rules (a ``.py`` or a compiled ``.so``)."""
    from referee import cards, catalogue, compiler, errors, spec_extends, spec_model, spec_nodes, spec_vocabulary

    parts = [sys.version, MAGIC]
    modules = (cards, catalogue, compiler, errors, spec_extends, spec_model, spec_nodes, spec_vocabulary, sys.modules[__name__])
    files = [module.__file__ for module in modules]
    for name in [*files, str(spec_model.SPECS / "rulings.yml")]:
        with contextlib.suppress(OSError, TypeError):
            info = os.stat(name)  # type: ignore[arg-type]
            parts.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    return "|".join(parts)


def _private(path: Path, directory: bool) -> bool:
    """Ours, of the right type, and not writable by group or others (a pickle from anyone else is code from them)."""
    try:
        info = path.lstat()
    except OSError:
        return False
    kind = stat.S_ISDIR(info.st_mode) if directory else stat.S_ISREG(info.st_mode)
    owner = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return kind and owner and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def load(path: Path, build: Callable[[], tuple[Any, list[Path]]]) -> Any:
    """The compiled rules of the spec at ``path``: from the cache when its entry is fresh, else ``build()`` and keep them.

    ``build`` returns the rules and the files they were read from; its errors
    (an invalid spec) pass through and nothing is cached.
    """
    if not enabled:
        return build()[0]
    try:
        data = path.read_bytes()
    except OSError:
        return build()[0]  # the loader says why the file cannot be read
    place = folder()
    key = os.fsencode(str(path.resolve())) + b"\0" + os.fsencode(_code_stamp()) + b"\0" + data
    entry = place / (_digest(key) + ".pickle")
    rules = _read(place, entry)
    if rules is not None:
        return rules
    rules, files = build()
    _write(place, entry, rules, files)
    return rules


def _read(place: Path, entry: Path) -> Any:
    if not (_private(place, True) and _private(entry, False)):
        return None
    try:
        with entry.open("rb") as stream:
            magic, files, rules = pickle.load(stream)
        if magic != MAGIC:
            return None
        for name, digest in files:
            if _digest(Path(os.fsdecode(name)).read_bytes()) != digest:
                return None
    except Exception:  # noqa: BLE001 - a damaged or foreign entry is a cache miss, whatever it raises
        return None
    return rules


def _write(place: Path, entry: Path, rules: Any, files: list[Path]) -> None:
    temporary = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    try:
        place.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(place, True):
            return
        record = (MAGIC, [(os.fsencode(name.resolve()), _digest(name.read_bytes())) for name in files], rules)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as stream:
            pickle.dump(record, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
    except Exception:  # noqa: BLE001 - a cache that cannot be written (full disk, read-only home) is no error
        with contextlib.suppress(OSError):
            temporary.unlink()
