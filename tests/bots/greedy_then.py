"""A bot that plays its first decision, then uses too much of something, for tests/test_sandbox.py:
python3 greedy_then.py WAY MARKER.

WAY is ``fork`` (processes without end, each sleeping), ``memory`` (allocations without end), ``file`` (one file
that grows without end), ``disk`` (files without end in its /tmp), ``cpu`` (a loop that never ends) or ``files``
(open files without end). MARKER is on the command line of the bot and of every process it forks, so that a test can
look for what is left running. A limit of its sandbox stops it; it never answers again.
"""

import json
import os
import sys
import time

way = sys.argv[1]


def forever() -> None:
    if way == "fork":
        while True:
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
    elif way == "memory":
        held = []
        while True:
            held.append(bytearray(16 << 20))
    elif way == "file":
        with open("/tmp/huge", "wb") as huge:
            while True:
                huge.write(b"x" * (1 << 20))
    elif way == "disk":
        number = 0
        while True:
            number += 1
            with open(f"/tmp/part-{number}", "wb") as part:
                part.write(b"x" * (256 << 10))
    elif way == "cpu":
        while True:
            pass
    elif way == "files":
        held = []
        while True:
            held.append(open("/dev/null"))  # noqa: SIM115 - held open on purpose


decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if "legal" not in message:
        continue
    decisions += 1
    if decisions == 2:
        forever()
    print(next(move for move in message["legal"] if move != "wait"), flush=True)
