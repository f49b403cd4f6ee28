"""Command-line inputs, one convention for every command: logs, specs, lines, output files.

A log argument is a file, a folder (every ``*.log`` below it, sorted) or
``-`` for standard input. ``--spec`` is a shipped spec name or a path. Names
the user did not type (files found under a folder) are escaped before they
are shown, and bytes that are not UTF-8 are written as ``\\xNN``.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from referee.errors import InputError, Position, UsageError, escape
from referee.records import dataclass
from referee.safe_io import FileProblem, kind, reason

STDIN = "-"


def display_name(name: str) -> str:
    """A path as text that is safe to print and valid UTF-8: undecodable bytes as ``\\xNN``, controls escaped."""
    raw = os.fsencode(name)
    return escape(raw.decode("utf-8", errors="backslashreplace"))


@dataclass(frozen=True, slots=True)
class LogSource:
    """One log to read: a file (``path``), an fsspec URL (``url``) or standard input (neither).

    ``problem`` is set when the source cannot be read at all (an unreadable
    folder found while expanding a folder); the command reports it in place.
    """

    display: str
    path: Path | None
    problem: str | None = None
    base: Path | None = None  # where a relative ``spec`` line points from, when not the file's folder
    url: str | None = None  # s3://..., memory://..., file://... (needs fsspec, the referee[dask] extra)
    spec_roots: tuple[Path, ...] = ()  # folders (--spec-path) the log's ``spec`` line may name files in, beyond its own
    tree: Path | None = None  # the folder given, for a log found by walking it: a link out of it is not read

    @property
    def is_stdin(self) -> bool:
        return self.path is None and self.url is None and self.problem is None

    @property
    def base_dir(self) -> Path:
        """The folder that a relative ``spec`` line in this log is relative to."""
        if self.base is not None:
            return self.base
        return self.path.parent if self.path is not None else Path.cwd()

    def open(self) -> BinaryIO:
        """The log's bytes as a binary stream; raises ``InputError`` when it cannot be read."""
        if self.url is not None:
            return _open_url(self.url, self.display)
        if self.path is None:
            return stdin_stream()
        try:
            if self.path.is_dir():
                raise InputError("is a folder, not a log", Position(self.display))
            if self.tree is not None and not _inside(self.path, self.tree):
                raise InputError(OUT_OF_TREE, Position(self.display))
            return self.path.open("rb")
        except OSError as error:
            raise InputError(f"cannot read: {error.strerror or error}", Position(self.display)) from None


def is_url(argument: str) -> bool:
    """``scheme://...``: a log read through fsspec rather than the file system."""
    scheme, sep, _ = argument.partition("://")
    return bool(sep) and scheme.isascii() and scheme.replace("+", "").replace("-", "").isalnum() and len(scheme) > 1


def _fsspec() -> Any:
    try:
        return importlib.import_module("fsspec")
    except ImportError:
        raise UsageError("reading a URL needs fsspec: pip install 'referee[dask]'") from None


def _open_url(url: str, display: str) -> BinaryIO:
    try:
        return cast(BinaryIO, _fsspec().open(url, "rb").open())
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read: {_url_problem(error)}", Position(display)) from None


def _url_problem(error: Exception) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    return escape(str(getattr(error, "strerror", None) or error))


def _logs_at_url(url: str) -> list[LogSource]:
    """The log a URL names, or every ``*.log`` below it when it names a folder (a prefix), sorted."""
    fsspec = _fsspec()
    where = Position(display_name(url))
    try:
        fs, root = fsspec.core.url_to_fs(url)
        if not fs.isdir(root):
            return [LogSource(display_name(url), None, url=url)]
        found = sorted(name for name in fs.find(root) if name.endswith(".log"))
    except (OSError, ValueError, ImportError) as error:
        raise InputError(f"cannot read: {_url_problem(error)}", where) from None
    if not found:
        raise InputError("no *.log files at this URL", where)
    prefix = root.rstrip("/")
    sources = []
    for name in found:
        shown = url.rstrip("/") + "/" + name[len(prefix) :].lstrip("/") if name.startswith(prefix + "/") else fs.unstrip_protocol(name)
        sources.append(LogSource(display_name(shown), None, url=fs.unstrip_protocol(name)))
    return sources


def stdin_stream() -> BinaryIO:
    """Standard input as bytes; a closed standard input is an input error, not a crash."""
    stream = sys.stdin
    if stream is None or getattr(stream, "buffer", None) is None:
        raise InputError("cannot read: standard input is closed", Position(STDIN))
    return stream.buffer


def expand_logs(arguments: tuple[str, ...] | list[str], spec_roots: tuple[Path, ...] = ()) -> Iterator[LogSource]:
    """Every log the arguments name, in order, found as they are read.

    Every argument is looked at before the first log is yielded, so that a
    folder with no logs (``InputError``) or a usage mistake stops the command
    before any output. ``spec_roots`` (``--spec-path``) go with every log.
    """
    found = _expand(arguments)
    if not spec_roots:
        return found
    return (dataclasses.replace(source, spec_roots=spec_roots) for source in found)


def _expand(arguments: tuple[str, ...] | list[str]) -> Iterator[LogSource]:
    parts: list[Iterable[LogSource]] = []
    stdin_used = False
    for given in arguments:
        if given == "":
            raise UsageError("an empty path names no log")
        if given == STDIN:
            if stdin_used:
                raise UsageError("standard input (-) can be read only once")
            stdin_used = True
            parts.append([LogSource(STDIN, None)])
            continue
        if is_url(given):
            if "::" in given:
                raise UsageError(f"{escape(given)}: chained URLs (with '::') are not read; give one URL")
            parts.append(_logs_at_url(given))
            continue
        path = Path(given)
        try:
            is_dir = path.is_dir()
        except OSError:
            is_dir = False
        if not is_dir:
            parts.append([LogSource(escape(given), path)])
            continue
        found = _logs_below(path, path.resolve())
        first = next(found, None)
        if first is None:
            raise InputError("no *.log files in this folder", Position(display_name(given)))
        parts.append(itertools.chain([first], found))
    return itertools.chain.from_iterable(parts)


OUT_OF_TREE = "a symbolic link out of the folder given: not read (a folder's logs are the files inside it)"


def _inside(path: Path, tree: Path) -> bool:
    """Whether ``path``, its links resolved, is a file inside ``tree`` (resolved)."""
    try:
        return path.resolve().is_relative_to(tree)
    except (OSError, RuntimeError):  # a loop of links
        return False


def _logs_below(folder: Path, tree: Path) -> Iterator[LogSource]:
    """The ``*.log`` files below a folder, sorted by path, found as the walk goes (memory does not grow with their number).

    A depth-first walk with each folder's entries sorted by name gives the
    order of sorting the whole paths part by part. An unreadable subfolder is
    a source with a problem, in its place; links to folders are not followed,
    and a link to a file outside ``tree`` (the folder given, resolved) is a
    source with a problem: an upload cannot make the referee quote a private file.
    """
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as error:
        yield LogSource(display_name(str(folder)), None, f"cannot read folder: {error.strerror or error}")
        return
    for entry in entries:
        path = Path(entry.path)
        try:
            if entry.is_dir(follow_symlinks=False):
                yield from _logs_below(path, tree)
                continue
            if not entry.name.endswith(".log"):
                continue
            if entry.is_symlink() and not _inside(path, tree):
                yield LogSource(display_name(str(path)), None, OUT_OF_TREE)
                continue
            mode = path.stat().st_mode
            if not stat.S_ISREG(mode):
                raise FileProblem(kind(mode))
        except OSError as error:
            if entry.name.endswith(".log"):
                yield LogSource(display_name(str(path)), None, f"cannot read: {reason(error)}")
            continue
        yield LogSource(display_name(str(path)), path, tree=tree)


def one_log(argument: str, spec_roots: tuple[Path, ...] = ()) -> LogSource:
    """The single log a command reads (``explain``): a file or ``-``, never a folder."""
    if argument == "":
        raise UsageError("an empty path names no log")
    if argument == STDIN:
        return LogSource(STDIN, None, spec_roots=spec_roots)
    path = Path(argument)
    try:
        if path.is_dir():
            raise UsageError(f"{escape(argument)} is a folder; give one log (a file or -)")
    except OSError:
        pass
    return LogSource(escape(argument), path, spec_roots=spec_roots)


def log_and_line(target: str, line: int | None) -> tuple[str, int]:
    """``LOG:LINE`` or ``LOG`` with ``--line N`` (not both): the log argument and the line number."""
    path_text, colon, line_text = target.rpartition(":")
    has_line = bool(colon) and line_text.isascii() and line_text.isdigit()
    if line is not None:
        if has_line and not Path(target).exists():
            raise UsageError(f"give the line once: {escape(target)} already names line {line_text}, and --line {line} names another")
        return target, line
    if not has_line:
        raise UsageError("give the line as LOG:LINE or LOG --line N")
    number = int(line_text)
    if number < 1:
        raise UsageError("a line number is at least 1")
    return path_text, number


def check_output_path(path: Path) -> None:
    """Refuse, before any work, an output path that cannot be written as a new or regular file."""
    folder = path.parent if str(path.parent) else Path(".")
    where = Position(escape(str(path)))
    try:
        info = path.lstat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", where) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise InputError("cannot write: is a symbolic link (give a regular file or a new name)", where)
        if not stat.S_ISREG(info.st_mode):
            raise InputError("cannot write: not a regular file (give a regular file or a new name)", where)
    if not folder.is_dir():
        raise InputError(f"cannot write: no folder {escape(str(folder))}", where)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError("cannot write: permission denied", where)


def prepare_output_folder(folder: Path) -> None:
    """Create an output folder (and its parents) before any work; refuse what is not a writable folder."""
    where = Position(escape(str(folder)))
    if folder.is_symlink():  # as for an output file: written through, it could be anywhere
        raise InputError("cannot write games here: is a symbolic link (give a folder or a new name)", where)
    if folder.exists() and not folder.is_dir():
        raise InputError("cannot write games here: not a folder", where)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create folder: {error.strerror or error}", where) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError("cannot write games here: permission denied", where)
