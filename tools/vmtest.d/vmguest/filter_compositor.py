"""Scenario 27: filter mode under a real compositor (docs/filter.md). Weston 10 (DRM backend on the guest's
emulated VGA through bochs-drm, pixman renderer, kiosk shell, so the one client fills the screen) reads
pressured's clone through its own libinput, and `wev`, a Wayland client that prints every event it gets,
is that client. With no region every touch reaches wev as wl_touch.down ... up; in a region whose owner
wants previews, the touches that peeked never reach it as an up (no tap-through), the others all do.
Weston drops libinput's TOUCH_CANCEL (its libinput-device.c has no case for it, to this day), so no
wl_touch.cancel follows either: the client keeps those touches down, which docs/filter.md says."""
import os
import re
import subprocess
import time

from .filter_common import FILTER_CONF, let_go, plug, region_owner
from .harness import CFG, RUN, Daemon, Proc, check, release, start_udevd, stop_udevd, wait_until

SOCKET = "wayland-vmtest"


def wl_touch(text):
    """wev's wl_touch events, in order, as (object id, 'down' | 'up' | 'cancel'); motion and frame left out.
    wev asks for a new wl_touch each time the seat gains touch again (a panel plugged after the last one
    went) without releasing the old one, so each event may come once per wl_touch object it holds."""
    return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"\[(\d+): +wl_touch\] (down|up|cancel)\b", text)]


def newest(events):
    """The events of the newest wl_touch object among `events`, kinds only."""
    if not events:
        return []
    last = max(obj for obj, _ in events)
    return [kind for obj, kind in events if obj == last]


def counts(events):
    return {k: events.count(k) for k in ("down", "up", "cancel")}


def start_weston(env, procs):
    """Weston on the guest's VGA, added to `procs`, once its shell is loaded."""
    if not os.path.ismount("/dev/shm"):  # wev's buffers (shm_open); the guest's devtmpfs has no /dev/shm
        os.makedirs("/dev/shm", exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "shm", "/dev/shm"], check=True)
    subprocess.run(["modprobe", "bochs"], check=False)
    wait_until(lambda: os.path.exists("/dev/dri/card0"), 30, "/dev/dri/card0 (bochs-drm)")
    weston = Proc("weston", ["weston", "--backend=drm-backend.so", "--use-pixman", "--shell=kiosk-shell.so",
                             "--tty=2", f"--socket={SOCKET}", "--idle-time=0", "--continue-without-input"], env=env)
    procs.append(weston)
    # The socket is there before the shell is: a client that came then would find no xdg_wm_base.
    wait_until(lambda: "kiosk-shell.so" in weston.text() or weston.p.poll() is not None, 60, "weston's shell")
    check(weston.p.poll() is None, f"weston did not start: {weston.text()[-800:]}")


def start_wev(env, procs):
    """wev, filling weston's screen, added to `procs` once it has its window. Only once weston has an input
    device: wev 1.0 takes the wl_seat for granted, and weston advertises one with its first device."""
    # Line-buffered: wev prints with stdio, which would hold its lines while its output is a file.
    wev = Proc("wev", ["stdbuf", "-oL", "wev", "-F", "wl_pointer", "-F", "wl_keyboard"],
               env=dict(env, WAYLAND_DISPLAY=SOCKET))
    procs.append(wev)
    wait_until(lambda: "configure" in wev.text() or wev.p.poll() is not None, 60, "wev's window")
    check(wev.p.poll() is None, f"wev did not start (exit {wev.p.poll()}): {wev.text()[-400:]}")
    time.sleep(1)
    return wev


def press(daemon, session, capture, wants=None):
    """Plays the capture on a fresh filtered touchscreen, under a region over the whole screen that wants
    `wants` (none: no region); returns the wl_touch events wev got meanwhile and the owner's gestures.
    `session` holds the environment, the processes to stop, and wev once it runs."""
    owner = region_owner(daemon, wants) if wants else None
    player = None
    try:
        player, _ = plug(daemon, "weston", capture)
        time.sleep(2)  # weston's libinput takes the clone on udev's word
        if "wev" not in session:
            session["wev"] = start_wev(session["env"], session["procs"])
        wev = session["wev"]
        before = len(wl_touch(wev.text()))
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        time.sleep(1.5)
        took = [e["type"] for e in owner.snapshot()] if owner else []
        return newest(wl_touch(wev.text())[before:]), took
    finally:
        release(player)
        if owner:
            let_go(owner)


def s27_compositor(details):
    env, _ = start_udevd()
    xdg = os.path.join(RUN, "xdg")
    os.makedirs(xdg, mode=0o700, exist_ok=True)
    env = dict(env, XDG_RUNTIME_DIR=xdg)
    procs = []
    conf = os.path.join(RUN, "filter-weston.conf")
    with open(conf, "w") as f:
        f.write(FILTER_CONF)
    try:
        start_weston(env, procs)
        daemon = Daemon("filter-weston", ["--config", conf], calibrated=True)
        procs.insert(0, daemon)
        session = {"env": env, "procs": procs}
        capture = CFG["peek_pop"]["capture"]
        plain, _ = press(daemon, session, capture)
        c = counts(plain)
        details.append(f"Weston 10, wev: no region: wl_touch {c['down']} down, {c['up']} up, {c['cancel']} cancel")
        check(c["down"] > 0 and c["up"] == c["down"] and c["cancel"] == 0,
              f"with no region every touch should go down and up: {plain}")
        taken, took = press(daemon, session, capture, wants="previews")
        t = counts(taken)
        peeks = took.count("peek")
        details.append(f"a region that wants previews (its owner got {peeks} peek(s)): wl_touch {t['down']} down, "
                       f"{t['up']} up, {t['cancel']} cancel")
        # What matters here: the taken touches never reach the client as an up (no tap-through), the others
        # all do. Whether a cancel follows is the compositor's: Weston 10 drops libinput's TOUCH_CANCEL
        # (no caller of its notify_touch_cancel), so its client keeps those touches down (docs/filter.md).
        check(peeks > 0 and t["down"] == c["down"] and t["up"] == t["down"] - peeks,
              f"the touches that peeked should not reach wev as up, the others should: {taken}")
        check(t["cancel"] in (0, 1, peeks), f"cancels: {taken}")
        if t["cancel"] == 0:
            details.append("Weston passed on no wl_touch.cancel: its client keeps the taken touches down")
    finally:
        release(*procs)
        stop_udevd(env)
