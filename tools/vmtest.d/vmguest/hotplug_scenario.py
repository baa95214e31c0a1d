"""Scenario 8 (issue #7): a touchscreen plugged and unplugged 200 times through udev (one time in ten while
its finger is down), beside another touchscreen on which a finger stays down all along, with a launcher that
owns a region and a client that watches. Afterwards pressured must hold exactly what it held before (open
files, devices, fingers, regions: `status` and /proc), every plugged device must have been served, and the
held finger's gestures must be whole."""
import re
import signal
import time

from .harness import (CFG, Client, Daemon, Player, check, daemon_status, device_added, device_removed, fmt,
                      process_usage, release, sequences, start_udevd, stop_udevd, wait_until)


def fd_kinds(fds):
    """The daemon's open files as a sorted list of what they are (socket and anon inode numbers dropped:
    a descriptor closed and opened again is the same kind of thing)."""
    return sorted(re.sub(r"\[\d+\]$", "", t) for t in fds.values())


def plug_cycle(i, hp, watcher, owner):
    """Plugs device B, waits until pressured serves it, plays its press (or unplugs it mid-press), and waits
    for the removal. Returns B's device id."""
    held = i % 10 == 9
    mark, omark = watcher.mark(), owner.mark()
    b = Player(f"b{i}", hp["hold"] if held else hp["press"])
    try:
        dev = watcher.wait_for(device_added(b.node), 30, f"plug {i + 1}'s arrival", after=mark)["device"]
        b.go()
        if held:
            owner.wait_for(lambda e: e.get("type") == "peek" and e["device"] == dev["id"], 30,
                           f"plug {i + 1}'s peek", after=omark)
            b.signal(signal.SIGTERM)  # unplugged with the finger down
        check(b.wait(30) == 0, f"evplay of plug {i + 1} failed: {b.text()[-300:]}")
        watcher.wait_for(device_removed(dev["id"]), 30, f"plug {i + 1}'s removal", after=mark)
        return dev["id"]
    finally:
        b.stop(keep_log=False)


def s8_hotplug_many(details):
    hp = CFG["hotplug"]
    cycles = hp["cycles"]
    env, _ = start_udevd()
    daemon = watcher = owner = a = None
    try:
        # discovery through udev, as under systemd; the fixtures' calibration: force from each plug's first touch
        daemon = Daemon("hotplug-many", [], calibrated=True)
        wait_until(lambda: "through udev" in daemon.text(), 30, "pressured's udev discovery")
        r = hp["region"]
        owner = Client(daemon.sock, ("gestures",), setup=lambda c: c.set_region(
            "b-side", r["x"], r["y"], r["width"], r["height"], wants=["previews", "longPress"]))
        watcher = Client(daemon.sock, ("gestures", "devices"))
        a = Player("held", hp["held"])
        a_id = watcher.wait_for(device_added(a.node), 30, "device A's arrival")["device"]["id"]
        a.go()
        watcher.wait_for(lambda e: e.get("type") == "peek" and e["device"] == a_id, 30, "A's peek")
        wait_until(lambda: a.gates_passed() >= 1, 30, "A's finger to rest")
        time.sleep(0.3)
        fds0, rss0 = process_usage(daemon.pid)
        before = daemon_status(daemon.sock)
        check((before["devices"], before["contacts"], before["regions"]) == (1, 1, 1),
              f"before the plugs: {before}")

        t0 = time.monotonic()
        b_ids = [plug_cycle(i, hp, watcher, owner) for i in range(cycles)]
        took = time.monotonic() - t0
        details.append(f"{cycles} plugs of B in {took:.1f} s ({cycles / took:.1f}/s), "
                       f"{sum(1 for i in range(cycles) if i % 10 == 9)} of them unplugged mid-press")

        time.sleep(0.3)
        fds1, rss1 = process_usage(daemon.pid)
        after = daemon_status(daemon.sock)
        details.append(f"pressured before: {len(fds0)} fds, {rss0} KiB; after: {len(fds1)} fds, {rss1} KiB "
                       f"({rss1 - rss0:+d} KiB)")
        details.append("status before and after: " + ", ".join(f"{k} {v}" for k, v in after.items()))
        check(fd_kinds(fds1) == fd_kinds(fds0), f"open files changed: {fd_kinds(fds0)} -> {fd_kinds(fds1)}")
        check(after == before, f"status changed: {before} -> {after}")
        # A bound that catches a per-device leak (a pipeline is tens of KiB) but not the allocator's slack.
        check(rss1 - rss0 < 2048, f"resident memory grew {rss1 - rss0} KiB over {cycles} plugs")

        # Every plug was served: its press went to the region's owner, tagged, and to nobody else.
        got_b = {}
        for e in owner.snapshot():
            if e.get("device") in b_ids and "contact" in e:
                check(e.get("region") == "b-side", f"untagged event for the owner: {e}")
                got_b.setdefault(e["device"], []).append(e["type"])
        wrong = {d: s for d, s in got_b.items() if s != ["peek", "dismiss"]}
        check(len(got_b) == cycles and not wrong,
              f"{len(got_b)} of {cycles} plugs' presses reached the owner; wrong: {dict(list(wrong.items())[:5])}")
        check(not any(e.get("device") in b_ids and "contact" in e for e in watcher.snapshot()),
              "B's gestures reached the watcher, though the region's owner had them")
        devs = [(e["change"], e["device"]["id"]) for e in watcher.snapshot() if e.get("type") == "device"]
        check(sorted(devs) == sorted([("added", a_id)] + [(c, d) for d in b_ids for c in ("added", "removed")]),
              f"device events: {len(devs)}")
        details.append(f"each plug served: {cycles} x [peek,dismiss] to the region's owner, "
                       f"{2 * cycles} device events to the watcher")

        a.go()  # A's finger, down all along, presses on and lifts
        check(a.wait(30) == 0, "evplay A failed")
        watcher.wait_for(device_removed(a_id), 30, "A's removal")
        got_a = sequences(watcher.snapshot(), a_id)
        check(got_a == hp["held_expected"], f"A's gestures {fmt(got_a)}, expected {fmt(hp['held_expected'])}")
        details.append(f"A's finger, down through every plug: {fmt(got_a)} as replayed")
        end = daemon_status(daemon.sock)
        check((end["devices"], end["contacts"], end["regionContacts"], end["regions"]) == (0, 0, 0, 1),
              f"at the end: {end}")
        check(daemon.p.poll() is None, "pressured exited")
    finally:
        release(owner, watcher, a, daemon)
        stop_udevd(env)
