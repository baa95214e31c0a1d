"""Scenario 24: filter mode (docs/filter.md). pressured grabs a uinput touchscreen and serves the compositor
through its clone; `libinput debug-events` reads the clone as a compositor does, and `evemu-record` records
it. A firm press in a region whose owner wants previews is TOUCH_DOWN ... TOUCH_CANCEL with no TOUCH_UP;
ordinary taps, and the same presses with no region, are TOUCH_DOWN ... TOUCH_UP; of two fingers down at
once, the one that peeks is cancelled and the other lifts as ever; a hold in a region that wants long press
is cancelled at the long press; every frame of the panel reaches the clone unchanged but for the cancelled
slots' tool type (filter_frames); libinput on the grabbed panel itself sees nothing; SYN_DROPPED and unplug
leave no touch down on the clone (filter_faults); pressured killed, the next touch reaches libinput from
the panel again. Those with FilterMethod = cancel; then, with FilterMethod = hold, a touch a gesture could
take is held from the clone until it is decided (filter_hold)."""
import os
import signal
import time

from .filter_common import (FILTER_CONF, count_touches, let_go, libinput_on, per_slot, plug, press_through,
                            region_owner, summary, touch_events)
from .filter_faults import grabbed_elsewhere, started_under_a_finger, syn_dropped, unplug
from .filter_hold import held
from .harness import CFG, RUN, Client, Daemon, check, release, start_udevd, stop_udevd


def in_region(daemon, client, env, capture, wants, gesture, touches, details):
    """The capture played under a region over the whole screen that wants `wants`: exactly the touches its
    owner got `gesture` for are cancelled on the clone, every other one ends with TOUCH_UP."""
    owner = region_owner(daemon, wants)
    try:
        clone, _, _ = press_through(daemon, client, capture, env, f"a region that wants {wants}", details)
        took = [e for e in owner.snapshot() if e.get("type") == gesture]
        downs, ups, cancels = summary(clone)
        details.append(f"a region that wants {wants}: its owner got {len(took)} {gesture}(s); libinput on the "
                       f"clone: {downs} down, {ups} up, {cancels} cancelled")
        check(len(took) > 0 and cancels == len(took) and ups + cancels == downs,
              f"the touches of a {gesture} were not the ones cancelled")
        check(downs == touches, f"{touches - downs} of the capture's {touches} touches never began on the clone "
                                f"(a slot's next touch after a cancelled one)")
    finally:
        let_go(owner)


def two_fingers(daemon, client, env, details):
    """Two fingers down at once in a region that wants previews: the one that peeks (slot 0) is cancelled,
    the light one (slot 1) lifts as ever."""
    owner = region_owner(daemon, "previews")
    try:
        clone, _, _ = press_through(daemon, client, CFG["two_fingers"], env, "two fingers", details)
        peeks = [e for e in owner.snapshot() if e.get("type") == "peek"]
        slots = per_slot(clone)
        details.append(f"two fingers in a region that wants previews: its owner got {len(peeks)} peek(s); libinput "
                       f"on the clone: slot 0 {' '.join(slots.get(0, []))}, slot 1 {' '.join(slots.get(1, []))}")
        check(len(peeks) == 1, f"peeks: {peeks}")
        check(slots == {0: ["TOUCH_DOWN", "TOUCH_CANCEL"], 1: ["TOUCH_DOWN", "TOUCH_UP"]},
              f"libinput on the clone: {clone}")
    finally:
        let_go(owner)


def killed(daemon, env, details):
    """pressured killed: the grab goes with its descriptor, and libinput gets the panel directly."""
    player, _ = plug(daemon, "after-kill", CFG["peek_pop"]["capture"])
    on_panel = None
    try:
        daemon.signal(signal.SIGKILL)
        daemon.p.wait(10)
        (on_panel,) = libinput_on(player.node, env=env, label="panel-after")
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        time.sleep(1)
        downs, ups, cancels = summary(touch_events(on_panel.text()))
        details.append(f"pressured killed: libinput on the panel itself: {downs} down, {ups} up")
        check(downs > 0 and ups == downs, "the panel stayed grabbed after pressured was killed")
    finally:
        release(on_panel, player)


def no_region(daemon, client, env, details):
    """No region: every touch is the views' own, down and up, however firm; the grabbed panel, silent."""
    clone, panel, got = press_through(daemon, client, CFG["peek_pop"]["capture"], env, "no region", details)
    downs, ups, cancels = summary(clone)
    details.append(f"no region: gestures {[g['type'] for g in got]}; libinput on the clone: {downs} down, "
                   f"{ups} up, {cancels} cancelled; on the grabbed panel: {len(panel)} touch events")
    check(downs > 0 and ups == downs and cancels == 0, "a touch outside every region was cancelled")
    check(panel == [], "libinput saw the grabbed panel's touches")
    return downs


def timed(details, step, *args):
    """Runs a step of the scenario, adding the seconds it took to its last details line (what each costs)."""
    t0 = time.monotonic()
    got = step(*args, details)
    details[-1] += f" ({time.monotonic() - t0:.1f} s)"
    return got


def s24_filter(details):
    env, _ = start_udevd()
    daemon = client = None
    conf = os.path.join(RUN, "filter.conf")
    with open(conf, "w") as f:
        f.write(FILTER_CONF)
    try:
        daemon = Daemon("filter", ["--config", conf], calibrated=True)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        touches = timed(details, no_region, daemon, client, env)
        # A region that wants previews: the touches that peek are cancelled, the others end as ever; a hold
        # in one that wants long press, at the long press.
        timed(details, in_region, daemon, client, env, CFG["peek_pop"]["capture"], "previews", "peek", touches)
        timed(details, two_fingers, daemon, client, env)
        hold = CFG["quick_actions_hold"]["capture"]
        timed(details, in_region, daemon, client, env, hold, "longPress", "longPress", count_touches(hold))
        timed(details, syn_dropped, daemon, client, env, False)
        timed(details, syn_dropped, daemon, client, env, True)
        timed(details, unplug, daemon, client, env)
        timed(details, killed, daemon, env)
        timed(details, grabbed_elsewhere, conf, env)
        timed(details, started_under_a_finger, conf, env)
        timed(details, held, env)
    finally:
        release(client, daemon)
        stop_udevd(env)
