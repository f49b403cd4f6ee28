"""A bot that misbehaves on purpose, for tests/test_host.py: python3 misbehaving.py WAY [N].

WAY is what it does after N good answers (default 3; before that it answers the first legal move):
garbage (answers nonsense, then goes on answering nonsense), sleep (stops answering), exit (exits with status 3),
close (closes its output and waits), long (writes a line of 100,000 bytes), long60k (60,000), other (answers a legal move of another
player, then goes on), crash (raises an exception), record (never misbehaves), stall (always draws, passes or waits
when it can: a game never ends), hoard (as stall, and never plays: only passes, draws or waits; the first legal move
otherwise), v1 (a bot written for protocol 1 that answers every line it gets: an empty line to a message with no
legal moves), history (answers 'history' once a round, then as record). With BOT_RECORD set, every message
is appended to that file; with BOT_PIDS set, the bot leaves a file named after its process id in that folder.
"""

import json
import os
import sys
import time

way = sys.argv[1]
if os.environ.get("BOT_PIDS"):
    open(os.path.join(os.environ["BOT_PIDS"], str(os.getpid())), "w").close()
record = os.environ.get("BOT_RECORD")
good = int(sys.argv[2]) if len(sys.argv) > 2 else 3
answered = 0
asked_round: dict = {}
mode = way
if way in ("v1", "history"):  # otherwise they answer as record does
    way = "record"
while True:
    line = sys.stdin.readline()
    if not line:
        break
    message = json.loads(line)
    if record:
        with open(record, "a") as kept:
            kept.write(line)
    if "legal" not in message:  # round-over, game-over: news wanting no answer
        if mode == "v1":
            print("", flush=True)
        continue
    if mode == "history" and message["view"]["history_from"] and not asked_round.get(message["view"]["round"]):
        asked_round[message["view"]["round"]] = True
        print("history", flush=True)
        continue
    if way == "stall":
        stalls = [move for move in message["legal"] if move == "wait" or move.split()[1:2] in (["draws"], ["passes"])]
        print((stalls or message["legal"])[0], flush=True)
        continue
    if answered < good or way == "record":
        answered += 1
        print(next(move for move in message["legal"] if move != "wait"), flush=True)
        continue
    if way == "garbage":
        print("I fold; \x1b[31mred\x1b[0m", flush=True)
    elif way == "sleep":
        time.sleep(3600)
    elif way == "exit":
        sys.exit(3)
    elif way == "close":
        os.close(1)
        time.sleep(3600)
    elif way == "long":
        print("x" * 100_000, flush=True)
    elif way == "long60k":  # a long line the host reads in one piece, newline and all
        print("x" * 60_000, flush=True)
    elif way == "other":
        me = message["you"]
        others = [name for name in message["view"]["players"] if name != me]
        print(f"{others[0]} draws", flush=True)
    elif way == "crash":
        raise RuntimeError("a bug in the bot")
