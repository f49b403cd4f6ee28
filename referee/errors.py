"""One exception hierarchy for malformed input; each class carries its exit code.

Rule violations in a game are not exceptions: they are ``Diagnostic`` records
(see ``verdicts``). Exceptions are for input we cannot read at all, specs that
are not valid, and bugs.
"""

from __future__ import annotations

from referee.records import dataclass

OUT_OF_MEMORY = "out of memory (a limit on this process, or an input too large for it)"  # the one line, exit 2
OUT_OF_MEMORY_LINE = f"error: {OUT_OF_MEMORY}\n".encode()  # made at import: there may be no memory to make it then

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
EXIT_INCONCLUSIVE = 3
EXIT_INTERNAL = 4
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # SIGTERM: workers stopped, nothing left running
EXIT_CLOSED_OUTPUT = 141  # standard output closed by its reader (``| head``), as after SIGPIPE


@dataclass(frozen=True, slots=True)
class Position:
    """A place in an input file; line and column are 1-based (0 = unknown)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        """``path:line:column`` for a message, the path escaped: a file name is untrusted text too."""
        path = escape(self.path)
        if self.line and self.column:
            return f"{path}:{self.line}:{self.column}"
        if self.line:
            return f"{path}:{self.line}"
        return path


def escape(text: str) -> str:
    """Make input text safe to echo on a terminal: control characters become escapes.

    Every character that is not printable (C0 and C1 controls, DEL, line and
    paragraph separators, lone surrogates) is written as a Python escape
    (``\\x1b``, ``\\n``, ``\\u2028``), so that untrusted text can neither move
    the cursor, set a terminal title, nor start a new line of output.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return repr(ch)[1:-1]


class RefereeError(Exception):
    """Root of the referee's own errors: a message, a position, an exit code."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, position: Position | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position

    def render(self) -> str:
        """The one-line form printed for a user: ``path:line:col: error: message``."""
        where = f"{self.position}: " if self.position else ""
        return f"{where}error: {escape(self.message)}"


class UsageError(RefereeError):
    """A bad command line: an unknown option value, a missing file argument."""


class InputError(RefereeError):
    """A file that cannot be read: missing, a directory, too large."""


class ReportedError(RefereeError):
    """An input error already rendered as text (a log's unreadable spec, found during replay)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def render(self) -> str:
        return self.text


MAX_LISTED = 100


class SpecError(RefereeError):
    """A rule spec that is not valid; carries every problem found, each with its position."""

    def __init__(self, problems: list[tuple[Position, str]]) -> None:
        first_position, first_message = problems[0]
        super().__init__(first_message, first_position)
        self.problems = problems

    def render(self) -> str:
        """One line per problem, at most ``MAX_LISTED``; then one line saying that there are more."""
        shown = self.problems[:MAX_LISTED]
        lines = [f"{position}: error: {escape(message)}" for position, message in shown]
        if len(self.problems) > MAX_LISTED:
            lines.append(f"{escape(self.problems[0][0].path)}: error: and more problems not listed (only the first {MAX_LISTED} are shown)")
        return "\n".join(lines)


class IllegalMove(RefereeError, ValueError):
    """A move the rules do not allow, pushed onto a ``referee.Game``: its ``diagnostic`` says why (code, rule, message,
    the moves allowed instead). The game is left exactly as it was."""

    exit_code = EXIT_FINDINGS

    def __init__(self, move: str, diagnostic: object) -> None:
        code, rule, message = (getattr(diagnostic, name) for name in ("code", "rule", "message"))
        super().__init__(f"illegal move '{escape(move)}': {code} [{rule}]: {message}")
        self.move = move
        self.diagnostic = diagnostic

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[str, object]]:
        """Pickled as its move and diagnostic (an exception pickles its message alone by default)."""
        return (IllegalMove, (self.move, self.diagnostic))


def did_you_mean(word: str, choices: frozenset[str] | list[str] | set[str], most: int = 1) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``choices`` to a mistyped ``word`` (up to ``most`` of them), or
    nothing: the one hint every error about a name gives (a spec's key, a claim's id, a player, a command's option)."""
    import difflib

    close = difflib.get_close_matches(word, sorted(choices), n=most, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(name) for name in close)}?)" if close else ""


def known_names(word: str, choices: frozenset[str] | list[str] | set[str], noun: str) -> str:
    """The hint of an error about an unknown name in a closed vocabulary (a spec's key, an effect): the closest name
    (``did_you_mean``) or, when none is close, every name the place takes, so that the message teaches the good ones."""
    close = did_you_mean(word, choices)
    if close or not choices:
        return close
    return f" (the {noun} are {', '.join(sorted(choices))})"
