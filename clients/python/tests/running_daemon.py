"""A real `pressured --replay` for the package's tests, started as every tool here starts it (the checkout's
tools/python/pressured_process.py), and `pressurectl replay`'s lines to compare with what clients receive.

The tests run against the installed package (tools/test-python): nothing here puts the checkout's
clients/python on sys.path. The daemon comes from $PRESSURED_BIN_DIR, else `swift build --show-bin-path`.
"""
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

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.terminate()
        self.proc.wait(timeout=10)
        self.log.close()
        self.dir.cleanup()


def served(event: dict) -> bool:
    """Whether `pressurectl replay --touches` prints the event too: touches, gestures, a device's change."""
    return "contact" in event or (event["type"] == "device" and event["change"] == "changed")


def replay_lines(*args: str) -> List[str]:
    """What `pressurectl replay ARGS` prints: the events the daemon serves for the capture, in order."""
    out = subprocess.check_output([os.path.join(BIN, "pressurectl"), "replay", *args], cwd=ROOT, text=True)
    return out.splitlines()
