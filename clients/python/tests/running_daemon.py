"""A real `pressured --replay` for the package's tests, started as every tool here starts it (the checkout's
tools/python/pressured_process.py), and `pressurectl replay`'s lines to compare with what clients receive.

The tests run against the installed package (tools/test-python): nothing here puts the checkout's
clients/python on sys.path. The daemon comes from $PRESSURED_BIN_DIR, else `swift build --show-bin-path`.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
EXAMPLES = os.path.join(ROOT, "clients", "python", "examples")
sys.path.insert(0, os.path.join(ROOT, "tools", "python"))
import pressured_process  # noqa: E402

BIN = pressured_process.bin_dir()
FIXTURE = "Tests/Fixtures/peek-pop.evemu"

# Calibrates the fixtures' devices (an average touch of 252, as their warm-up taps teach), for tests about
# the protocol rather than learning: force is available from the first touch.
FIXTURE_CALIBRATION = "[pressured fixtures]\nMatchName = pressured fixture*\nPressureAverage = 252\n"


class Daemon:
    """`pressured --socket TMP/s.sock ARGS`, its stderr in a log that a failure to start shows."""

    def __init__(self, *args: str, calibrated: bool = False, config: str = "") -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-py-")
        self.socket = os.path.join(self.dir.name, "s.sock")
        if calibrated:
            config += FIXTURE_CALIBRATION
        if config:
            conf = os.path.join(self.dir.name, "test.conf")
            with open(conf, "w") as f:
                f.write(config)
            args = ("--config", conf) + args
        log = os.path.join(self.dir.name, "stderr.log")
        self.log = open(log, "w")
        try:
            self.proc = pressured_process.start(os.path.join(BIN, "pressured"), args, self.socket, 10,
                                                state_directory=os.path.join(self.dir.name, "state"), cwd=ROOT,
                                                stderr=self.log)
        except pressured_process.DidNotStart as e:
            self.log.close()
            with open(log) as f:
                raise RuntimeError(f"{e}: {f.read()}") from None

    def terminate(self) -> None:
        """SIGTERM: the daemon says `bye` to every client and exits."""
        self.proc.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: the daemon goes without a word (no `bye`), as a crash or the OOM killer ends it."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.terminate()
        self.proc.wait(timeout=10)
        self.log.close()
        self.dir.cleanup()


def held_peek_capture(directory: str) -> str:
    """A capture, written into `directory`, of the fixture up to its first peek (calibrated as
    `calibrated=True` calibrates the daemon) with the finger then held for ten minutes: a replay of it keeps
    a peek and its contact open until the daemon goes."""
    conf = os.path.join(directory, "calibration.conf")
    with open(conf, "w") as f:
        f.write(FIXTURE_CALIBRATION)
    events = [json.loads(line) for line in replay_lines("--touches", "--config", conf, FIXTURE)]
    peek = next(e["time"] for e in events if e["type"] == "peek")
    with open(os.path.join(ROOT, FIXTURE)) as f:
        lines = f.read().splitlines()
    kept = [line for line in lines if not line.startswith("E:") or float(line.split()[1]) <= peek]
    kept.append(f"E: {peek + 600:.6f} 0000 0000 0000")  # a frame of nothing, long after: the finger stays
    path = os.path.join(directory, "held-peek.evemu")
    with open(path, "w") as f:
        f.write("\n".join(kept) + "\n")
    return path


def expected_ends(received: List[dict]) -> List[dict]:
    """What a client must make of a connection lost after `received`, the events of one peek and its
    contact (docs/protocol.md, "When the connection ends"): the peek dismissed, the contact cancelled, each
    with the contact's last state, then the notice."""
    last = [e for e in received if "contact" in e][-1]
    point = {k: last[k] for k in ("time", "device", "contact", "x", "y", "screenX", "screenY", "force",
                                  "maximumPossibleForce")}
    return [{"type": "dismiss", **point, "synthesized": True},
            {"type": "touch", "phase": "cancelled", **point, "synthesized": True},
            {"type": "disconnected", "reason": "lost", "synthesized": True}]


def served(event: dict) -> bool:
    """Whether `pressurectl replay --touches` prints the event too: touches, gestures, a device's change."""
    return "contact" in event or (event["type"] == "device" and event["change"] == "changed")


def replay_lines(*args: str) -> List[str]:
    """What `pressurectl replay ARGS` prints: the events the daemon serves for the capture, in order."""
    out = subprocess.check_output([os.path.join(BIN, "pressurectl"), "replay", *args], cwd=ROOT, text=True)
    return out.splitlines()
