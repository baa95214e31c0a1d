"""Scenarios 17 and 18: what a device learns of its average touch, kept per physical device under the
daemon's state directory. 17 (chroot boot): a USB touchscreen tapped until its force is available, its file,
a restart that carries on, `pressurectl calibrate --reset`, a corrupt file, a virtual device that leaves none.
18 (systemd boot): the same under the installed unit: the file under /var/lib/pressured/learned/ owned by the
pressured user, nothing else writable for it, a restart that carries on, a reset.
The devices (prepare.py's learning_device) have the fixtures' axes under names of their own, so no
calibration matches them: they learn from their ordinary taps."""
import json
import os
import pwd
import grp
import subprocess

from .harness import (CFG, LOGS, RUN, Client, Daemon, Failure, Player, PressuredClient, check, device_added, device_removed,
                      release, wait_until)

USB = {"name": "vmtest learning touchscreen", "bus": 0x03, "vendor": 0x1D6B, "product": 0x0A10,
       "pressureMinimum": 0, "pressureMaximum": 1023}
USB_FILE = "0003-1d6b-0a10-vmtest_learning_touchscreen.json"  # LearnedDeviceKey.fileName
WARM_UP = 8  # ordinary touches before a fresh device's force is available (AverageTouchLearner.Parameters)


def device_now(sock, dev_id):
    """The device as the daemon has it now (the hello of a connection of its own)."""
    with PressuredClient(sock, timeout=30) as c:
        return next(d for d in c.hello["devices"] if d["id"] == dev_id)


def learning(d):
    return d["forceCapability"] == "unavailable" and d.get("forceUnavailable") == "learning"


def tap_until_available(client, sock, player, dev_id):
    """Plays the learning device's taps one at a time (one gate each) until the daemon says its force is
    available; returns how many taps that took and the `device changed` event. `client` gets touches: once
    a tap's end reached it, the daemon has handled that tap (a change it made is sent in the same turn), so
    the daemon's own view of the device then says whether it has learned enough."""
    for n in range(1, CFG["learning"]["taps"] + 1):
        mark = client.mark()
        player.go()
        client.wait_for(lambda e: e.get("type") == "touch" and e["device"] == dev_id and e["phase"] == "ended", 30,
                        f"tap {n}'s end", after=mark)
        d = device_now(sock, dev_id)
        if d["forceCapability"] == "available":
            changed = client.wait_for(lambda e: e.get("type") == "device" and e["change"] == "changed" and
                                      e["device"]["id"] == dev_id, 30, "the device's change", after=mark)["device"]
            check(changed["forceCapability"] == "available" and
                  changed["maximumPossibleForce"] == d["maximumPossibleForce"], f"changed {changed}, now {d}")
            return n, changed
        check(learning(d), f"after tap {n}: {d}")
    raise Failure(f"force still not available after {CFG['learning']['taps']} taps")


def load(path):
    with open(path) as f:
        return json.load(f)


def learned_files(folder):
    """The files in the learned/ folder (not a write in flight: OutputFile's `.new`)."""
    return sorted(n for n in os.listdir(folder) if not n.endswith(".new"))


def plugged(client, name, capture):
    """A new uinput device from `capture` (gated), once the client has seen it added (the node may be an earlier
    device's)."""
    mark = client.mark()
    player = Player(name, capture)
    return player, client.wait_for(device_added(player.node), 30, f"{name}'s arrival", after=mark)["device"]


def s17_persistence(details):
    lc = CFG["learning"]
    state = os.path.join(RUN, "state-persistence")  # one state directory for the daemons one after another
    learned = os.path.join(state, "learned")
    path = os.path.join(learned, USB_FILE)
    daemon = client = player = None
    try:
        # 1. A fresh USB touchscreen learns from its ordinary taps; the file appears.
        daemon = Daemon("learn", [], state=state)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        player, dev = plugged(client, "learning-usb", lc["usb"])
        check(learning(dev), f"a fresh device: {dev}")
        taps, changed = tap_until_available(client, daemon.sock, player, dev["id"])
        check(taps == WARM_UP, f"force available after {taps} taps, expected {WARM_UP}")
        force = changed["maximumPossibleForce"]
        wait_until(lambda: os.path.exists(path), 15, f"{path}")
        check(learned_files(learned) == [USB_FILE], f"{learned} holds {learned_files(learned)}")
        early = len(load(path)["samples"])
        details.append(f"{player.node} (bus USB, \"{USB['name']}\"): learning, then after {taps} ordinary taps "
                       f"`device changed`: available, maximumPossibleForce {force}; {USB_FILE} written at its first "
                       f"touch, holding {early} sample(s) after the last (written at most every 10 s)")
        release(client, daemon)  # SIGTERM: what is staged is written at shutdown
        client = daemon = None
        saved = load(path)
        check(saved["format"] == "pressured-learned-average" and saved["version"] == 1 and saved["device"] == USB,
              f"{path}: {saved}")
        check(len(saved["samples"]) == WARM_UP and saved["accepted"] == WARM_UP, f"{path}: {saved}")
        details.append(f"after SIGTERM: format {saved['format']} version {saved['version']}, device {saved['device']}, "
                       f"samples {saved['samples']}, average {saved['average']}")
        player.stop()

        # 2. Started again, the device plugged again: available at once, with the same force.
        daemon = Daemon("carry-on", [], state=state)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        player, dev = plugged(client, "learning-usb-again", lc["usb"])
        check(dev["forceCapability"] == "available" and dev["maximumPossibleForce"] == force, f"after a restart: {dev}")
        said = [l for l in daemon.text().splitlines() if "carrying on from" in l]
        check(said, f"no word of the file in the log: {daemon.text()[-400:]}")
        details.append(f"restarted, replugged: added available, maximumPossibleForce {dev['maximumPossibleForce']}; "
                       f"log: {said[0].strip()}")

        # 3. pressurectl calibrate --reset: learning again, the client told, the file gone.
        mark = client.mark()
        r = subprocess.run([CFG["pressurectl"], "calibrate", "--reset", "--socket", daemon.sock], capture_output=True,
                           text=True, timeout=30)
        check(r.returncode == 0 and "learning afresh" in r.stdout, f"calibrate --reset: exit {r.returncode}, "
                                                                   f"{(r.stdout + r.stderr).strip()}")
        reset = client.wait_for(lambda e: e.get("type") == "device" and e["change"] == "changed" and
                                e["device"]["id"] == dev["id"], 30, "the reset's device change", after=mark)["device"]
        check(learning(reset), f"after the reset: {reset}")
        wait_until(lambda: not os.path.exists(path), 15, f"{path} to go")
        release(client, daemon)
        client = daemon = None
        player.stop()
        check(not os.path.exists(path), "the file came back at shutdown")
        details.append(f"calibrate --reset: \"{r.stdout.strip()}\"; the client got `device changed` "
                       f"{reset['forceCapability']} ({reset['forceUnavailable']}); {USB_FILE} removed, not written "
                       f"again at shutdown")

        # 4. A corrupt file: one log line, the device learns afresh, the file is whole again afterwards.
        os.makedirs(learned, exist_ok=True)
        with open(path, "w") as f:
            f.write('{"format": "pressured-learned-average", "version": 1, "device": {"na')
        daemon = Daemon("corrupt", [], state=state)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        player, dev = plugged(client, "learning-usb-corrupt", lc["usb"])
        check(learning(dev), f"with a corrupt file: {dev}")
        said = [l.strip() for l in daemon.text().splitlines() if "ignoring what was learned" in l]
        check(len(said) == 1, f"log lines about the file: {said}")
        taps, changed = tap_until_available(client, daemon.sock, player, dev["id"])
        check(taps == WARM_UP and changed["maximumPossibleForce"] == force, f"after {taps} taps: {changed}")
        release(client, daemon)
        client = daemon = None
        player.stop()
        check(len(load(path)["samples"]) == WARM_UP, f"{path} after learning afresh: {load(path)}")
        details.append(f"corrupt {USB_FILE}: learning; one log line: {said[0]}; available again after {taps} taps "
                       f"(maximumPossibleForce {changed['maximumPossibleForce']}), the file rewritten whole")

        # 5. A virtual device (BUS_VIRTUAL) learns in memory only: a replug in the same run carries on, no file.
        daemon = Daemon("virtual", [], state=state)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        player, dev = plugged(client, "learning-virtual", lc["virtual"])
        taps, _ = tap_until_available(client, daemon.sock, player, dev["id"])
        player.stop()
        client.wait_for(device_removed(dev["id"]), 30, "the virtual device's removal")
        player, again = plugged(client, "learning-virtual-replugged", lc["virtual"])
        check(again["forceCapability"] == "available", f"the virtual device replugged in the same run: {again}")
        release(client, daemon)
        client = daemon = None
        player.stop()
        check(learned_files(learned) == [USB_FILE],
              f"after the virtual device, {learned} holds {learned_files(learned)}")
        daemon = Daemon("virtual-again", [], state=state)
        client = Client(daemon.sock, ("gestures", "touches", "devices"))
        player, fresh = plugged(client, "learning-virtual-restarted", lc["virtual"])
        check(learning(fresh), f"the virtual device after a restart: {fresh}")
        details.append(f"virtual device (bus 0x06): available after {taps} taps, replugged in the same run available "
                       f"at once, after a restart learning again; {learned} holds only {USB_FILE}")
    finally:
        release(client, daemon, player)


# --- scenario 18: under systemd ---------------------------------------------------------------------------

STATE = "/var/lib/pressured"
# Kernel interfaces, not places to keep things: ProtectKernelTunables= and friends guard them.
API_MOUNTS = ("/proc", "/sys")


def writable_places(pid):
    """What the service's user can write, as the kernel decides it in the service's own mount namespace: every
    read-write mount there (/proc/PID/mountinfo, the topmost at each mount point; not /proc and /sys), searched
    as that user with its groups for directories and files it may write (`find -writable`: access(2), which
    honours read-only mounts and permissions). Returns (the read-write mounts, what is writable); the
    mountinfo goes to logs/pressured-mountinfo.txt."""
    top = {}
    with open(f"/proc/{pid}/mountinfo") as f:
        text = f.read()
    with open(os.path.join(LOGS, "pressured-mountinfo.txt"), "w") as f:
        f.write(text)
    for l in text.splitlines():  # in mount order: a later mount at the same point covers the earlier one
        r = l.split()
        top[r[4]] = r[5].split(",")
    mounts = sorted(m for m, opts in top.items() if "rw" in opts and
                    not any(m == a or m.startswith(a + "/") for a in API_MOUNTS))
    with open(f"/proc/{pid}/status") as f:
        st = dict(l.rstrip("\n").split(":\t", 1) for l in f if ":\t" in l)
    uid, gid, groups = st["Uid"].split()[0], st["Gid"].split()[0], ",".join(st["Groups"].split())
    r = subprocess.run(["nsenter", "-t", str(pid), "-m", "--", "setpriv", "--reuid", uid, "--regid", gid,
                        "--groups", groups, "--", "find", *mounts, "-xdev", "(", "-type", "d", "-o", "-type", "f",
                        ")", "-writable", "-print"], capture_output=True, text=True, timeout=120)
    return mounts, sorted(set(r.stdout.split()))


def owner(path):
    st = os.stat(path)
    return f"{pwd.getpwuid(st.st_uid).pw_name}:{grp.getgrgid(st.st_gid).gr_name} {st.st_mode & 0o777:o}"


def s18_state_directory(details):
    from .systemd_scenarios import SOCK, SERVICE, Journal, added_now, running_pid, show, systemctl, wait_active
    path = os.path.join(STATE, "learned", USB_FILE)
    pid = running_pid()
    client = Client(SOCK, ("gestures", "touches", "devices"))
    player = None
    try:
        player = Player("learning-under-systemd", CFG["learning"]["usb"])
        dev = added_now(client, player.node)
        check(learning(dev), f"a fresh device: {dev}")
        taps, changed = tap_until_available(client, SOCK, player, dev["id"])
        wait_until(lambda: os.path.exists(path), 15, path)
        owners = {p: owner(p) for p in (STATE, os.path.dirname(path), path)}
        details.append(f"{player.node} (\"{USB['name']}\", bus USB) available after {taps} taps "
                       f"(maximumPossibleForce {changed['maximumPossibleForce']}); " +
                       ", ".join(f"{p} {o}" for p, o in owners.items()))
        check(all(o.startswith("pressured:pressured ") for o in owners.values()), f"owners: {owners}")
        check(load(path)["device"] == USB, f"{path}: {load(path)}")

        mounts, writable = writable_places(pid)
        private = [p for p in ("/tmp", "/var/tmp") if p in mounts]
        allowed = (STATE, "/run/pressured") + tuple(private)
        elsewhere = [w for w in writable if not any(w == a or w.startswith(a + "/") for a in allowed)]
        details.append(f"in its mount namespace, read-write mounts (besides /proc, /sys): {' '.join(mounts)}; "
                       f"writable for uid pressured: {' '.join(writable)}")
        check(STATE in writable and os.path.dirname(path) in writable,
              f"the state directory is not writable: {writable}")
        check(not elsewhere, f"writable for pressured outside {', '.join(allowed)}: {elsewhere}")
        details.append(f"nothing writable outside {STATE}, its runtime directory /run/pressured and its private "
                       f"{' and '.join(private) or '(no private tmp)'}")

        journal = Journal(SERVICE)
        systemctl("restart", SERVICE)  # stops (writing what is staged) and starts: the device is still plugged
        s = wait_active(since=pid)
        client.close()
        client = Client(SOCK, ("gestures", "touches", "devices"))
        found = [d for d in client.hello["devices"] if d["node"] == player.node]
        check(found and found[0]["forceCapability"] == "available" and
              found[0]["maximumPossibleForce"] == changed["maximumPossibleForce"], f"after the restart: {found}")
        line = journal.wait_for("carrying on from")
        check(len(load(path)["samples"]) == taps, f"{path} after the restart: {load(path)}")
        details.append(f"systemctl restart: MainPID {pid} -> {s['MainPID']}, which found the device available at "
                       f"once (maximumPossibleForce {found[0]['maximumPossibleForce']}); journal: \"{line}\"")

        mark = client.mark()
        r = subprocess.run([CFG["pressurectl"], "calibrate", "--reset", "--socket", SOCK, "--device",
                            str(found[0]["id"])], capture_output=True, text=True, timeout=30)
        check(r.returncode == 0, f"calibrate --reset: exit {r.returncode}: {(r.stdout + r.stderr).strip()}")
        client.wait_for(lambda e: e.get("type") == "device" and e["change"] == "changed" and
                        e["device"]["id"] == found[0]["id"] and learning(e["device"]), 30, "the reset", after=mark)
        wait_until(lambda: not os.path.exists(path), 15, f"{path} to go")
        details.append(f"calibrate --reset --device {found[0]['id']}: \"{r.stdout.strip()}\"; learning again, "
                       f"{path} removed by the daemon")
        check(show(SERVICE, "MainPID")["MainPID"] == s["MainPID"], "the service restarted during the reset")
    finally:
        release(client, player)
