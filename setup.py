"""Build: the hot path of ``referee check`` compiled with mypyc, the pure-Python package as the fallback.

``pip install .`` compiles the modules in ``COMPILED`` (the log reader, the
engine and its effects, the replay loop, the event records, cards and the
compiled rules' tables; and for hosting, the moves, a seat's view and its
encoding, the table, and the log writer that writes a game's log at its end) into C extensions, which make ``check`` about 1.5x
faster and an environment's step about 1.5x. The ``.py`` files ship too, and they
are what runs when:

- the install is editable (``pip install -e .``), so that an edit to the
  source always takes effect;
- ``REFEREE_PURE_PYTHON=1`` is set at build time;
- compiling fails (no C compiler, no Python headers, mypyc missing): the build
  says so and goes on without the extensions.

mypyc's frozen classes do not unpickle by default, so the compiled classes
that are pickled (cards and rules, in the rules cache) pickle as constructor
calls (``__reduce__``); the verdicts and log sources sent to and from ``-j``
and Dask workers stay pure Python.
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "referee/cards.py",
    "referee/rules/compiler.py",
    "referee/log/events.py",
    "referee/log/reader.py",
    "referee/rules/effects.py",
    "referee/engine/reject.py",
    "referee/engine/public_knowledge.py",
    "referee/engine/state.py",
    "referee/engine/scoring.py",
    "referee/engine/legality.py",
    "referee/engine/deal.py",
    "referee/engine/disputes.py",
    "referee/engine/hands.py",
    "referee/engine/engine.py",
    "referee/checking/replay.py",
    "referee/engine/moves.py",
    "referee/play/seat.py",
    "referee/play/table.py",
    "referee/log/writer.py",
]


class OptionalBuildExt(build_ext):
    """Build the mypyc extensions when possible; otherwise (or when editable) install pure Python."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or self.inplace:
            print("referee: editable install, pure Python (the compiled build is for 'pip install .')", file=sys.stderr)
            self.extensions = []
            return
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any failure to compile means the pure-Python package
            print(f"referee: could not compile the fast path ({error}); installing pure Python", file=sys.stderr)
            self.extensions = []

    def build_extension(self, ext: object) -> None:
        try:
            super().build_extension(ext)  # type: ignore[arg-type]
        except Exception as error:  # noqa: BLE001
            raise RuntimeError(f"building {getattr(ext, 'name', ext)}: {error}") from error

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


def extensions() -> list[object]:
    """The mypyc extensions, generated only by the commands that build them (not for metadata or editable)."""
    if os.environ.get("REFEREE_PURE_PYTHON", "") not in ("", "0"):
        return []
    if not {"bdist_wheel", "build_ext", "build", "install"} & set(sys.argv[1:]) or "editable_wheel" in sys.argv:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("referee: mypyc is not installed; installing pure Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(COMPILED, opt_level="3", debug_level="0", group_name="referee"))
    except BaseException as error:  # noqa: BLE001 - mypyc exits on a type error: fall back, do not fail the install
        print(f"referee: mypyc could not compile the fast path ({error!r}); installing pure Python", file=sys.stderr)
        return []


def _forget_stale_builds() -> None:
    """A pure-Python build must not pick up extensions an earlier build left in build/lib*."""
    for folder in glob.glob(os.path.join("build", "lib*")):
        for name in glob.glob(os.path.join(folder, "**", "*.so"), recursive=True) + glob.glob(os.path.join(folder, "*.pyd")):
            os.remove(name)


EXTENSIONS = extensions()
if not EXTENSIONS:
    _forget_stale_builds()
setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt})
