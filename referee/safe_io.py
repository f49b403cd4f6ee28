"""Every file the referee reads whole goes through ``read_bounded``: a regular file, at most ``limit`` bytes.

A spec, a claims file, a file a cached spec was built from, a log for the
replay page: each is opened without blocking and without following a
terminal, checked with ``fstat`` to be a regular file (a FIFO would hang the
read, ``/dev/zero`` would fill memory) and read up to one byte past its
limit, so a 3 GB sparse file costs one megabyte, not three gigabytes.
Streams that may be pipes (a log given to ``check``, standard input) are
read in bounded pieces by their readers instead.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileProblem(OSError):
    """A file that is not read: not a regular file, or larger than the limit. ``str()`` is the reason."""


def open_regular(path: Path | str, dir_fd: int | None = None, follow: bool = True) -> int:
    """A descriptor of ``path`` opened for reading, refused (``FileProblem``) unless it is a regular file.

    ``O_NONBLOCK`` keeps ``open`` of a FIFO from waiting for a writer; the
    check is made on the descriptor (``fstat``), so what was checked is what
    is read. ``follow=False`` refuses a symbolic link as the last part.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, dir_fd=dir_fd)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(kind(info.st_mode))
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "not a regular file"


def read_descriptor(descriptor: int, limit: int) -> bytes:
    """At most ``limit`` bytes from an open descriptor (closed afterwards); ``FileProblem`` past the limit."""
    try:
        pieces: list[bytes] = []
        size = 0
        while size <= limit:
            piece = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
    finally:
        os.close(descriptor)
    if size > limit:
        raise FileProblem(f"larger than {limit:,} bytes")
    return b"".join(pieces)


def read_bounded(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``OSError`` (``FileProblem`` for our refusals)."""
    return read_descriptor(open_regular(path), limit)


def reason(error: OSError) -> str:
    """The short reason an ``OSError`` gives, for an ``error:`` line."""
    if isinstance(error, FileProblem):
        return str(error)
    return error.strerror or str(error)


def checkpoint() -> None:
    """A pure-Python call: compiled (mypyc) loops call it every block they read, so that the interpreter runs a
    pending signal handler (Ctrl-C, SIGTERM, a library user's SIGALRM) within one block, even on ``/dev/zero``."""
