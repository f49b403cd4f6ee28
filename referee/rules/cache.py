"""A disk cache of compiled rules, so that ``referee check`` on one small log starts fast.

Reading and compiling a spec costs more than checking a small log (PyYAML
alone is a third of the start-up). The compiled ``Rules`` are kept as a
pickle in the user's cache folder:

- the entry's name is a hash of the spec file's resolved path and bytes, the
  folders its ``extends`` may search, the Python version and the size and
  time of the referee modules that define compiled rules (an upgrade or an
  edit of the code is a new name);
- the entry lists every file the spec was built from (the ``extends`` chain)
  with a hash of its bytes; if any of them changed, the entry is not used;
- an entry that cannot be read or unpickled, or is not what it should be, is
  ignored and written anew; a cache that cannot be written is no error.

A pickle is code, so an entry is read only if nobody else could have written
it (docs/security.md):

- the folder is walked from ``/`` one part at a time, each opened with
  ``O_DIRECTORY | O_NOFOLLOW`` relative to the one before and checked with
  ``fstat``: every folder above the cache owned by root or by us, and not
  writable by others unless sticky (``/tmp``); the cache folder itself ours
  and writable by nobody else;
- the entry is opened relative to that folder's descriptor with
  ``O_NOFOLLOW``, checked with ``fstat`` (a regular file, ours, writable by
  nobody else) and read through the same descriptor, bounded; entries are
  written through the folder's descriptor too. No path is looked up twice,
  so nothing can be swapped between the check and the use;
- the unpickler builds only referee's own record classes and a few builtin
  containers: no function is ever called by name.

Folder: ``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/referee``, else
``$HOME/.cache/referee``; a relative or empty value is ignored, as the XDG
specification says (no absolute folder at all: no cache).
``--no-cache`` (or ``REFEREE_NO_CACHE=1``) bypasses the cache both ways;
``referee cache clear`` removes it.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:  # the C unpickler alone: importing pickle.py (a Python pickler, used here only on a miss) was 1.5 ms of each start
    from _pickle import Unpickler, UnpicklingError
except ImportError:  # a Python without the C accelerator
    from pickle import Unpickler, UnpicklingError

from referee.safe_io import open_regular, read_bounded, read_descriptor
from referee.spec.paths import MAX_SPEC_BYTES

MAGIC = "referee-rules/3"
MAX_ENTRY_BYTES = 32 * 1024 * 1024
enabled = os.environ.get("REFEREE_NO_CACHE", "") in ("", "0")

_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _digest(data: bytes) -> str:
    try:
        from _blake2 import blake2b  # a C module: no OpenSSL load, as ``import hashlib`` has
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=20).hexdigest()


def folder() -> Path | None:
    """The cache folder, or None when no absolute folder is configured (then nothing is cached)."""
    given = os.environ.get("REFEREE_CACHE_DIR")
    if given:
        return Path(given) if os.path.isabs(given) else None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.environ.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "referee"


def _code_stamp() -> str:
    """The Python, and the files of the modules that define compiled rules (a ``.py`` or a compiled ``.so``)."""
    names = ["cards", "spec.catalogue", "rules.compiler", "errors", "spec.extends", "spec.model", "spec.nodes", "spec.vocabulary"]
    names.append("rules.cache")
    parts = [sys.version, MAGIC]
    files = [getattr(sys.modules.get(f"referee.{name}"), "__file__", None) for name in names]  # loaded by the compiler, our caller
    shipped = getattr(sys.modules.get("referee.spec.extends"), "SPECS", None)
    for name in [*files, str(shipped / "rulings.yml") if shipped is not None else None]:
        with contextlib.suppress(OSError, TypeError):
            info = os.stat(name)  # type: ignore[arg-type]
            parts.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    return "|".join(parts)


def _mine(info: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _trusted_above(info: os.stat_result) -> bool:
    """A folder above the cache: root's or ours, and if others may write in it, sticky (they cannot rename our entries)."""
    owner = info.st_uid in (0, os.getuid()) if hasattr(os, "getuid") else True
    shared = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(info.st_mode) and owner and (not shared or bool(info.st_mode & stat.S_ISVTX))


def _private(info: os.stat_result, directory: bool) -> bool:
    """Ours, of the right type, and not writable by group or others (a pickle from anyone else is code from them)."""
    kind = stat.S_ISDIR(info.st_mode) if directory else stat.S_ISREG(info.st_mode)
    return kind and _mine(info) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def open_folder(place: Path, create: bool) -> int | None:
    """A descriptor of the cache folder, walked from ``/`` part by part without following links; None if untrusted.

    The configured path is resolved once (a home behind a link is fine); the
    walk then trusts only what ``fstat`` says of each descriptor it opened.
    Missing folders are created (mode 0700) when ``create``.
    """
    try:
        parts = Path(os.path.realpath(place)).parts
    except (OSError, ValueError):
        return None
    if not parts or parts[0] != os.sep:
        return None
    try:
        current = os.open(os.sep, _DIRECTORY)
    except OSError:
        return None
    try:
        for index, name in enumerate(parts[1:], start=1):
            if not _trusted_above(os.fstat(current)):
                return None
            try:
                child = os.open(name, _DIRECTORY, dir_fd=current)
            except FileNotFoundError:
                if not create:
                    return None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o700, dir_fd=current)
                child = os.open(name, _DIRECTORY, dir_fd=current)
            os.close(current)
            current = child
            if index == len(parts) - 1 and not _private(os.fstat(current), True):
                return None
        if len(parts) == 1:
            return None  # the root folder is nobody's cache
        result, current = current, -1
        return result
    except OSError:
        return None
    finally:
        if current >= 0:
            os.close(current)


_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "int", "str", "bytes", "bool", "float", "complex", "slice"})
_OTHERS = frozenset({("collections", "Counter"), ("collections", "OrderedDict")})
# The modules whose records make up compiled rules: their classes are data, and constructing one runs no I/O.
_RECORD_MODULES = frozenset(
    f"referee.{name}"
    for name in ("cards", "spec.catalogue", "rules.compiler", "errors", "spec.model", "spec.nodes", "spec.vocabulary", "engine.state")
)


class _RecordsOnly(Unpickler):
    """Builds referee's own classes (records, enums) and plain containers; refuses every other global, so that an
    entry, even one somebody else managed to write, cannot name a function to call."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTINS or (module, name) in _OTHERS:
            return super().find_class(module, name)
        if module in _RECORD_MODULES and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise UnpicklingError(f"{module}.{name} is not allowed in a cache entry")


def load(path: Path, build: Callable[[], tuple[Any, list[Path]]], expected: type, roots: tuple[Path, ...] = ()) -> Any:
    """The compiled rules of the spec at ``path``: from the cache when its entry is fresh, else ``build()`` and keep them.

    ``build`` returns the rules and the files they were read from; its errors
    (an invalid spec) pass through and nothing is cached. An entry is used only
    if it holds an ``expected`` (the compiler's ``Rules``). ``roots`` are the
    folders ``extends`` may search beyond the spec's own (``--spec-path``).
    """
    if not enabled:
        return build()[0]
    place = folder()
    if place is None:
        return build()[0]
    try:
        data = read_bounded(path, MAX_SPEC_BYTES)
    except OSError:
        return build()[0]  # the loader says why the file cannot be read
    key = b"\0".join([os.fsencode(str(path.resolve())), *(os.fsencode(str(root)) for root in roots), os.fsencode(_code_stamp()), data])
    name = _digest(key) + ".pickle"
    descriptor = open_folder(place, create=False)
    if descriptor is not None:
        try:
            rules = _read(descriptor, name, expected)
        finally:
            os.close(descriptor)
        if rules is not None:
            return rules
    rules, files = build()
    descriptor = open_folder(place, create=True)
    if descriptor is not None:
        try:
            _write(descriptor, name, rules, files)
        finally:
            os.close(descriptor)
    return rules


def _read(folder_fd: int, name: str, expected: type) -> Any:
    try:
        descriptor = open_regular(name, dir_fd=folder_fd, follow=False)
        if not _private(os.fstat(descriptor), False):
            os.close(descriptor)
            return None
        data = read_descriptor(descriptor, MAX_ENTRY_BYTES)
        record = _RecordsOnly(io.BytesIO(data)).load()
        if not (isinstance(record, tuple) and len(record) == 3 and record[0] == MAGIC):
            return None
        _, files, rules = record
        if not isinstance(rules, expected) or not isinstance(files, list):
            return None
        for file_name, digest in files:
            if not isinstance(file_name, bytes) or _digest(read_bounded(os.fsdecode(file_name), MAX_SPEC_BYTES)) != digest:
                return None
    except Exception:  # noqa: BLE001 - a damaged, foreign or stale entry is a cache miss, whatever it raises
        return None
    return rules


def _write(folder_fd: int, name: str, rules: Any, files: list[Path]) -> None:
    temporary = f".{name}.{os.getpid()}.tmp"
    try:
        record = (MAGIC, [(os.fsencode(file.resolve()), _digest(read_bounded(file, MAX_SPEC_BYTES))) for file in files], rules)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        descriptor = os.open(temporary, flags, 0o600, dir_fd=folder_fd)
        import pickle

        with os.fdopen(descriptor, "wb") as stream:
            pickle.dump(record, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except Exception:  # noqa: BLE001 - a cache that cannot be written (full disk, read-only home) is no error
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder_fd)


def clear() -> tuple[Path | None, int]:
    """Remove every entry of the cache folder (only our own entries' names); the folder and how many were removed."""
    place = folder()
    if place is None:
        return None, 0
    descriptor = open_folder(place, create=False)
    if descriptor is None:
        return place, 0
    removed = 0
    try:
        for entry in os.listdir(descriptor):
            if entry.endswith((".pickle", ".tmp")):
                with contextlib.suppress(OSError):
                    os.unlink(entry, dir_fd=descriptor)
                    removed += 1
    finally:
        os.close(descriptor)
    return place, removed
