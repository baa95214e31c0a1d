"""Scenario 24: filter mode (docs/filter.md). pressured grabs a uinput touchscreen and serves the compositor
through its clone; `libinput debug-events` reads the clone as a compositor does. A firm press in a region
whose owner wants previews is TOUCH_DOWN ... TOUCH_CANCEL with no TOUCH_UP; ordinary taps, and the same
presses with no region, are TOUCH_DOWN ... TOUCH_UP; a hold in a region that wants long press is cancelled
at the long press; libinput on the grabbed panel itself sees nothing; pressured killed, the next touch
reaches libinput from the panel again."""
import glob
import os
import re
import signal
import time

from .harness import CFG, RUN, Client, Daemon, Player, Proc, check, release, start_udevd, stop_udevd, wait_until

FILTER_CONF = "[pressured]\nFilter = on\n"


def name_of(node):
    with open(f"/sys/class/input/{os.path.basename(node)}/device/name") as f:
        return f.read().strip()


def clone_of(name):
    """The event node of the clone of the device named `name`, once udev has set it up."""
    def find():
        for path in glob.glob("/sys/class/input/event*/device/name"):
            with open(path) as f:
                if f.read().strip() == name + " (pressured)":
                    return "/dev/input/" + path.split("/")[4]
        return None
    wait_until(find, 30, f"the clone of {name}")
    return find()


def touch_events(text):
    """libinput debug-events' touch lines as (kind, slot): TOUCH_DOWN/MOTION/UP/CANCEL/FRAME."""
    out = []
    for line in text.splitlines():
        m = re.search(r"\b(TOUCH_(?:DOWN|UP|CANCEL))\s+\S+\s+(\d+)", line)
        if m:
            out.append((m.group(1), int(m.group(2))))
    return out


def count_touches(capture):
    """The touches a capture holds: its new tracking ids."""
    with open(capture) as f:
        parts = [l.split() for l in f if l.startswith("E:")]
    return sum(1 for p in parts if p[2:4] == ["0003", "0039"] and int(p[4]) >= 0)


def summary(events):
    downs = sum(1 for k, _ in events if k == "TOUCH_DOWN")
    ups = sum(1 for k, _ in events if k == "TOUCH_UP")
    cancels = sum(1 for k, _ in events if k == "TOUCH_CANCEL")
    return downs, ups, cancels


def press_through(daemon, client, capture, env):
    """Plays the capture on a fresh touchscreen pressured filters, with libinput reading the clone and the
    panel. Returns libinput's touch events on the clone, those on the panel, and the gestures the client
    got."""
    player = Player("filtered", capture)
    watchers = []
    try:
        mark = client.mark()
        wait_until(lambda: f"{player.node}: filtered" in daemon.text(), 30, "the panel filtered")
        clone = clone_of(name_of(player.node))
        on_clone = Proc("libinput-clone", ["libinput", "debug-events", "--device", clone], env=env)
        on_panel = Proc("libinput-panel", ["libinput", "debug-events", "--device", player.node], env=env)
        watchers = [on_clone, on_panel]
        wait_until(lambda: "DEVICE_ADDED" in on_clone.text() and "DEVICE_ADDED" in on_panel.text(), 30,
                   "libinput on the clone and the panel")
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        time.sleep(1)
        got = [e for e in client.snapshot()[mark:] if "contact" in e and e.get("type") != "touch"]
        return touch_events(on_clone.text()), touch_events(on_panel.text()), got
    finally:
        release(*watchers, player)


def in_region(daemon, client, env, capture, wants, gesture, details, touches):
    """The capture played under a region over the whole screen that wants `wants`: exactly the touches its
    owner got `gesture` for are cancelled on the clone, every other one ends with TOUCH_UP."""
    owner = Client(daemon.sock, ("gestures",), setup=lambda c: c.set_region(wants, 0, 0, 5000, 5000, wants=[wants]))
    try:
        clone, _, _ = press_through(daemon, client, capture, env)
        took = [e for e in owner.snapshot() if e.get("type") == gesture]
        downs, ups, cancels = summary(clone)
        details.append(f"a region that wants {wants}: its owner got {len(took)} {gesture}(s); libinput on the "
                       f"clone: {downs} down, {ups} up, {cancels} cancelled")
        check(len(took) > 0 and cancels == len(took) and ups + cancels == downs,
              f"the touches of a {gesture} were not the ones cancelled")
        check(downs == touches, f"{touches - downs} of the capture's {touches} touches never began on the clone "
                                f"(a slot's next touch after a cancelled one)")
    finally:
        owner.close()


def s24_filter(details):
    env, _ = start_udevd()
    daemon = client = None
    conf = os.path.join(RUN, "filter.conf")
    with open(conf, "w") as f:
        f.write(FILTER_CONF)
    try:
        daemon = Daemon("filter", ["--config", conf], calibrated=True)
        client = Client(daemon.sock, ("gestures", "devices"))
        peek_pop = CFG["peek_pop"]["capture"]
        # No region: every touch is the views' own, down and up, however firm.
        clone, panel, got = press_through(daemon, client, peek_pop, env)
        downs, ups, cancels = summary(clone)
        details.append(f"no region: gestures {[g['type'] for g in got]}; libinput on the clone: {downs} down, "
                       f"{ups} up, {cancels} cancelled; on the grabbed panel: {len(panel)} touch events")
        check(downs > 0 and ups == downs and cancels == 0, "a touch outside every region was cancelled")
        check(panel == [], "libinput saw the grabbed panel's touches")
        # A region that wants previews: the touches that peek are cancelled, the others end as ever; a hold
        # in one that wants long press, at the long press.
        in_region(daemon, client, env, peek_pop, "previews", "peek", details, downs)
        in_region(daemon, client, env, CFG["quick_actions_hold"]["capture"], "longPress", "longPress", details,
                  count_touches(CFG["quick_actions_hold"]["capture"]))
        # pressured killed: the grab goes with its descriptor, and libinput gets the panel directly.
        player = Player("after-kill", peek_pop)
        try:
            wait_until(lambda: f"{player.node}: filtered" in daemon.text(), 30, "the panel filtered")
            daemon.signal(signal.SIGKILL)
            daemon.p.wait(10)
            on_panel = Proc("libinput-panel-after", ["libinput", "debug-events", "--device", player.node], env=env)
            wait_until(lambda: "DEVICE_ADDED" in on_panel.text(), 30, "libinput on the panel")
            player.go()
            check(player.wait(60) == 0, "evplay failed")
            time.sleep(1)
            downs, ups, cancels = summary(touch_events(on_panel.text()))
            release(on_panel)
            details.append(f"pressured killed: libinput on the panel itself: {downs} down, {ups} up")
            check(downs > 0 and ups == downs, "the panel stayed grabbed after pressured was killed")
        finally:
            release(player)
    finally:
        release(client, daemon)
        stop_udevd(env)
