"""A bot that tries to leave its sandbox, for tests/test_sandbox.py: python3 escaping.py SETTINGS_JSON.

SETTINGS_JSON names what to attack (and a ``marker`` the test finds the bot by): ``socket`` (a Unix socket's path
the test listens on), ``abstract`` (an abstract socket's name), ``secrets`` (files it must not read: another bot's
script, a host file), ``folders`` (folders it must not see or write: the match folder, a world-writable folder).
On its first decision it tries, as a root bot of issue 39 did: undo every mount, remount / read-write, mount a
file system, write a global sysctl, make a namespace, connect to the sockets, read the files, list and write the
folders; it says on standard error (one JSON line) what worked and who it is, then plays the first legal move like
an honest bot.
"""

import contextlib
import ctypes
import json
import os
import socket
import sys
import time

settings = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
MS_REMOUNT, MS_BIND, MNT_DETACH = 32, 4096, 2


def mounts() -> list:
    with open("/proc/self/mountinfo") as listed:
        return [line.split()[4] for line in listed]


def attack() -> dict:
    found = {"unmounted": [], "remounted": False, "mounted": False, "sysctl": False, "unshared": False}
    for point in sorted(set(mounts()), key=len, reverse=True):
        if libc.umount2(point.encode(), MNT_DETACH) == 0:
            found["unmounted"].append(point)
    found["remounted"] = libc.mount(None, b"/", None, MS_REMOUNT | MS_BIND, None) == 0
    found["remounted_usr"] = libc.mount(None, b"/usr", None, MS_REMOUNT | MS_BIND, None) == 0
    found["mounted"] = libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0
    try:
        with open("/proc/sys/kernel/core_uses_pid", "w") as sysctl:
            sysctl.write("1\n")
        found["sysctl"] = True
    except OSError:
        pass
    found["unshared"] = libc.unshare(0x10000000) == 0  # CLONE_NEWUSER
    found["connected"] = []
    for family, address in (("unix", settings.get("socket")), ("abstract", settings.get("abstract"))):
        if not address:
            continue
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                client.settimeout(2)
                client.connect(address if family == "unix" else "\0" + address)
                client.sendall(b"touch " + settings.get("planted", "").encode() + b"\n")
            found["connected"].append(family)
        except OSError:
            pass
    found["read"] = []
    for path in settings.get("secrets", []):
        try:
            with open(path, "rb") as secret:
                secret.read(10)
            found["read"].append(path)
        except OSError:
            pass
    found["seen"], found["wrote"] = {}, []
    for folder in settings.get("folders", []):
        with contextlib.suppress(OSError):
            found["seen"][folder] = sorted(os.listdir(folder))
        try:
            with open(os.path.join(folder, "escaped.txt"), "w") as planted:
                planted.write("out")
            found["wrote"].append(folder)
        except OSError:
            pass
    try:
        with open("/usr/escaped.txt", "w") as planted:
            planted.write("out")
        found["wrote"].append("/usr")
    except OSError:
        pass
    with open("/proc/self/status") as status:
        found["status"] = {key: value.strip() for key, _, value in (line.partition(":") for line in status)}
    with open("/proc/self/uid_map") as mapped:
        found["uid_map"] = [line.split() for line in mapped]
    found["uid"] = os.getuid()
    found["root"] = sorted(os.listdir("/"))
    return found


attacked = False
for line in sys.stdin:
    message = json.loads(line)
    if "legal" not in message:
        continue
    if not attacked:
        attacked = True
        print(json.dumps(attack()), file=sys.stderr, flush=True)
        time.sleep(0.5)  # long enough for the test to see from outside which user it runs as
    print(next(move for move in message["legal"] if move != "wait"), flush=True)
