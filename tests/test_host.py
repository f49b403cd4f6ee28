"""referee play: bots play whole matches; every log checks valid; misbehaving bots are recorded and the match ends."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.play.host import bot_names, wilson

from helpers import REFEREE, run_referee

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "examples" / "bots"
RANDOM = f"{sys.executable} {BOTS / 'random_bot.py'} 1"
GREEDY = f"{sys.executable} {BOTS / 'greedy_bot.py'}"
MISBEHAVING = Path(__file__).resolve().parent / "bots" / "misbehaving.py"


def referee(*args: str, timeout: float = 600, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if args[:1] == ("play",) and {"BOT_RECORD", "BOT_PIDS"} & set(env or {}):  # bots that write outside: run them bare
        args = ("play", "--no-sandbox", *args[1:])
    if args[:1] == ("play",) and "--seed" not in args:  # the same games at every run (the default seed is random)
        args = ("play", "--seed", "0", *args[1:])
    return run_referee(*args, text=True, timeout=timeout, env=env or {})


def bad(way: str, good: int = 3) -> str:
    return f"{sys.executable} {MISBEHAVING} {way} {good}"


def _match(tmp_path: Path, *bots: str, games: int = 3, spec: str = "uno", extra: tuple[str, ...] = ()) -> dict[str, dict[str, object]]:
    out = tmp_path / "match"
    result = referee("play", "--spec", spec, "--games", str(games), "--out", str(out), "--target", "100", *extra, *bots)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    logs = sorted(out.glob("game-*.log"))
    assert [log.name for log in logs] == [f"game-{number:03d}.log" for number in range(1, games + 1)]
    checked = referee("check", str(out))
    assert checked.returncode == 0, checked.stdout
    assert f"{games} log{'s' if games != 1 else ''} checked: {games} valid, 0 with errors" in checked.stdout
    results = json.loads((out / "results.json").read_text())
    assert results["protocol"] == 2 and results["games"] == games
    return {bot["name"]: bot for bot in results["bots"]}


def test_two_example_bots_play_and_every_log_checks_valid(tmp_path: Path) -> None:
    out = tmp_path / "match"
    result = referee("play", "--spec", "uno-flip", "--games", "4", "--out", str(out), "--target", "100", RANDOM, GREEDY)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["bot", "games", "wins", "win", "rate", "(95%)", "points", "illegal", "timeouts", "crashes"]
    assert lines[1].startswith("random_bot ") and lines[2].startswith("greedy_bot ")
    assert lines[3].startswith(f"4 games in {out}: ") and lines[3].endswith(" moves/s")
    assert referee("check", str(out)).returncode == 0
    results = json.loads((out / "results.json").read_text())
    bots = {bot["name"]: bot for bot in results["bots"]}
    assert sum(bot["wins"] for bot in bots.values()) == 4
    for bot in bots.values():
        assert bot["games"] == 4 and bot["illegal_moves"] == bot["timeouts"] == bot["crashes"] == 0
        low, high = bot["win_rate_95"]
        assert low <= bot["win_rate"] <= high
    first = (out / "game-001.log").read_text().splitlines()
    second = (out / "game-002.log").read_text().splitlines()
    assert first[0] == "players random_bot greedy_bot" and second[0] == "players greedy_bot random_bot"  # seats rotate


def test_bots_play_a_match_under_forced_play(tmp_path: Path) -> None:
    """The host offers a seat only its legal moves: under forced play a playable card drawn is played, so every log
    of the match checks valid under house-forced-play (which _match asserts)."""
    bots = _match(tmp_path, RANDOM, GREEDY, games=2, spec="house-forced-play")
    assert bots["greedy_bot"]["illegal_moves"] == bots["random_bot"]["illegal_moves"] == 0


def test_bots_play_a_match_under_doubles(tmp_path: Path) -> None:
    """Under doubles the host offers the plays of identical number cards too, and every log checks valid."""
    bots = _match(tmp_path, RANDOM, GREEDY, games=2, spec="house-doubles")
    assert bots["greedy_bot"]["illegal_moves"] == bots["random_bot"]["illegal_moves"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["uno", "uno-flip"])
def test_a_hundred_games_of_the_example_bots_all_check_valid(tmp_path: Path, spec: str) -> None:
    bots = _match(tmp_path, RANDOM, GREEDY, games=100, spec=spec, extra=("--target", "500"))
    assert bots["greedy_bot"]["wins"] + bots["random_bot"]["wins"] == 100


@pytest.mark.parametrize(
    ("way", "counter", "left"),
    [
        ("garbage", "illegal_moves", False),
        ("other", "illegal_moves", False),
        ("sleep", "timeouts", True),
        ("exit", "crashes", True),
        ("close", "crashes", True),
        ("long", "crashes", True),
        ("long60k", "crashes", True),  # issue 29, point 9: a long line read in one piece is no illegal move
        ("crash", "crashes", True),
    ],
)
def test_a_misbehaving_bot_is_recorded_and_the_match_ends(tmp_path: Path, way: str, counter: str, left: bool) -> None:
    bots = _match(tmp_path, bad(way), RANDOM, games=2, extra=("--move-timeout", "1"))
    culprit, other = bots["misbehaving"], bots["random_bot"]
    # in the sandbox a bot that closes its output but runs on is silent, not gone: its sandbox holds the pipe too
    counted = culprit[counter] + (culprit["timeouts"] if way == "close" else 0)
    assert counted >= 1 and culprit["left_match"] is left
    if left:
        assert counted == 1  # asked no more once it left
    assert culprit["problems"] and culprit["problems"][0].startswith("game 1: ")
    assert other["illegal_moves"] == other["timeouts"] == other["crashes"] == 0
    assert culprit["games"] == other["games"] == 2


def test_the_protocol_messages(tmp_path: Path) -> None:
    record = tmp_path / "messages.jsonl"
    result = referee(
        "play",
        "--spec",
        "uno-flip",
        "--games",
        "1",
        "--out",
        str(tmp_path / "recorded"),
        "--target",
        "200",
        bad("record"),
        GREEDY,
        RANDOM,
        env={"BOT_RECORD": str(record)},
    )
    assert result.returncode == 0, result.stderr
    every = [json.loads(line) for line in record.read_text().splitlines()]
    assert every and all(message["protocol"] == 2 for message in every)
    news = [message for message in every if message["phase"] != "playing"]
    messages = [message for message in every if message["phase"] == "playing"]
    assert every[-1]["phase"] == "game-over" and [message["phase"] for message in news].count("game-over") == 1
    rounds = [message for message in news if message["phase"] == "round-over"]
    assert [message["round"] for message in rounds] == list(range(1, len(rounds) + 1))
    assert every[-1]["scores"] == rounds[-1]["scores"] and every[-1]["winners"] == [rounds[-1]["winner"]]
    for ended in rounds:
        assert ended["shown"][ended["winner"]] == [] and ended["points"] == sum(
            ended["scores"][ended["winner"]] - previous for previous in [_before(rounds, ended)]
        )
    waits = 0
    kept: dict[int, int] = {}  # by round: history lines received so far
    for message in messages:
        assert set(message) == {"protocol", "phase", "you", "view", "legal"}
        you, view, legal = message["you"], message["view"], message["legal"]
        assert view["history_from"] == kept.get(view["round"], 0)  # the pieces join up, round by round
        kept[view["round"]] = view["history_from"] + len(view["history"])
        assert view["player"] == you == "misbehaving"
        assert all(move == "wait" or move.startswith(f"{you} ") for move in legal)
        waits += "wait" in legal
        for other in view["players"]:
            if other != you:
                assert len(view["backs"][other]) == view["hand_sizes"][other]
                assert all("/" not in face for face in view["backs"][other])
        assert len(view["hand"]) == view["hand_sizes"][you]
    assert waits > 0, "no out-of-turn chance in a whole game"


def test_a_bot_that_cannot_start_is_an_error(tmp_path: Path) -> None:
    result = referee("play", "--spec", "uno", "--games", "1", "--out", str(tmp_path / "m"), "no-such-program-here", RANDOM)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: bot no_such_program_here: cannot start 'no-such-program-here': No such file or directory"]


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ((RANDOM,), "spec uno is for 2 to 10 players (one bot each), not 1 bot"),
        (("'unclosed",), "No closing quotation"),
        (("",), "a bot is a command line, not an empty string"),
    ],
)
def test_bad_bot_lines_are_usage_errors(tmp_path: Path, bots: tuple[str, ...], message: str) -> None:
    second = (RANDOM,) if len(bots) == 1 and bots[0] != RANDOM else ()  # one bot is too few: only the first case
    result = referee("play", "--spec", "uno", "--out", str(tmp_path / "m"), *bots, *second)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and message in result.stderr.splitlines()[0]


def test_ctrl_c_stops_the_match_and_every_bot_at_once(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    process = subprocess.Popen(
        [*REFEREE, "play", "--no-sandbox", "--spec", "uno", "--out", str(tmp_path / "m"), "--move-timeout", "600"]
        + [bad("sleep", 0), bad("sleep", 0)],
        env={**os.environ, "BOT_PIDS": str(pids)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=10)
    assert process.returncode == 130, errors
    assert time.monotonic() - started < 5
    for pid in (int(path.name) for path in pids.iterdir()):
        deadline = time.monotonic() + 5
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(pid), f"bot {pid} still runs"


def _gone(pid: int) -> bool:
    """No such process, or only its exit status left for a parent to collect (a zombie: it runs no more)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_bot_names_come_from_their_programs() -> None:
    assert bot_names([["python3", "bots/greedy.py"], ["python3", "bots/greedy.py"], ["./my-bot"], ["python3", "-c", "x"]]) == [
        "greedy",
        "greedy_2",
        "my_bot",
        "python3",
    ]
    assert bot_names([["python3", "9lives.py"], ["red"]]) == ["bot1", "bot2"]  # a digit first; a reserved word
    # issue 28, point 5: the script for any interpreter, a module's last part, and names given as NAME=COMMAND
    assert bot_names([["node", "bots/fast.js"], ["bash", "x.sh"], ["python3", "-m", "my.champion"], ["java", "-jar", "b.jar"]]) == [
        "fast",
        "x",
        "champion",
        "b",
    ]
    assert bot_names([["python3", "a.py"], ["python3", "a.py"]], ["a", None]) == ["a", "a_2"]
    with pytest.raises(ValueError, match="two bots are named champ"):
        bot_names([["x"], ["y"]], ["champ", "champ"])


def test_a_bot_named_on_the_command_line_keeps_its_standard_error(tmp_path: Path) -> None:
    out, kept = tmp_path / "m", tmp_path / "stderr"
    script = f"import sys, runpy; sys.stderr.write('thinking hard\\n'); runpy.run_path('{BOTS / 'random_bot.py'}', run_name='__main__')"
    noisy = f'{sys.executable} -c "{script}"'
    result = referee(
        "play",
        "--spec",
        "uno",
        "--games",
        "1",
        "--target",
        "50",
        "--out",
        str(out),
        "--bot-stderr",
        str(kept),
        "--bot-file",  # the sandbox shows a bot only the files its command names as arguments, and these
        f"noisy={BOTS / 'random_bot.py'}",
        f"champ={GREEDY}",
        f"noisy={noisy}",
    )
    assert result.returncode == 0, result.stderr
    assert [bot["name"] for bot in json.loads((out / "results.json").read_text())["bots"]] == ["champ", "noisy"]
    assert "players champ noisy" in (out / "game-001.log").read_text()
    assert (kept / "noisy.stderr").read_text() == "thinking hard\n" and (kept / "champ.stderr").read_text() == ""
    one = referee("play", "--spec", "uno", "--out", str(tmp_path / "one"), GREEDY)
    assert one.returncode == 2 and "is for 2 to 10 players (one bot each), not 1 bot\n" in one.stderr


@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_match_writes_the_games_finished_so_far(tmp_path: Path, sent: signal.Signals, code: int) -> None:
    """Issue 28, point 4: Ctrl-C or SIGTERM: every bot stopped, results.json with the games finished, marked partial."""
    out = tmp_path / "m"
    process = subprocess.Popen(
        [*REFEREE, "play", "--spec", "uno", "--games", "500", "--target", "50", "--out", str(out), GREEDY, RANDOM],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not (out / "game-002.log").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(sent)
    output, errors = process.communicate(timeout=20)
    assert process.returncode == code and errors == b"" and output == b""
    results = json.loads((out / "results.json").read_text())
    finished = len(list(out.glob("game-*.log")))
    assert results["partial"] is True and results["games_finished"] == finished >= 2
    assert sum(bot["games"] for bot in results["bots"]) == 2 * finished


def _before(rounds: list[dict[str, object]], ended: dict[str, object]) -> int:
    """The round winner's total before ``ended`` (0 before the first round)."""
    index = rounds.index(ended)
    return 0 if index == 0 else rounds[index - 1]["scores"][ended["winner"]]  # type: ignore[index]


def test_a_long_game_costs_the_same_per_decision(tmp_path: Path) -> None:
    """Issue 28, point 1: the messages of a 3,000-move game do not grow: the history comes in pieces."""
    record = tmp_path / "messages.jsonl"
    out = tmp_path / "m"
    result = referee(
        "play",
        "--spec",
        "uno",
        "--games",
        "1",
        "--max-moves",
        "3000",
        "--out",
        str(out),
        bad("stall"),
        bad("record"),
        env={"BOT_RECORD": str(record)},
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in record.read_text().splitlines() if '"phase":"playing"' in line]
    early, late = max(len(line) for line in lines[:200]), max(len(line) for line in lines[-200:])
    assert late < 2 * early + 4000, (early, late)  # a hand may grow: the deck bounds it, not the game's length
    assert all(len(json.loads(line)["view"]["history"]) <= 12 for line in lines[-200:])


def test_a_bot_may_ask_for_the_whole_history(tmp_path: Path) -> None:
    """It answers 'history' once a round: the same decision comes again with the round's whole record."""
    record = tmp_path / "messages.jsonl"
    out = tmp_path / "m"
    result = referee(
        "play",
        "--spec",
        "uno",
        "--games",
        "1",
        "--target",
        "100",
        "--out",
        str(out),
        bad("history"),
        RANDOM,
        env={"BOT_RECORD": str(record)},
    )
    assert result.returncode == 0, result.stderr
    bot = json.loads((out / "results.json").read_text())["bots"][0]
    assert bot["illegal_moves"] == 0 and bot["timeouts"] == 0
    messages = [json.loads(line) for line in record.read_text().splitlines() if '"phase":"playing"' in line]
    again = [
        (first, second)
        for first, second in zip(messages, messages[1:], strict=False)
        if first["view"]["history_from"] > 0 and second["view"]["history_from"] == 0 and first["legal"] == second["legal"]
    ]
    assert again, "no decision was sent again with the whole history"
    for first, second in again:
        if first["view"]["history"]:
            assert second["view"]["history"][-len(first["view"]["history"]) :] == first["view"]["history"]
        assert len(second["view"]["history"]) == first["view"]["history_from"] + len(first["view"]["history"])


def test_a_protocol_1_bot_that_answers_every_line_stays_in_step(tmp_path: Path) -> None:
    """It answers the news with an empty line: never an illegal move, never out of step, over several rounds."""
    bots = _match(tmp_path, bad("v1"), RANDOM, games=2)
    assert bots["misbehaving"]["illegal_moves"] == 0 and bots["misbehaving"]["crashes"] == 0


def test_a_game_no_move_can_change_is_stopped_as_blocked(tmp_path: Path) -> None:
    """Issue 28, point 2: both bots leave the match; their seats' fallbacks draw the deck and pass forever."""
    out = tmp_path / "m"
    result = referee("play", "--spec", "uno", "--games", "2", "--out", str(out), bad("exit", 1), bad("exit", 1), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "stopped as blocked (no move could change the position), won by nobody: games 1, 2" in result.stdout
    results = json.loads((out / "results.json").read_text())
    assert [(stop["game"], stop["reason"]) for stop in results["unfinished"]] == [(1, "blocked"), (2, "blocked")]
    assert all(stop["moves"] < 1000 for stop in results["unfinished"])
    log = (out / "game-001.log").read_text()
    assert log.endswith("# stopped by the host: blocked (no move can change the position any more); nobody wins this game\n")
    checked = referee("check", str(out))
    assert checked.returncode == 0 and "2 logs checked: 2 valid" in checked.stdout


def test_the_win_rate_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0


def test_every_field_of_a_message_and_of_the_results_is_documented(tmp_path: Path) -> None:
    text = re.sub(r"^```.*$", "", (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    documented = {part for code in re.findall(r"`([^`]+)`", text) for part in re.split(r"[\s|:=,.\[\]{}\"]+", code)}
    record = tmp_path / "messages.jsonl"
    out = tmp_path / "m"
    arguments = ("play", "--spec", "uno-flip", "--games", "1", "--target", "30", "--out", str(out), bad("record"), GREEDY)
    result = referee(*arguments, env={"BOT_RECORD": str(record)})
    assert result.returncode == 0, result.stderr
    every = [json.loads(line) for line in record.read_text().splitlines()]
    message = next(message for message in reversed(every) if message["phase"] == "playing")
    fields = set(message) | set(message["view"])
    fields |= {key for seen in message["view"]["history"] for key in seen} | {key for owed in message["view"]["owed"] for key in owed}
    fields |= {key for news in every if news["phase"] != "playing" for key in news}
    results = json.loads((out / "results.json").read_text())
    fields |= set(results) | set(results["bots"][0])
    stopped = referee("play", "--spec", "uno", "--games", "1", "--max-moves", "50", "--json", "--out", str(tmp_path / "s"), GREEDY, GREEDY)
    fields |= {key for stop in json.loads(stopped.stdout)["unfinished"] for key in stop}
    assert not sorted(fields - documented), f"docs/protocol.md does not document: {sorted(fields - documented)}"


def test_a_folder_with_an_earlier_match_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "m"
    out.mkdir()
    (out / "game-001.log").write_text("players Ann Bob\n")
    result = referee("play", "--spec", "uno", "--out", str(out), RANDOM, GREEDY)
    assert result.returncode == 2
    assert result.stderr == f"{out}: error: already holds a match (game-001.log): give an empty or new folder\n"
    assert (out / "game-001.log").read_text() == "players Ann Bob\n" and not (out / "results.json").exists()


def test_a_game_that_never_ends_is_stopped_and_won_by_nobody(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = referee("play", "--spec", "uno", "--games", "2", "--max-moves", "300", "--out", str(out), bad("stall"), bad("stall"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2] == "stopped after 300 moves, won by nobody: games 1, 2"
    results = json.loads((out / "results.json").read_text())
    assert results["unfinished"] == [{"game": 1, "reason": "max-moves", "moves": 300}, {"game": 2, "reason": "max-moves", "moves": 300}]
    assert results["max_moves"] == 300
    assert all(bot["wins"] == 0 and bot["games"] == 2 for bot in results["bots"])
    checked = referee("check", str(out))
    assert checked.returncode == 0 and "2 logs checked: 2 valid" in checked.stdout
    assert "unfinished" in checked.stdout
