"""The match host: bots play whole games through a ``Table``, each seeing only its seat's view (docs/protocol.md).

Each bot is a program started once per match (its command line run without a
shell). For each decision the host writes one JSON line to the bot's standard
input and reads one line back, a move in the log's syntax (or ``wait`` when
asked out of turn). What a bot does wrong never stops the match: an illegal
answer is recorded and the table makes the bot's fallback move for it (a draw
or a pass, as the rules allow, else the first legal move; ``wait`` when it
could wait); a bot that times out, closes its output or exits is recorded,
stopped, and leaves the match: its seat plays the fallback from then on.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from referee.engine.moves import Move, MoveError
from referee.errors import UsageError, escape
from referee.log.events import Verb
from referee.play.game import check_names
from referee.play.sandbox import Sandbox
from referee.play.table import Decision, Table
from referee.records import dataclass

PROTOCOL = 2  # 2: the view's history comes in the lines not sent yet; round-over and game-over messages
MAX_ANSWER = 4096  # bytes in one answer line: a move is a few dozen
MAX_NOTES = 20  # problems kept per bot for the results
STRAY_GRACE = 0.5  # seconds to wait for an answer after a line that may reply to a message wanting none
# Said after "could not start" when the bot ran in a sandbox: the likeliest cause there is a file it was not shown,
# or (the host being root, the bot nobody) one that only its owner may read.
_SANDBOX_HINT = " (in its sandbox a bot sees only the files its command names and those given with --bot-file; docs/protocol.md)"
_ROOT_HINT = (
    " (in its sandbox a bot runs as nobody and sees only the files its command names and those given with"
    " --bot-file, which must be readable by all; docs/protocol.md)"
)
MAX_STDERR = 4096  # bytes of a bot's standard error kept, to say why it could not start
MAX_STDERR_KEPT = 10_000_000  # bytes of a bot's standard error written to --bot-stderr DIR
MAX_MOVES = 50_000  # moves in one game before the host stops it: 10x the longest game measured (docs/protocol.md)
_LIVE: list[Bot] = []  # every bot process running, for stop_bots on Ctrl-C
_ON_INTERRUPT: list[Callable[[], None]] = []  # what to do when interrupted, after the bots are stopped


class BotGone(Exception):
    """The bot cannot answer any more: it timed out, closed its output or exited (the reason is the message)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # timeout or crash


class Bot:
    """One bot process: a JSON line out, one line back, within a deadline."""

    def __init__(self, name: str, command: Sequence[str], stderr_file: Path | None = None, sandbox: Sandbox | None = None) -> None:
        self.name = name
        self.command = tuple(command)
        self.stderr_file = stderr_file  # where its standard error is kept (MAX_STDERR_KEPT bytes), if anywhere
        if sandbox is not None and sandbox.active and shutil.which(self.command[0]) is None:  # said as when bare
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), self.command[0])
        options: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        options["start_new_session"] = True  # its own process group: stopping the bot stops what it started
        if sandbox is not None:
            self.process = sandbox.popen(name, self.command, **options)
        else:
            self.process = subprocess.Popen(self.command, **options)
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buffer = b""
        self.answers = 0  # lines it has written
        self.delivered = 0  # bytes written to its input: a bot that ends before it read any could not start
        self.stderr_head = bytearray()  # the start of its standard error (MAX_STDERR bytes); the rest is read and dropped
        self._drain = threading.Thread(target=self._read_stderr, args=(self.process.stderr,), daemon=True)
        self._drain.start()
        _LIVE.append(self)

    def _read_stderr(self, stream: Any) -> None:
        """Read the bot's standard error to its end, keeping its first bytes (what it says when it cannot start), and
        with ``stderr_file`` its first MAX_STDERR_KEPT bytes in that file."""
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})  # for the main thread alone
        kept = 0
        with contextlib.ExitStack() as stack:
            sink = None
            if self.stderr_file is not None:
                with contextlib.suppress(OSError):
                    sink = stack.enter_context(open(self.stderr_file, "wb"))  # noqa: SIM115 - closed by the stack
            stack.callback(stream.close)  # its own to close: the main thread never touches it (a read may block)
            with contextlib.suppress(OSError, ValueError):
                while chunk := stream.read1(65536):
                    if len(self.stderr_head) < MAX_STDERR:
                        self.stderr_head += chunk[: MAX_STDERR - len(self.stderr_head)]
                    if sink is not None and kept < MAX_STDERR_KEPT:
                        sink.write(chunk[: MAX_STDERR_KEPT - kept])
                        sink.flush()
                        kept += len(chunk)

    def could_not_start(self) -> str | None:
        """Why the bot could not start, when it ended without ever reading its input (its exit status and the first
        lines of its standard error); None while it runs, once it has answered, or when it read its first message
        and then failed (past a limit of its sandbox, say: a crash like any other)."""
        if self.answers or self.process.poll() is None or self._read_its_input():
            return None
        self._drain.join(timeout=1)
        code = self.process.returncode
        status = f"exited with status {code}" if code >= 0 else f"was killed by signal {-code}"
        said = bytes(self.stderr_head).decode("utf-8", errors="replace").strip().splitlines()[:5]
        shown = " / ".join(escape(line[:200]) for line in said if line.strip())
        return f"{status} before its first answer" + (
            f"; its standard error: {shown}" if shown else " (it wrote nothing on standard error)"
        )

    def _read_its_input(self) -> bool:
        """Whether the bot read what was written to it: something was delivered and nothing of it waits in the pipe."""
        import fcntl
        import struct
        import termios

        if not self.delivered:
            return False
        try:
            waiting = struct.unpack("i", fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return False
        return bool(waiting == 0)

    def ask(self, message: bytes, timeout: float) -> str:
        """Send one line and wait for one line back (``BotGone`` if none comes by the deadline or the bot is gone).
        Lines the bot wrote unasked (its replies to messages that want none) are dropped first; empty lines are never
        an answer."""
        self.drain()
        deadline = time.monotonic() + timeout
        self._send(message, deadline)
        return self.read_line(deadline)

    def tell(self, message: bytes, timeout: float) -> None:
        """Send one line that wants no answer (``BotGone`` if the bot does not read it in time, or is gone)."""
        self._send(message, time.monotonic() + timeout)

    def read_line(self, deadline: float) -> str:
        """The next line the bot writes that is not empty, by ``deadline`` (monotonic)."""
        while True:
            line = self._receive(deadline)
            if line:
                return line

    def drain(self) -> None:
        """Drop whatever the bot has written and was not asked for (complete lines, and a line begun)."""
        self._buffer = b""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._out, 65536):
                pass

    def _send(self, data: bytes, deadline: float) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._in, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise BotGone("timeout", "did not read its input in time")
                try:
                    written = os.write(self._in, data)
                except BrokenPipeError:
                    raise BotGone("crash", self._gone("closed its input")) from None
                except BlockingIOError:
                    continue
                self.delivered += written
                data = data[written:]

    def _receive(self, deadline: float) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(self._out, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_ANSWER:
                    raise BotGone("crash", f"wrote a line of over {MAX_ANSWER} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise BotGone("timeout", "did not answer in time")
                try:
                    chunk = os.read(self._out, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise BotGone("crash", self._gone("closed its output"))
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_ANSWER:  # a long line read at once is as long as one read in pieces
            raise BotGone("crash", f"wrote a line of over {MAX_ANSWER} bytes")
        self.answers += 1
        return line.decode("utf-8", errors="replace").strip()

    def _gone(self, what: str) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return what
        return f"{what} (exited with status {code})" if code >= 0 else f"{what} (killed by signal {-code})"

    def stop(self) -> None:
        """Stop the bot and everything it started; close its pipes."""
        process = self.process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.stdin.close()  # type: ignore[union-attr]
            try:
                process.wait(timeout=0.2)  # a bot that ends when its input ends
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for stream in (process.stdin, process.stdout):  # standard error is the drain thread's: it closes it at its end
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever it left behind in its group
        if self in _LIVE:
            _LIVE.remove(self)


def adopt_orphans() -> None:
    """Make this process the one an orphaned descendant is handed to (Linux's child subreaper), so that a process a
    bot left behind (double fork, ``setsid``) is still ours to end: ``end_orphans``. Elsewhere, nothing."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def end_orphans() -> None:
    """End every child process still alive once the bots are stopped: what bots left behind, handed to us."""
    for _ in range(3):  # a process ended may hand us its own children
        children: set[int] = set()
        with contextlib.suppress(OSError):
            for task in os.listdir("/proc/self/task"):
                with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as listed:
                    children.update(int(pid) for pid in listed.read().split())
        if not children:
            return
        for pid in children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def stop_bots() -> None:
    """Stop every bot still running (Ctrl-C, SIGTERM: the command exits at once, and leaves no bot behind), then do
    what the match asked to be done when interrupted (``on_interrupt``: write the results so far)."""
    for bot in list(_LIVE):
        with contextlib.suppress(OSError):
            os.killpg(bot.process.pid, signal.SIGKILL)
    _LIVE.clear()
    end_orphans()
    for action in list(_ON_INTERRUPT):
        with contextlib.suppress(Exception):
            action()
    _ON_INTERRUPT.clear()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (its handler then runs at once)."""
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def on_interrupt(action: Callable[[], None]) -> Iterator[None]:
    """While the block runs, ``action`` is done if the command is interrupted (``stop_bots``, from its handler)."""
    _ON_INTERRUPT.append(action)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            _ON_INTERRUPT.remove(action)


@dataclass
class Record:
    """One bot's results over a match."""

    name: str
    command: tuple[str, ...]
    games: int = 0
    wins: int = 0
    points: int = 0
    moves: int = 0
    illegal: int = 0
    timeouts: int = 0
    crashes: int = 0
    left: bool = False
    notes: list[str] = field(default_factory=list)

    def note(self, game: int, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(f"game {game}: {text}")

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate (0 to 1 with no game)."""
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "name": self.name,
            "command": list(self.command),
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else None,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "points": self.points,
            "moves": self.moves,
            "illegal_moves": self.illegal,
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "left_match": self.left,
            "problems": self.notes,
        }


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games`` (95% by default): sound at 0 and at every win."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _line(message: dict[str, Any]) -> bytes:
    """One message of the protocol: a line of compact JSON."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def _legal(decision: Decision) -> list[str]:
    """A decision's answers as a bot writes them: its moves, and ``wait`` when it may let the chance go."""
    return [str(move) for move in decision.moves] + (["wait"] if decision.optional else [])


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min" if seconds >= 3600 else f"{seconds // 60} min {seconds % 60:02d} s"


def program_of(command: Sequence[str]) -> str:
    """The program a bot's command line runs, for its name: the module of ``python3 -m my.bot`` (``bot``), the first
    argument that is a file (``node bot.js``, ``bash x.sh``, ``python3 greedy.py``), else the command itself."""
    if not command:
        return ""
    if "-m" in command[:-1]:
        return command[command.index("-m") + 1].rsplit(".", 1)[-1]
    for part in command[1:]:
        if not part.startswith("-") and ("/" in part or Path(part).suffix):
            return Path(part).stem
    return Path(command[0]).stem


def bot_names(commands: Sequence[Sequence[str]], given: Sequence[str | None] = ()) -> list[str]:
    """A log name for each bot: the one given (``NAME=COMMAND``), else from its program (``program_of``); the same
    program twice gets ``_2``, ``_3``; a name a log cannot hold becomes ``bot1``, ``bot2`` ... A name given twice, or
    one a log cannot hold, is a ``ValueError``."""
    chosen = [name for name in given if name]
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"two bots are named {next(name for name in chosen if chosen.count(name) > 1)}")
    if chosen:
        check_names(chosen)
    names: list[str] = []
    for number, command in enumerate(commands, start=1):
        name_given = given[number - 1] if number - 1 < len(given) else None
        if name_given:
            names.append(name_given)
            continue
        stem = re.sub(r"[^A-Za-z0-9_]", "_", program_of(command))[:24]
        name = stem if stem[:1].isalpha() else f"bot{number}"
        base, count = name, 1
        while name in names or name in chosen:
            count += 1
            name = f"{base}_{count}"
        try:
            check_names([*names, name])
        except ValueError:
            name = f"bot{number}"
        names.append(name)
    return names


def fallback(decision: Decision) -> Move | None:
    """What the table does for a bot that gave no legal answer: wait when it may; else draw, or pass, as the rules
    allow; else the first legal move (a colour, a swap: the rules demand one)."""
    if decision.optional:
        return None
    for verb in (Verb.DRAWS.value, Verb.PASSES.value):
        for move in decision.moves:
            if move.verb == verb:
                return move
    return decision.moves[0]


class Match:
    """N games among the same bots: seats and the dealer rotate; every game is written as a full-mode log."""

    def __init__(
        self,
        spec: str | Path,
        commands: Sequence[Sequence[str]],
        games: int,
        seed: int,
        move_timeout: float,
        target: int | None = None,
        on_game: Callable[[int, str, Table], None] | None = None,
        max_moves: int = MAX_MOVES,
        spec_line: str | None = None,
        names: Sequence[str | None] = (),
        stderr_dir: Path | None = None,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.spec = spec
        self.sandbox = sandbox  # where the bots run (referee.play.sandbox); None: bare
        self.spec_line = spec_line  # what the logs' spec line says (a copy of a spec file beside them)
        self.commands = [tuple(command) for command in commands]
        self.games = games
        self.seed = seed
        self.move_timeout = move_timeout
        self.target = target
        self.on_game = on_game
        self.names = bot_names(self.commands, names)
        self.stderr_dir = stderr_dir
        self.done = 0  # games finished
        self.started = time.monotonic()  # when the match began (run sets it again as the bots start)
        self.records = {name: Record(name, command) for name, command in zip(self.names, self.commands, strict=True)}
        self.bots: dict[str, Bot] = {}
        self.max_moves = max_moves
        self.unfinished: list[dict[str, Any]] = []  # games stopped unfinished, won by nobody: {"game", "reason", "moves"}
        self.moves = 0
        self.seconds = 0.0
        self.sent: dict[str, tuple[int, int]] = {}  # by bot: the round and how many of its history lines it was sent
        self.told: dict[str, int] = {}  # by bot: messages wanting no answer sent since its last decision

    def run(self) -> None:
        """Start the bots, play the games, stop the bots (also when interrupted)."""
        adopt_orphans()
        started = time.monotonic()
        try:
            for name, command in zip(self.names, self.commands, strict=True):
                try:
                    kept = self.stderr_dir / f"{name}.stderr" if self.stderr_dir is not None else None
                    self.bots[name] = Bot(name, command, kept, self.sandbox)
                except OSError as error:
                    shown = escape(" ".join(command))
                    raise UsageError(f"bot {name}: cannot start '{shown}': {error.strerror or error}") from None
            self.started = started
            for number in range(self.games):
                self._game(number)
        finally:
            for bot in self.bots.values():
                bot.stop()
            end_orphans()
            if self.sandbox is not None:
                self.sandbox.close()
            self.seconds = time.monotonic() - started

    def _game(self, number: int) -> None:
        shift = number % len(self.names)
        seats = self.names[shift:] + self.names[:shift]  # seats rotate; the dealer is the last seat, so it rotates too
        table = Table(self.spec, seats, seed=self.seed + number, target=self.target, spec_line=self.spec_line)
        self.sent.clear()
        told = 0
        stopped: str | None = None
        while (decision := table.decision()) is not None:
            told = self._tell_rounds(number + 1, table, told)  # a round just ended: every bot hears how
            if table.moves >= self.max_moves:  # bots that never finish (always drawing, say) do not hold the match up
                stopped = "max-moves"
                break
            choosing = [name for name in seats if not self.records[name].left]  # the others' moves are fallbacks
            if table.game.is_blocked(choosing):  # no move can change the position: nobody can ever win this round
                stopped = "blocked"
                break
            self._decide(number + 1, table, decision)
        self._tell_rounds(number + 1, table, told)
        game = table.game
        winner = game.winner
        winners = sorted(set(winner) if isinstance(winner, list) else {winner} if winner is not None else set())
        self._tell(number + 1, {"protocol": PROTOCOL, "phase": "game-over", "scores": game.scores, "winners": winners, "stopped": stopped})
        log = game.log()
        if stopped is not None:  # the log stays one check accepts: it ends unfinished, and says why
            why = "no move can change the position any more" if stopped == "blocked" else f"{self.max_moves} moves played"
            log += f"# stopped by the host: {stopped} ({why}); nobody wins this game\n"
        with _signals_held():  # the game counts in the results, and its log is written, or neither (Ctrl-C: partial)
            if stopped is not None:
                self.unfinished.append({"game": number + 1, "reason": stopped, "moves": table.moves})
            for name in seats:  # a shared win counts for each winner
                record = self.records[name]
                record.games += 1
                record.points += game.scores[name]
                if name in winners:
                    record.wins += 1
            self.done = number + 1
            if self.on_game is not None:
                self.on_game(number, log, table)

    def _tell_rounds(self, number: int, table: Table, told: int) -> int:
        """Tell every bot how each round ended since the first ``told`` of them; how many are told now."""
        for ended in table.ended[told:]:
            self._tell(number, {"protocol": PROTOCOL, "phase": "round-over", **ended.to_json()})
        return len(table.ended)

    def _tell(self, number: int, message: dict[str, Any]) -> None:
        """Send every bot still in the match a message that wants no answer (how a round or the game ended)."""
        data = _line(message)
        for name, bot in self.bots.items():
            record = self.records[name]
            if record.left:
                continue
            try:
                bot.tell(data, self.move_timeout)
            except BotGone as gone:
                self._gone(number, record, bot, gone)
                continue
            self.told[name] = self.told.get(name, 0) + 1

    def _gone(self, number: int, record: Record, bot: Bot, gone: BotGone) -> None:
        if gone.kind == "timeout":
            record.timeouts += 1
        else:
            record.crashes += 1
        record.left = True
        record.note(number, f"{gone}; left the match")
        bot.stop()

    def _message(self, table: Table, decision: Decision, since: int | None = None) -> bytes:
        """The decision's message: the view, with the round's history lines the bot has not been sent yet (all of
        them when ``since`` is 0: a new round, or the bot asked with ``history``)."""
        name = decision.player
        game = table.game
        round_number = len(table.ended) + 1
        sent_round, sent = self.sent.get(name, (0, 0))
        if since is None:
            since = sent if sent_round == round_number else 0
        view = game.view(name, since=since)
        self.sent[name] = (round_number, since + len(view.history))
        data = view.to_json()
        data["history_from"] = since
        return _line({"protocol": PROTOCOL, "phase": "playing", "you": name, "view": data, "legal": _legal(decision)})

    def _decide(self, number: int, table: Table, decision: Decision) -> None:
        name = decision.player
        record = self.records[name]
        bot = self.bots.get(name)
        move: Move | None = None
        answered = False
        if bot is not None and not record.left:
            try:
                answer = self._answer(bot, table, decision)
            except BotGone as gone:
                why = bot.could_not_start() if gone.kind == "crash" else None
                if why is not None:  # a missing script, a wrong interpreter: the match cannot be played as asked
                    hint = (
                        "" if self.sandbox is None or not self.sandbox.active else _ROOT_HINT if self.sandbox.privileged else _SANDBOX_HINT
                    )
                    raise UsageError(f"bot {name} could not start: '{escape(' '.join(bot.command))}' {why}{hint}") from None
                self._gone(number, record, bot, gone)
            else:
                record.moves += 1
                answered, move = self._read(answer, decision, table)
                if not answered:
                    record.illegal += 1
                    record.note(number, f"illegal answer '{escape(answer[:120])}'")
        if not answered:
            move = fallback(decision)
        if move is None:
            table.wait()
        else:
            table.play(move)
            self.moves += 1

    def _answer(self, bot: Bot, table: Table, decision: Decision) -> str:
        """Ask ``bot`` for the decision and read its answer. ``history`` asks for the round's whole history: the
        message is sent again with it (once). A bot told something since its last decision may have answered that
        too (a bot of protocol 1 answers every line): a first line that is not a legal answer is then taken for such
        a reply if another line follows within ``STRAY_GRACE`` seconds."""
        legal = _legal(decision)
        answer = bot.ask(self._message(table, decision), self.move_timeout)
        if answer == "history":
            answer = bot.ask(self._message(table, decision, since=0), self.move_timeout)
        if self.told.pop(bot.name, 0) and answer not in legal:
            with contextlib.suppress(BotGone):
                answer = bot.read_line(time.monotonic() + min(STRAY_GRACE, self.move_timeout))
        return answer

    @staticmethod
    def _read(answer: str, decision: Decision, table: Table) -> tuple[bool, Move | None]:
        """Whether the answer is one of the decision's moves (or a wait it may make), and the move."""
        if answer == "wait":
            return decision.optional, None
        try:
            move = table.game.parse(answer)
        except MoveError:
            return False, None
        return (move in decision.moves), move

    def progress_text(self) -> str:
        """One line for a terminal: games done, moves per second, the time left at this pace."""
        done = max(self.done, 1)
        elapsed = max(time.monotonic() - self.started, 1e-9)
        left = elapsed / done * (self.games - done)
        return f"{done}/{self.games} games, {self.moves / elapsed:,.0f} moves/s, about {_duration(left)} left"

    def results(self, partial: bool = False) -> dict[str, Any]:
        """The match's results (``partial``: interrupted, with the games finished so far)."""
        if partial:
            self.seconds = time.monotonic() - self.started
        return {
            "protocol": PROTOCOL,
            "partial": partial,
            "games_finished": self.done,
            "spec": str(self.spec),
            "games": self.games,
            "seed": self.seed,
            "move_timeout": self.move_timeout,
            "moves": self.moves,
            "max_moves": self.max_moves,
            "unfinished": self.unfinished,
            "seconds": round(self.seconds, 3),
            "bots": [self.records[name].to_json() for name in self.names],
        }

    def table_text(self) -> str:
        """The results as a table for people: one row per bot."""
        header = ("bot", "games", "wins", "win rate (95%)", "points", "illegal", "timeouts", "crashes")
        rows = [header]
        for name in self.names:
            record = self.records[name]
            low, high = record.interval()
            rate = f"{record.wins / record.games:.0%} ({low:.0%}-{high:.0%})" if record.games else "-"
            left = " (left)" if record.left else ""
            rows.append(
                (
                    escape(name) + left,
                    str(record.games),
                    str(record.wins),
                    rate,
                    str(record.points),
                    str(record.illegal),
                    str(record.timeouts),
                    str(record.crashes),
                )
            )
        widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
        return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows) + "\n"
