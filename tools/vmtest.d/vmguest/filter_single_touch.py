"""Scenario 26: filter mode on single-touch panels (docs/filter.md): a resistive panel (ABS_X/Y, ABS_PRESSURE, no slots) is
filtered through a clone with one multi-touch slot, so its touches can be cancelled like a protocol B
panel's. Both resistive fixtures are played, the one with BTN_TOUCH and the one that touches by pressure
alone, in a region that wants previews: libinput on the clone sees the touch that peeked cancelled and
every other one down ... up."""
import json
import os
import subprocess

from .filter_scenario import in_region
from .harness import CFG, RUN, Client, Daemon, check, release, start_udevd, stop_udevd

# An average touch the resistive fixtures' firm press peeks at (their pressure is 0..255; the fixtures'
# calibration, 252, is for the multi-touch ones).
CONF = "[pressured]\nFilter = on\n[resistive]\nMatchName = pressured fixture: resistive*\nPressureAverage = 60\n"


def contacts(conf, capture):
    """The contacts pressured makes of a capture under `conf` (`pressurectl replay --touches`)."""
    out = subprocess.run([CFG["pressurectl"], "replay", "--touches", "--config", conf, capture],
                         capture_output=True, text=True, timeout=60).stdout
    return sum(1 for line in out.splitlines() if line.startswith("{") and json.loads(line).get("phase") == "began")


def s26_single_touch(details):
    env, _ = start_udevd()
    daemon = client = None
    conf = os.path.join(RUN, "filter-single.conf")
    with open(conf, "w") as f:
        f.write(CONF)
    try:
        daemon = Daemon("filter-single", ["--config", conf])
        client = Client(daemon.sock, ("gestures", "devices"))
        for name in ("resistive-single-touch.evemu", "resistive-without-btn-touch.evemu"):
            capture = os.path.join(CFG["fixtures"], name)
            before = len(details)
            in_region(daemon, client, env, capture, "previews", "peek", details, contacts(conf, capture))
            details[before:] = [f"{name}: {d}" for d in details[before:]]
    finally:
        release(client, daemon)
        stop_udevd(env)
