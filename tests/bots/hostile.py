"""A hostile bot, for tests/test_sandbox.py: python3 hostile.py MATCH_FOLDER WRITABLE_FOLDER MARKER [gentle].

On its first decision it tries what a bot must not be able to do, says on standard error (one JSON line) what
worked, then plays the first legal move like an honest bot: read the host's command line and the other processes'
pipes through /proc, write into another bot's output, plant a link in the match folder, write outside its own
folder, and leave a process behind (double fork, setsid) whose command line holds MARKER. Its own pipes (which the
sandbox's first process holds too) are not another's. ``gentle`` leaves other processes' pipes alone (run bare, the
bot would read and write every process of the user's, the test runner's included).
"""

import json
import os
import sys
import time

match_folder, writable, marker = sys.argv[1], sys.argv[2], sys.argv[3]
gentle = sys.argv[4:] == ["gentle"]


def attack() -> dict:
    me = os.getpid()
    others = [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != me]
    found = {"processes": len(others), "host_seen": False, "fd_read": 0, "fd_written": 0}
    own = {os.fstat(0).st_ino, os.fstat(1).st_ino}
    for pid in others:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as stream:
                if b"referee\0play" in stream.read():  # the host: python -m referee play ...
                    found["host_seen"] = True
        except OSError:
            pass
        for fd, mode in ((0, os.O_RDONLY | os.O_NONBLOCK), (1, os.O_WRONLY | os.O_NONBLOCK)):
            try:
                if gentle or os.stat(f"/proc/{pid}/fd/{fd}").st_ino in own:
                    continue
                handle = os.open(f"/proc/{pid}/fd/{fd}", mode)
            except OSError:
                continue
            try:
                if fd == 0:
                    os.read(handle, 100)
                    found["fd_read"] += 1
                else:
                    os.write(handle, b"x" * 5000 + b"\n")
                    found["fd_written"] += 1
            except OSError:
                pass
            finally:
                os.close(handle)
    try:
        os.symlink("/etc/passwd", os.path.join(match_folder, "game-002.log"))
        found["planted"] = True
    except OSError:
        found["planted"] = False
    try:
        with open(os.path.join(writable, "escaped.txt"), "w") as stream:
            stream.write("out")
        found["wrote_outside"] = True
    except OSError:
        found["wrote_outside"] = False
    if os.fork() == 0:  # the orphan: double fork, its own session
        os.setsid()
        if os.fork() == 0:
            os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", marker])
        os._exit(0)
    return found


attacked = False
while True:
    line = sys.stdin.readline()
    if not line:
        break
    message = json.loads(line)
    if "legal" not in message:
        continue
    if not attacked:
        attacked = True
        print(json.dumps(attack()), file=sys.stderr, flush=True)
        time.sleep(0.2)
    print(next(move for move in message["legal"] if move != "wait"), flush=True)
