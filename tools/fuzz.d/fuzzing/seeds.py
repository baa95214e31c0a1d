"""A fuzz target's seeds, made afresh every run (cheap) in a folder of their own, apart from the corpus
libFuzzer writes to: files copied by the globs of the target's entry (targets.py), or made by a maker here."""
import glob
import os
import shutil
import subprocess
import sys

# hub-requests' inputs (Fuzz/hub-requests.swift): the first byte of a line picks the client and, by its top
# bits, an action: 0xC0 a press at the next two bytes times 16 (here 1024, 2048), 0xD0 that press held down,
# 0xE1 a client hanging up and another connecting in its place.
PRESS = b"\xc0\x40\x80\n"
HOLD = b"\xd0\x40\x80\n"
SUBSCRIBE_BOTH = b'{"request":"subscribe","events":["gestures","touches"]}\n'


def hub_requests(repo, folder):
    """The protocol seeds' request lines, each from client 0 then client 1, then a press at (1024, 2048), and
    one seed with all of them in a row; and two stories the hub must get right."""
    requests = sorted(glob.glob(os.path.join(repo, "Fuzz", "seeds", "protocol", "*")))
    everything = b""
    for path in requests:
        with open(path, "rb") as f:
            line = f.read()
        write(folder, os.path.basename(path), b"\x00" + line + b"\x01" + line + PRESS)
        everything += b"\x02" + line
    write(folder, "all.jsonl", everything + PRESS + b"\xe1\n\xc0\x10\x10\n")
    # A finger held down while a client that never reads fills its queue with answers: it is disconnected,
    # and its last lines must end the contact it saw begin.
    write(folder, "held-and-deaf.jsonl",
          b"\x01" + SUBSCRIBE_BOTH + HOLD + b'\x01{"request":"status"}\n' * 30 + PRESS)
    # A client's touch stream stops while a finger is held (cancelled for it) and starts again: nothing more
    # of that finger is for it, not its lift either.
    write(folder, "ended-for-one.jsonl",
          b"\x01" + SUBSCRIBE_BOTH + HOLD + b'\x01{"request":"subscribe"}\n'
          + b'\x01{"request":"subscribe","events":["touches"]}\n' + PRESS)


def evdev_stream(repo, folder):
    """The fixtures' captures translated into the target's input programs (Fuzz/make-seeds.py)."""
    captures = sorted(glob.glob(os.path.join(repo, "Tests", "Fixtures", "*.evemu")))
    subprocess.run([sys.executable, os.path.join(repo, "Fuzz", "make-seeds.py"), folder, *captures], check=True)


MAKERS = {"hub_requests": hub_requests, "evdev_stream": evdev_stream}


def write(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def make(repo, target, folder):
    """The target's seeds in `folder` (emptied first); raises FileNotFoundError for a glob that finds nothing."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for spec in target.seeds:
        if spec.startswith(":"):
            MAKERS[spec[1:]](repo, folder)
            continue
        found = sorted(glob.glob(os.path.join(repo, spec)))
        if not found:
            raise FileNotFoundError(f"no seeds {spec} for {target.name}")
        for path in found:
            shutil.copy(path, folder)
