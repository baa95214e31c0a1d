"""Scenario 26: filter mode on single-touch panels (docs/filter.md): a resistive panel (ABS_X/Y, ABS_PRESSURE,
no slots) is filtered through a clone with one multi-touch slot, so its touches can be cancelled like a
protocol B panel's. Both resistive fixtures are played, the one with BTN_TOUCH and the one that touches by
pressure alone, in a region that wants previews: libinput on the clone sees the touch that peeked
cancelled and every other one down ... up."""
import json
import os
import subprocess

from .filter_common import let_go, libinput_on, plug, region_owner, summary, touch_events
from .harness import CFG, RUN, Daemon, check, release, start_udevd, stop_udevd, wait_until

# An average touch the resistive fixtures' firm press peeks at (their pressure is 0..255; the fixtures'
# calibration, 252, is for the multi-touch ones).
CONF = "[pressured]\nFilter = on\nFilterMethod = cancel\n[resistive]\nMatchName = pressured fixture: resistive*\nPressureAverage = 60\n"


def contacts(conf, capture):
    """The contacts pressured makes of a capture under `conf` (`pressurectl replay --touches`)."""
    out = subprocess.run([CFG["pressurectl"], "replay", "--touches", "--config", conf, capture],
                         capture_output=True, text=True, timeout=60).stdout
    return sum(1 for line in out.splitlines() if line.startswith("{") and json.loads(line).get("phase") == "began")


def in_previews_region(daemon, env, conf, name, details):
    """The fixture played on a filtered panel under a region that wants previews: the touches its owner got a
    peek of are cancelled on the one-slot clone, every other one ends with TOUCH_UP, none is lost."""
    capture = os.path.join(CFG["fixtures"], name)
    touches = contacts(conf, capture)
    owner = region_owner(daemon, "previews")
    try:
        player, clone = plug(daemon, "single", capture)
        watchers = []
        try:
            watchers = libinput_on(clone, env=env, label="single-touch-clone")
            player.go()
            check(player.wait(60) == 0, "evplay failed")
            wait_until(lambda: "DEVICE_REMOVED" in watchers[0].text(), 30, "libinput's DEVICE_REMOVED on the clone")
            downs, ups, cancels = summary(touch_events(watchers[0].text()))
        finally:
            release(*watchers, player)
        peeks = [e for e in owner.snapshot() if e.get("type") == "peek"]
        details.append(f"{name}: its region's owner got {len(peeks)} peek(s); libinput on the one-slot clone: "
                       f"{downs} down, {ups} up, {cancels} cancelled")
        check(len(peeks) > 0 and cancels == len(peeks) and ups + cancels == downs,
              "the touches that peeked were not the ones cancelled")
        check(downs == touches, f"{downs} of pressured's {touches} contacts began on the clone")
    finally:
        let_go(owner)


def s26_single_touch(details):
    env, _ = start_udevd()
    daemon = None
    conf = os.path.join(RUN, "filter-single.conf")
    with open(conf, "w") as f:
        f.write(CONF)
    try:
        daemon = Daemon("filter-single", ["--config", conf])
        for name in ("resistive-single-touch.evemu", "resistive-without-btn-touch.evemu"):
            in_previews_region(daemon, env, conf, name, details)
    finally:
        release(daemon)
        stop_udevd(env)
