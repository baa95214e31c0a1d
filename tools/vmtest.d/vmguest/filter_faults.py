"""Scenario 24, when the panel fails under the filter (docs/filter.md, "When something goes wrong"):
SYN_DROPPED on the panel, after which the clone gets the resynced state as one frame and no touch is left
down on it, even where the panel replaced a cancelled touch by another in its slot meanwhile; the panel
unplugged with a finger down, which takes the clone with it while pressured goes on serving, and filters
the next panel plugged; a panel another program grabbed first, served as it is; and pressured started under
a finger, which grabs only once the finger has lifted."""
import glob
import os
import re
import signal
import sys
import time

from .filter_common import let_go, left_down, libinput_on, per_slot, plug, region_owner, summary, touch_events
from .harness import CFG, Client, Daemon, Player, Proc, check, release, wait_until


def touch_at(x):
    return lambda e: e.get("type") == "touch" and e["x"] == x


def syn_dropped(daemon, client, env, same_slot, details):
    """Scenario 4's burst on a filtered panel: pressured stopped (SIGSTOP) while finger A lifts and B lands
    and moves 2000 times, more than evdev keeps for a reader, then continued; then B lifts. libinput on the
    clone must have closed every touch it began. `same_slot`: A peeks first under a region that wants
    previews (cancelled: a palm on the clone), and B lands in A's slot, so the resynced state has another
    contact in a palm's slot, which the clone must end and begin as a finger."""
    pos = CFG["burst_positions"]
    owner = region_owner(daemon, "previews") if same_slot else None
    player, clone = plug(daemon, "filtered-burst", CFG["burst_same_slot" if same_slot else "burst"], keep=True)
    watcher = None
    try:
        (watcher,) = libinput_on(clone, env=env, label="clone-burst")
        dropped = daemon.text().count("SYN_DROPPED")
        mark = client.mark()
        player.go()  # A lands and moves a little (and peeks), then the gate
        wait_until(lambda: player.gates_passed() >= 1, 30, "the first part")
        client.wait_for(touch_at(pos["A"][0]), 30, "finger A's last move", after=mark)
        if owner:
            owner.wait_for(lambda e: e.get("type") == "peek", 30, "A's peek")
        daemon.signal(signal.SIGSTOP)
        try:
            player.go()  # the burst, while pressured sleeps
            wait_until(lambda: player.gates_passed() >= 2, 60, "the burst")
        finally:
            daemon.signal(signal.SIGCONT)
        client.wait_for(touch_at(pos["B"][0]), 30, "finger B at its final position", after=mark)
        time.sleep(0.5)
        resynced = touch_events(watcher.text())
        player.go()  # B lifts
        wait_until(lambda: "lateness" in player.text(), 30, "the lift")
        wait_until(lambda: not left_down(touch_events(watcher.text())), 10, "libinput on the clone to end B")
        events = touch_events(watcher.text())
        downs, ups, cancels = summary(events)
        check(daemon.text().count("SYN_DROPPED") > dropped, "the kernel's buffer did not overflow (no SYN_DROPPED "
                                                            "in pressured's log)")
        b_slot = 0 if same_slot else 1
        case = ", B in the slot of A, which had peeked" if same_slot else ""
        details.append(f"SYN_DROPPED on the panel (2000 moves while pressured was stopped{case}): after the resync, "
                       f"libinput on the clone had touches down in slots {sorted(left_down(resynced))}; once B lifted: "
                       f"{downs} down, {ups} up, {cancels} cancelled, {len(left_down(events))} left down")
        check(left_down(resynced) == {b_slot}, f"touches down on the clone after the resync: slots "
                                               f"{sorted(left_down(resynced))}, the panel had B in slot {b_slot}")
        want = ({0: ["TOUCH_DOWN", "TOUCH_CANCEL", "TOUCH_DOWN", "TOUCH_UP"]} if same_slot else
                {0: ["TOUCH_DOWN", "TOUCH_UP"], 1: ["TOUCH_DOWN", "TOUCH_UP"]})
        check(per_slot(events) == want, f"libinput on the clone: {events}")
    finally:
        release(watcher, player)
        if owner:
            let_go(owner)


def unplug(daemon, client, env, details):
    """A finger down past peek when the panel goes (the player destroys its uinput device): the clone's node
    goes from sysfs and /dev/input, libinput on it sees its DEVICE_REMOVED, the client the contact end; then a
    panel plugged again is filtered through a new clone."""
    player, clone = plug(daemon, "filtered-unplug", CFG["hold_peek"]["capture"])
    watcher = None
    try:
        (watcher,) = libinput_on(clone, env=env, label="clone-unplug")
        mark = client.mark()
        player.go()
        peek = client.wait_for(lambda e: e.get("type") == "peek", 30, "the peek", after=mark)
        player.signal(signal.SIGTERM)  # the panel destroyed now, the finger still down
        sysfs = "/sys/class/input/" + os.path.basename(clone)
        wait_until(lambda: not os.path.exists(clone) and not os.path.exists(sysfs), 30, "the clone's node to go")
        wait_until(lambda: "DEVICE_REMOVED" in watcher.text(), 30, "libinput's DEVICE_REMOVED on the clone")
        end = client.wait_for(lambda e: e.get("type") == "touch" and e["contact"] == peek["contact"] and
                              e["phase"] in ("ended", "cancelled"), 30, "the contact's end", after=mark)
        seen = summary(touch_events(watcher.text()))
        check(daemon.p.poll() is None, "pressured exited with the panel")
        again, second = plug(daemon, "filtered-replug", CFG["hold_peek"]["capture"])
        release(again)
        details.append(f"panel unplugged mid-peek: clone {clone} gone from /dev/input and sysfs, libinput on it: "
                       f"{seen[0]} down then DEVICE_REMOVED; the client: contact {end['phase']}; the next panel "
                       f"filtered as {second}")
    finally:
        release(watcher, player)


# EVIOCGRAB, _IOW('E', 0x90, int): what a program that takes a panel for itself (keyd, another pressured) does.
GRAB = "import fcntl, sys, time; f = open(sys.argv[1], 'rb'); fcntl.ioctl(f, 0x40044590, 1); print('grabbed', flush=True); time.sleep(600)"


def grabbed_elsewhere(conf, env, details):
    """A panel another program holds (EVIOCGRAB) when pressured starts with filter mode on: served as it is,
    with one warning line naming why, and no clone; once the other program lets go, its touches reach
    pressured's clients, unfiltered."""
    player = Player("grabbed", CFG["peek_pop"]["capture"])
    grabber = daemon = client = None
    try:
        grabber = Proc("grabber", [sys.executable, "-c", GRAB, player.node])
        wait_until(lambda: "grabbed" in grabber.text() or grabber.p.poll() is not None, 30, "the other grab")
        check(grabber.p.poll() is None, f"the other program could not grab the panel: {grabber.text()}")
        daemon = Daemon("filter-grabbed", ["--config", conf], calibrated=True)
        client = Client(daemon.sock, ("gestures", "devices"))
        said = f"{player.node}: not filtered, served as it is"
        wait_until(lambda: said in daemon.text(), 30, "pressured's word on the grabbed panel")
        check(not any(n.endswith(" (pressured)") for n in device_names()), "a clone of a panel pressured could not grab")
        release(grabber)
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        got = client.wait_for(lambda e: e.get("type") == "pop", 30, "the pop, unfiltered")
        lines = [l for l in daemon.text().splitlines() if said in l]
        check(len(lines) == 1, f"pressured's lines on the grabbed panel: {lines}")
        details.append(f"a panel another program grabbed: pressured said once \"{lines[0].split(': ', 1)[-1][:90]}\", "
                       f"made no clone, and served its {got['type']} once the other let go")
    finally:
        release(client, daemon, grabber, player)


def started_under_a_finger(conf, env, details):
    """pressured started with filter mode on while a finger is down on the panel: libinput, which saw that
    touch begin on the panel, sees it end there too (pressured grabs only once it has lifted; grabbed under
    the finger, the touch stayed down for libinput and the panel's next touch after the grab was lost as a
    "double tracking ID"), and the next tap comes through the clone."""
    player = Player("under-finger", CFG["held_then_tap"])
    daemon = on_panel = on_clone = None
    try:
        (on_panel,) = libinput_on(player.node, env=env, label="panel-under-finger")
        player.go()  # the finger lands
        wait_until(lambda: player.gates_passed() >= 1, 30, "the finger down")
        wait_until(lambda: "TOUCH_DOWN" in on_panel.text(), 10, "libinput on the panel to see the finger")
        daemon = Daemon("filter-under-finger", ["--config", conf], calibrated=True)
        said = f"{player.node}: served as it is for now"
        wait_until(lambda: said in daemon.text(), 30, "pressured's word on the panel under the finger")
        check(not any(n.endswith(" (pressured)") for n in device_names()), "a clone made under the finger")
        player.go()  # the finger moves and lifts
        wait_until(lambda: player.gates_passed() >= 2, 30, "the finger up")
        filtered = re.escape(player.node) + r": filtered .*once idle.* as (/dev/input/event\d+)"
        m = wait_until(lambda: re.search(filtered, daemon.text()), 30, "the grab once the finger lifted")
        wait_until(lambda: os.path.exists(m.group(1)), 30, f"the clone's node {m.group(1)}")
        (on_clone,) = libinput_on(m.group(1), env=env, label="clone-under-finger")
        player.go()  # a tap
        check(player.wait(60) == 0, "evplay failed")
        wait_until(lambda: "TOUCH_UP" in on_clone.text(), 10, "the tap on the clone")
        panel, clone = summary(touch_events(on_panel.text())), summary(touch_events(on_clone.text()))
        details.append(f"pressured started under a finger: it said \"{said.split(': ', 1)[1]}\" and grabbed once the "
                       f"finger lifted; libinput on the panel: {panel[0]} down, {panel[1]} up; on the clone "
                       f"(the tap after): {clone[0]} down, {clone[1]} up")
        check(panel[:2] == (1, 1) and clone[:2] == (1, 1), "the finger's touch did not end on the panel, or the tap "
                                                          "missed the clone")
    finally:
        release(on_clone, on_panel, daemon, player)


def device_names():
    names = []
    for path in glob.glob("/sys/class/input/event*/device/name"):
        with open(path) as f:
            names.append(f.read().strip())
    return names
