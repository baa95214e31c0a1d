"""Scenario 24, when the panel fails under the filter (docs/filter.md, "When something goes wrong"):
SYN_DROPPED on the panel, after which the clone gets the resynced state as one frame and no touch is left
down on it; and the panel unplugged with a finger down, which takes the clone with it while pressured goes
on serving, and filters the next panel plugged."""
import os
import signal
import time

from .filter_common import left_down, libinput_on, plug, summary, touch_events
from .harness import CFG, check, release, wait_until


def touch_at(x):
    return lambda e: e.get("type") == "touch" and e["x"] == x


def syn_dropped(daemon, client, env, details):
    """Scenario 4's burst on a filtered panel: pressured stopped (SIGSTOP) while finger A lifts and B lands
    and moves 2000 times, more than evdev keeps for a reader, then continued; then B lifts. libinput on the
    clone must have closed every touch it began."""
    pos = CFG["burst_positions"]
    player, clone = plug(daemon, "filtered-burst", CFG["burst"], keep=True)
    watcher = None
    try:
        (watcher,) = libinput_on(clone, env=env, label="clone-burst")
        dropped = daemon.text().count("SYN_DROPPED")
        mark = client.mark()
        player.go()  # A lands and moves a little, then the gate
        wait_until(lambda: player.gates_passed() >= 1, 30, "the first part")
        client.wait_for(touch_at(pos["A"][0]), 30, "finger A's last move", after=mark)
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
        details.append(f"SYN_DROPPED on the panel (2000 moves while pressured was stopped): after the resync, "
                       f"libinput on the clone had {len(left_down(resynced))} touch down (B); once B lifted: "
                       f"{downs} down, {ups} up, {cancels} cancelled, {len(left_down(events))} left down")
        check(left_down(resynced) == {1}, f"touches down on the clone after the resync: slots "
                                          f"{sorted(left_down(resynced))}, the panel had B in slot 1")
        check(downs == 2 and ups + cancels == downs, f"libinput on the clone: {events}")
    finally:
        release(watcher, player)


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
