"""Events -> log text in the format of game-log-format.md (the inverse of ``referee.log.reader``)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from referee.errors import InputError, Position, escape
from referee.log import events as ev
from referee.log.inputs import check_output_path


def format_event(event: ev.Event) -> str:
    """One log line (without its newline)."""
    kind = ev.KINDS.get(type(event))
    if kind is None:
        raise TypeError(f"not an event: {event!r}")
    return kind.text(event)  # each kind's line, as its EventKind writes it


def _new_file_mode() -> int:
    """The mode a written file gets: 0666 less the umask, as a new file; never that of a file it replaces (another
    user's planted file could lend it setuid or world-write bits)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


SPEC_FOLDER = "specs"  # where written logs keep a copy of the spec file they name


def bundle_spec(spec_path: Path, out_dir: Path) -> str:
    """Copy a spec file, and the files of its ``extends`` chain that are not shipped, into ``out_dir/specs/`` (their
    places relative to the spec's folder kept) and give the ``spec`` line the logs written in ``out_dir`` name it by.

    A log's ``spec`` line may name only a file in the log's own folder tree (docs/commands.md): a folder of written
    games then checks from anywhere, and can be moved or shared whole."""
    from referee.spec.extends import spec_files

    base = spec_path.resolve().parent
    folder = out_dir / SPEC_FOLDER
    for file in spec_files(spec_path):
        try:
            relative = file.resolve().relative_to(base)
        except ValueError:
            raise InputError(
                "extends a file outside its own folder: it cannot be copied beside the games", Position(escape(str(file)))
            ) from None
        target = folder / relative
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot create folder: {error.strerror or error}", Position(escape(str(target.parent)))) from None
        write_output_file(target, file.read_text(encoding="utf-8"))
    return f"{SPEC_FOLDER}/{spec_path.resolve().relative_to(base).as_posix()}"


def write_output_file(path: Path, text: str) -> None:
    """Write an output file safely: refuse a symlink, FIFO or device; no partial file if anything fails.

    The text goes to a temporary file beside the target that is then renamed
    over it, so a reader never sees half a file; renaming is only done over a
    regular file or a new name (checked first), and the file gets the mode a
    newly created file would have (0644 under the usual umask), whatever the
    mode of the file it replaces.
    """
    check_output_path(path)
    folder = path.parent
    mode = _new_file_mode()
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", Position(escape(str(path)))) from None
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise InputError(f"cannot write: {error.strerror or error}", Position(escape(str(path)))) from None
    except BaseException:
        _remove(temporary)
        raise


class OutputFolder:
    """A folder written through a descriptor opened once (``referee play``'s match folder): each file is written whole
    to a new name and renamed over its own, so a link planted in the folder meanwhile (by a bot, say) is replaced,
    never followed, and the folder itself cannot be swapped for another behind the host's back."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        try:
            self.fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as error:
            raise InputError(f"cannot write games here: {error.strerror or error}", Position(escape(str(folder)))) from None

    def write(self, name: str, text: str) -> None:
        """Write ``name`` in the folder whole, or not at all."""
        temporary = f".{name}.{os.urandom(6).hex()}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            handle = os.open(temporary, flags, _new_file_mode(), dir_fd=self.fd)
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
            os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=self.fd)
            raise InputError(f"cannot write: {error.strerror or error}", Position(escape(str(self.folder / name)))) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
