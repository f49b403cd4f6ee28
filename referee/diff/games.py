"""Games that show a difference: a log one spec accepts and the other rejects, the shortest the search finds.

The search plays random legal games under one compiled engine while the other engine follows every event; at each
decision it first makes a legal move the other engine would reject, if there is one, so the two part as early as the
game allows. Each game is then judged, whole, with the other engines as ``referee check`` does (the same reader and
replay). For one difference it uses three specs: the two compared, and
the middle one, the first spec with only that item taken from the second (``declared.transplant``). A game legal
under the middle spec that the first spec rejects at line K, while the second spec accepts it up to K, is kept to
line K: the second spec accepts it, the first rejects it, and the difference alone makes it so. The other way round,
a game legal under the first spec that the middle spec rejects at line K, and the second spec too, at that same
line. A difference that cannot be moved alone is searched between the two specs themselves.

Every game kept is judged once more, as written, by both specs' own compiled rules: what ``referee diff`` reports is
what ``referee check --spec`` says of the file.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable

from referee.checking.replay import Replay
from referee.engine.engine import Engine
from referee.engine.moves import legal_moves
from referee.log import events as ev
from referee.log.writer import format_event
from referee.records import dataclass
from referee.rules.compiler import Rules
from referee.verdicts import Diagnostic, FileVerdict

SEEDS = 400  # games tried per difference at most
PATIENCE = 60  # games tried after the shortest so far before the search settles for it
MAX_GAME_LINES = 20_000  # a game is cut here (a target of many rounds takes a few thousand lines)
_LONG_GAME_ITEMS = ("options.target", "options.scoring", ".points")  # shown only at a round's or the game's end


@dataclass(frozen=True, slots=True)
class Found:
    """A game the search found: its event lines (line 1 is left for a comment), which spec accepts it (0: the first,
    1: the second), the seat count and seed it was played with."""

    lines: tuple[str, ...]
    accepted_by: int
    players: int
    seed: int


def judge_game(text: str, rules: Rules, name: str = "game.log") -> FileVerdict:
    """What ``referee check`` says of this log under these rules (whatever spec line it has)."""
    return Replay(name, None, rules=rules).run(io.BytesIO(text.encode("utf-8")))


def first_error(verdict: FileVerdict) -> Diagnostic | None:
    return min(verdict.errors, key=lambda diagnostic: diagnostic.line) if verdict.errors else None


def _player_counts(simulated: Rules, other: Rules) -> list[int]:
    """Seat counts to play: those the other spec does not allow first (a difference in players shows at once), then
    small tables (short games)."""
    mine = range(simulated.spec.min_players, simulated.spec.max_players + 1)
    theirs = range(other.spec.min_players, other.spec.max_players + 1)
    outside = [count for count in mine if count not in theirs][:2]
    return outside or [count for count in (2, 3, 4) if count in mine] or [mine.start]


class _Parted(Exception):
    """Internal: the judging spec rejected the event just made."""


class Follower:
    """The judging spec's engine, fed each event the simulator makes under the playing spec (the events carry cards as
    text, so each engine reads them with its own catalogue), and asked, before each decision, which legal move of the
    playing spec it would reject: the search steers to that move, so the two specs part as soon as they can."""

    def __init__(self, rules: Rules) -> None:
        self.engine = Engine(rules)
        self.parted: ev.Event | None = None

    def follow(self, playing: Engine, event: ev.Event) -> None:
        if self.engine.apply(event) is not None:
            self.parted = event
            raise _Parted

    def steer(self, playing: Engine) -> Callable[[int], ev.Event | None]:
        def rejected_move(line: int) -> ev.Event | None:
            if not self.engine.state.players:
                return None
            for move in legal_moves(playing, draw_cards=False):
                event = move.at_line(line)
                if self.engine.judge(event) is not None:
                    return event
            return None

        return rejected_move


def _played(rules: Rules, judging: Rules, players: int, seed: int, rounds: int, longest: int) -> list[str]:
    """The lines of one random legal game under ``rules``, steered towards a move ``judging`` rejects and cut at the
    first line ``judging`` rejects (line 1 is left for a comment); at most ``longest`` lines (then: none)."""
    from referee.play.simulate import Simulator

    follower = Follower(judging)
    simulator = Simulator(rules, players, seed, "full", max_rounds=rounds, on_step=follower.follow)
    simulator.optional_header = False
    simulator.steer = follower.steer(simulator.engine)
    lines = ["# referee diff"]
    try:
        for event in simulator.events():
            lines.append(format_event(event))
            if len(lines) >= longest:
                return []
    except _Parted:
        assert follower.parted is not None
        lines.append(format_event(follower.parted))
    return lines


class Search:
    """The search for one difference: ``first`` and ``second`` the specs compared, ``middle`` the first with the
    difference taken from the second (the second itself when it cannot be moved alone)."""

    def __init__(self, first: Rules, second: Rules, middle: Rules, item: str) -> None:
        self.first, self.second, self.middle = first, second, middle
        self.rounds = 40 if any(part in item for part in _LONG_GAME_ITEMS) else 3
        self.best: Found | None = None

    def run(self, deadline: float, seeds: int = SEEDS) -> Found | None:
        """The shortest game found before ``deadline`` (``time.monotonic()``), or None."""
        since_best = 0
        for seed in range(seeds):
            if time.monotonic() > deadline or (self.best is not None and since_best >= PATIENCE):
                break
            found = self._try(seed)
            since_best += 1
            if found is not None and (self.best is None or len(found.lines) < len(self.best.lines)):
                self.best, since_best = found, 0
        return self.best

    def _try(self, seed: int) -> Found | None:
        """One game: played under the middle spec (even seeds) or the first (odd), cut where the specs part."""
        playing, judging = (self.middle, self.first) if seed % 2 == 0 else (self.first, self.middle)
        counts = _player_counts(playing, judging)
        players = counts[(seed // 2) % len(counts)]
        longest = min(MAX_GAME_LINES, len(self.best.lines) if self.best is not None else MAX_GAME_LINES)
        if longest < 2:
            return None  # nothing shorter than one line
        try:
            lines = _played(playing, judging, players, seed, self.rounds, longest)
        except (AssertionError, ValueError, KeyError, IndexError):  # a middle spec the engine cannot play
            return None
        if not lines:
            return None
        parting = first_error(judge_game("\n".join(lines) + "\n", judging))
        if parting is None or not 2 <= parting.line <= len(lines):  # line 1 is the comment: a game parts on an event
            return None
        kept = lines[: parting.line]
        second = first_error(judge_game("\n".join(kept) + "\n", self.second))
        if seed % 2 == 0 and second is not None:
            return None  # the second spec parts from the middle one earlier: another difference shows first
        if seed % 2 == 1 and (second is None or second.line != parting.line):
            return None
        return Found(tuple(kept[1:]), 1 if seed % 2 == 0 else 0, players, seed)


def spelled_game(kind_key: str, rules: tuple[Rules, Rules], seeds: int = 40) -> Found | None:
    """A game for a kind's new spelling (``kinds.KIND.spellings``): a random legal game under the spec that has the
    spelling, up to the first play of a card of that kind, that play written with the spelling. The other spec
    reads no such card there: the two part on the line that uses the spelling. None when no game of ``seeds``
    plays the kind (a kind that never arises); of those found, the shortest."""
    from referee.cards import face_token
    from referee.play.simulate import Simulator

    kinds = [next((kind for kind in r.spec.kinds if r.spec.root_name(kind.name) == kind_key), None) for r in rules]
    if kinds[0] is None or kinds[1] is None:
        return None
    extra = [sorted(set(kinds[i].spellings) - set(kinds[1 - i].spellings)) for i in (0, 1)]  # type: ignore[union-attr]
    accepting = 1 if extra[1] else 0
    if not extra[accepting]:
        return None
    playing, kind, spelling = rules[accepting], kinds[accepting].name, extra[accepting][0]  # type: ignore[union-attr]
    best: Found | None = None
    for seed in range(seeds):
        players = (2, 3, 4)[seed % 3]
        if not playing.spec.min_players <= players <= playing.spec.max_players:
            continue
        lines: list[str] = []
        simulator = Simulator(playing, players, seed, "full", max_rounds=1)
        simulator.optional_header = False
        for event in simulator.events():
            lines.append(format_event(event))
            if isinstance(event, ev.Play):
                card = playing.catalogue.card(event.card)
                face = None if card is None else next((f for f in card.faces if f.kind == kind), None)
                if face is not None:
                    lines[-1] = _respelled(lines[-1], face_token(face.colour, kind, None), face_token(face.colour, spelling, None))
                    if best is None or len(lines) < len(best.lines):
                        best = Found(tuple(lines), accepting, players, seed)
                    break
            if len(lines) > MAX_GAME_LINES or (best is not None and len(lines) >= len(best.lines)):
                break
    return best


def _respelled(line: str, canonical: str, spelled: str) -> str:
    """A line with a face written ``canonical`` (alone, or as one side of a card ``LIGHT/DARK``) written ``spelled``."""
    return " ".join("/".join(spelled if part == canonical else part for part in word.split("/")) for word in line.split(" "))
