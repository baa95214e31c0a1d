"""Scenarios 11-16: the installed pressured (its Debian package) under systemd as PID 1 (the systemd boot of
tools/vmtest): udev starts the service, socket activation, unplug and replug while serving, restart after a
kill, the unit's hardening as the kernel sees it, watchdog and reload (18, the state directory, is in
learning_scenarios.py). Devices are uinput touchscreens (evplay) playing
peek-pop.evemu; the installed configuration calibrates them (the fixtures' section, added by systemd-stage), so
their force is there from the first touch and their gestures are those `pressurectl replay --config` gives with
that section. Clients are the project's Python client on /run/pressured/pressured.sock, as root."""
import os
import pwd
import grp
import re
import signal
import subprocess
import time

from .harness import (CFG, SLOWER, Client, Player, check, device_added, device_removed, fmt, sequences,
                      udev_properties, wait_until)

SERVICE, SOCKET = "pressured.service", "pressured.socket"
SOCK = "/run/pressured/pressured.sock"
PEEK_POP = CFG["peek_pop"]


def systemctl(*args, may_fail=False):
    r = subprocess.run(["systemctl", *args], capture_output=True, text=True)
    check(r.returncode == 0 or may_fail, f"systemctl {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def show(unit, *props):
    out = systemctl("show", "-p", ",".join(props), unit)
    return dict(l.split("=", 1) for l in out.splitlines() if "=" in l)


def state(unit):
    s = show(unit, "ActiveState", "SubState")
    return f"{s['ActiveState']} ({s['SubState']})"


def wait_active(since=None, timeout=60):
    """The service active (for Type=notify: READY=1 arrived) with a main process other than `since`."""
    def ready():
        s = show(SERVICE, "ActiveState", "SubState", "StatusText", "MainPID", "NRestarts")
        return s if s["ActiveState"] == "active" and s["MainPID"] not in ("0", since) else None
    return wait_until(ready, timeout * SLOWER, f"{SERVICE} to be active")


def stop_all():
    """Neither the service nor its socket running: the state a fresh boot is in (the boot starts neither)."""
    systemctl("stop", SOCKET, SERVICE)
    systemctl("reset-failed", SERVICE, may_fail=True)  # fails when the unit is not even loaded yet
    wait_until(lambda: show(SERVICE, "ActiveState")["ActiveState"] in ("inactive", "failed"), 30,
               f"{SERVICE} to stop")


def running_pid():
    """The service's main process, starting the service if it is not running (a scenario run on its own)."""
    s = show(SERVICE, "ActiveState", "MainPID")
    if s["ActiveState"] != "active":
        systemctl("start", SERVICE)
        s = wait_active()
    return s["MainPID"]


class Journal:
    """The journal of one unit from now on (PID 1's messages about it and the daemon's own lines)."""

    def __init__(self, unit, from_now=True):
        self.unit = unit
        self.cursor = None
        if from_now:
            r = subprocess.run(["journalctl", "-b", "-n", "0", "--show-cursor", "-q"], capture_output=True, text=True)
            self.cursor = r.stdout.strip().removeprefix("-- cursor: ")

    def lines(self, output="cat"):
        args = ["journalctl", "-b", "-u", self.unit, "-o", output, "--no-pager", "-q"]
        r = subprocess.run(args + (["--after-cursor", self.cursor] if self.cursor else []), capture_output=True,
                           text=True)
        return r.stdout.splitlines()

    def stamped(self):
        """(CLOCK_MONOTONIC seconds, the line) for each line: the clock of time.monotonic() in this guest."""
        out = []
        for line in self.lines("short-monotonic"):
            if m := re.match(r"^\[\s*([\d.]+)\]\s+\S+\s+\S+?:\s(.*)$", line):
                out.append((float(m.group(1)), m.group(2)))
        return out

    def wait_for(self, text, timeout=30):
        return wait_until(lambda: next((l for l in self.lines() if text in l), None), timeout,
                          f"{text!r} in the journal of {self.unit}")


def added_now(client, node, before=()):
    """The device the daemon added for node, which may be the node of an earlier device (ids in before)."""
    def new(e):
        return device_added(node)(e) and e["device"]["id"] not in before
    return client.wait_for(new, 30, f"{node} added")["device"]


def play_peek_pop(client, player, dev, details, what):
    """Plays the gated player's capture on device id dev; its gestures must be what `pressurectl replay` gives
    with the same calibration."""
    player.go()
    check(player.wait(60) == 0, f"evplay failed: {player.text()[-300:]}")
    client.wait_for(device_removed(dev), 30, f"the removal of {player.node}")
    got = sequences(client.snapshot(), dev)
    want = PEEK_POP["calibrated"]
    check(got == want, f"{what}: gestures {fmt(got)}, expected {fmt(want)}")
    details.append(f"{what}: gestures {fmt(got)} as `pressurectl replay --config` (the same calibration) gives; "
                   f"removal of {player.node} seen")


def s11_udev_starts(details):
    stop_all()
    check(show(SERVICE, "ActiveState")["ActiveState"] in ("inactive", "failed"), "the service runs already")
    details.append(f"before any touchscreen: {SERVICE} {state(SERVICE)}, {SOCKET} {state(SOCKET)}")
    journal = Journal(SERVICE)
    t0 = time.monotonic()
    player = Player("udev-start", PEEK_POP["capture"])
    client = None
    try:
        s = wait_active()
        details.append(f"{player.node} appeared; {SERVICE} active {time.monotonic() - t0:.1f} s later: MainPID "
                       f"{s['MainPID']}, SubState {s['SubState']}, StatusText \"{s['StatusText']}\"")
        check(s["StatusText"] == "serving 1 device to 0 clients", f"StatusText {s['StatusText']!r}")
        props = udev_properties(player.node, dict(os.environ))
        check(props.get("SYSTEMD_WANTS") == SERVICE and ":systemd:" in props.get("TAGS", ""), f"udev: {props}")
        wanted_by = show(SERVICE, "WantedBy")["WantedBy"]
        details.append(f"udev (installed rules): SYSTEMD_WANTS={props['SYSTEMD_WANTS']}, TAGS={props['TAGS']}; "
                       f"WantedBy={wanted_by}")
        check(".device" in wanted_by, f"no device unit wants the service: WantedBy={wanted_by!r}")
        client = Client(SOCK)
        check([d["node"] for d in client.hello["devices"]] == [player.node], f"hello: {client.hello['devices']}")
        st = os.stat(SOCK)  # bound by the daemon itself (no socket unit): --group pressured, mode 0660
        owner = f"{pwd.getpwuid(st.st_uid).pw_name}:{grp.getgrgid(st.st_gid).gr_name} {st.st_mode & 0o777:o}"
        details.append(f"{SOCK} bound by pressured: {owner}")
        check(owner == "pressured:pressured 660", f"socket file {owner}")
        wait_until(lambda: show(SERVICE, "StatusText")["StatusText"] == "serving 1 device to 1 client", 10,
                   "StatusText to count the client")
        details.append("with the client connected: StatusText \"serving 1 device to 1 client\"")
        play_peek_pop(client, player, client.hello["devices"][0]["id"], details, "peek-pop.evemu")
        said = [l for l in journal.lines() if "pressured" in l and "serving" in l]
        details.append(f"journal: {said[0] if said else '(no serving line)'}")
    finally:
        if client:
            client.close()
        player.stop()


def s12_socket_activation(details):
    stop_all()
    systemctl("start", SOCKET)
    s = show(SOCKET, "ActiveState", "SubState", "Listen")
    check(s["SubState"] == "listening", f"{SOCKET}: {s}")
    st = os.stat(SOCK)
    details.append(f"{SOCKET} {s['ActiveState']} ({s['SubState']}) on {s['Listen']}, owner "
                   f"{pwd.getpwuid(st.st_uid).pw_name}, mode {st.st_mode & 0o777:o}; {SERVICE} {state(SERVICE)}")
    check(show(SERVICE, "ActiveState")["ActiveState"] != "active", "the service is already running")
    journal = Journal(SERVICE)
    t0 = time.monotonic()
    client = Client(SOCK)
    player = None
    try:
        s = wait_active()
        pid = s["MainPID"]
        details.append(f"client connected: hello after {time.monotonic() - t0:.1f} s (devices "
                       f"{client.hello['devices']}); {SERVICE} active, MainPID {pid}, TriggeredBy="
                       f"{show(SERVICE, 'TriggeredBy')['TriggeredBy']}")
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(v.split("=", 1) for v in f.read().decode(errors="replace").split("\0") if "=" in v)
        check(env.get("LISTEN_FDS") == "1" and env.get("LISTEN_PID") == pid, f"environment: LISTEN_FDS="
              f"{env.get('LISTEN_FDS')}, LISTEN_PID={env.get('LISTEN_PID')}")
        fd3 = os.readlink(f"/proc/{pid}/fd/3")
        pid1 = [fd for fd in os.listdir("/proc/1/fd") if readlink(f"/proc/1/fd/{fd}") == fd3]
        inode = fd3.removeprefix("socket:[").rstrip("]")
        with open("/proc/net/unix") as f:
            paths = [l.split()[-1] for l in f if l.split()[6] == inode and len(l.split()) > 7]
        details.append(f"its environment: LISTEN_FDS=1, LISTEN_PID={pid}, LISTEN_FDNAMES={env.get('LISTEN_FDNAMES')};"
                       f" its fd 3 is {fd3}, held by PID 1 too (fd {','.join(pid1) or 'none'}), bound to "
                       f"{','.join(paths) or '?'} (/proc/net/unix)")
        check(pid1 and paths == [SOCK], "fd 3 is not systemd's listening socket")
        line = journal.wait_for("listening on the socket systemd passed")
        details.append(f"journal: {line}")
        player = Player("socket-activated", PEEK_POP["capture"])
        dev = added_now(client, player.node)["id"]
        play_peek_pop(client, player, dev, details, "a touchscreen plugged in afterwards")
    finally:
        client.close()
        if player:
            player.stop()


def readlink(path):
    try:
        return os.readlink(path)
    except OSError:
        return None


def s13_replug(details):
    pid = running_pid()
    restarts = show(SERVICE, "NRestarts")["NRestarts"]
    client = Client(SOCK, ("gestures", "touches", "devices"))
    a = Player("held-peek", CFG["hold_peek"]["capture"])
    b = None
    try:
        ida = added_now(client, a.node)["id"]
        a.go()
        client.wait_for(lambda e: e.get("type") == "peek" and e["device"] == ida, 30, "the peek")
        a.signal(signal.SIGTERM)  # evplay destroys the device now: the finger is still down, peeking
        client.wait_for(device_removed(ida), 30, f"the removal of {a.node}")
        tail = [e.get("phase", e["type"]) if e["type"] != "device" else "device " + e["change"]
                for e in client.snapshot() if e.get("device") == ida or
                (e["type"] == "device" and e["device"]["id"] == ida)]
        details.append(f"{a.node} added, pressed to peek, destroyed mid-press; the client saw: "
                       f"{', '.join(x for x in tail if x != 'moved')}")
        b = Player("replugged", PEEK_POP["capture"])
        added = added_now(client, b.node, before=(ida,))
        details.append(f"made again: {b.node} (\"{added['name']}\") added as device {added['id']} (was {ida})")
        play_peek_pop(client, b, added["id"], details, "the new device")
        s = show(SERVICE, "MainPID", "NRestarts", "ActiveState")
        check(s["MainPID"] == pid and s["NRestarts"] == restarts and s["ActiveState"] == "active", f"service: {s}")
        details.append(f"{SERVICE} kept running throughout: MainPID {pid}, NRestarts {restarts}")
    finally:
        client.close()
        a.stop()
        if b:
            b.stop()


def s14_kill_restart(details):
    pid = running_pid()
    restarts = int(show(SERVICE, "NRestarts")["NRestarts"])
    journal = Journal(SERVICE)
    client = Client(SOCK)
    player = Player("across-restart", PEEK_POP["capture"])
    again = None
    try:
        added_now(client, player.node)
        systemctl("kill", "-s", "KILL", SERVICE)
        t0 = time.monotonic()
        wait_until(lambda: client.done, 30, "the client to see the connection closed")
        s = wait_active(since=pid)
        check(int(s["NRestarts"]) == restarts + 1, f"NRestarts {s['NRestarts']}, was {restarts}")
        details.append(f"killed MainPID {pid} with SIGKILL; the client saw its connection closed; active again "
                       f"{time.monotonic() - t0:.1f} s later with MainPID {s['MainPID']}, NRestarts {restarts} -> "
                       f"{s['NRestarts']}, StatusText \"{s['StatusText']}\"")
        said = [l for l in journal.lines() if "status=9/KILL" in l or "Scheduled restart" in l]
        details.extend(f"journal: {l}" for l in said)
        again = Client(SOCK)  # the Python client has no reconnect: connect again, as an app would
        found = [d["id"] for d in again.hello["devices"] if d["node"] == player.node]
        check(found, f"the restarted daemon did not find {player.node}: {again.hello['devices']}")
        details.append(f"reconnected: hello lists {player.node} (found at start-up)")
        play_peek_pop(again, player, found[0], details, "after the restart")
    finally:
        client.close()
        if again:
            again.close()
        player.stop()


# Properties of the unit as systemd loaded it, and what the project's unit file sets them to.
HARDENING = {"User": "pressured", "Group": "pressured", "SupplementaryGroups": "input pressured-haptic",
             "ProtectSystem": "strict",
             "ProtectHome": "yes", "PrivateTmp": "yes", "DevicePolicy": "closed", "DeviceAllow": "char-input rw",
             "RestrictAddressFamilies": "AF_UNIX AF_NETLINK", "NoNewPrivileges": "yes", "CapabilityBoundingSet": "",
             "AmbientCapabilities": "", "ProtectKernelTunables": "yes", "ProtectKernelModules": "yes",
             "ProtectKernelLogs": "yes", "ProtectControlGroups": "yes", "ProtectClock": "yes",
             "ProtectHostname": "yes", "ProtectProc": "invisible", "ProcSubset": "pid", "LockPersonality": "yes",
             "MemoryDenyWriteExecute": "yes", "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes",
             "PrivateIPC": "yes", "RemoveIPC": "yes", "SystemCallArchitectures": "native", "UMask": "0077",
             "StateDirectory": "pressured", "StateDirectoryMode": "0755",
             "ReadOnlyPaths": "-/dev/shm -/dev/mqueue -/run/lock"}


def s15_hardening(details):
    user = pwd.getpwnam("pressured")
    input_gid = grp.getgrnam("input").gr_gid
    # The host has no such user: the guest's comes from the package's sysusers.d file (its comment is the GECOS),
    # which the postinst gave to systemd-sysusers.
    members = grp.getgrgid(input_gid).gr_mem
    details.append(f"user pressured (\"{user.pw_gecos}\", uid {user.pw_uid}, gid {user.pw_gid}, shell "
                   f"{user.pw_shell}), in input ({input_gid}): {'pressured' in members}; made by the package's "
                   f"postinst (systemd-sysusers pressured.conf)")
    check(user.pw_gecos == "pressured force touch daemon" and "pressured" in members,
          "not the user sysusers.d/pressured.conf describes")
    pid = running_pid()
    with open(f"/proc/{pid}/status") as f:
        st = dict(l.rstrip("\n").split(":\t", 1) for l in f if ":\t" in l)
    shown = {k: re.sub(r"\s+", " ", st[k]).strip() for k in
             ("Uid", "Gid", "Groups", "CapEff", "CapPrm", "CapBnd", "NoNewPrivs", "Seccomp")}
    details.append(f"/proc/{pid}/status: " + "; ".join(f"{k} {v}" for k, v in shown.items()))
    check(set(shown["Uid"].split()) == {str(user.pw_uid)}, f"Uid {shown['Uid']}")
    check(set(shown["Gid"].split()) == {str(user.pw_gid)}, f"Gid {shown['Gid']}")
    check(str(input_gid) in shown["Groups"].split(), f"Groups {shown['Groups']} lack input ({input_gid})")
    for k in ("CapEff", "CapPrm", "CapBnd"):
        check(int(shown[k], 16) == 0, f"{k} {shown[k]}")
    check(shown["NoNewPrivs"] == "1" and shown["Seccomp"] == "2", "no NoNewPrivs or no seccomp filter")
    props = show(SERVICE, "FragmentPath", *HARDENING)
    # (lists may come back in another order: systemd sorts address families)
    wrong = {k: props.get(k) for k, v in HARDENING.items() if sorted(props.get(k, "?").split()) != sorted(v.split())}
    details.append(f"systemctl show ({props['FragmentPath']}): " + " ".join(f"{k}={props.get(k)}" for k in HARDENING))
    check(not wrong, f"unit properties differ from the unit file: {wrong}")
    extra = show(SERVICE, "IPAddressDeny", "RestrictNamespaces", "SystemCallFilter")
    details.append(f"also: IPAddressDeny={extra['IPAddressDeny']}, RestrictNamespaces={extra['RestrictNamespaces']}, "
                   f"SystemCallFilter has {len(extra['SystemCallFilter'].split())} entries")
    r = subprocess.run(["systemd-analyze", "security", SERVICE], capture_output=True, text=True)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\S+)", r.stdout)
    check(m, f"systemd-analyze security: exit {r.returncode}: {(r.stdout + r.stderr).strip()[-300:]}")
    details.append(f"systemd-analyze security {SERVICE} (in the guest, on the running unit): {m.group(1)} {m.group(2)}")
    check(float(m.group(1)) <= 2.0, f"exposure {m.group(1)} above 2.0")


def s16_watchdog_and_reload(details):
    """WatchdogSec= (off in the shipped unit) turned on by a drop-in: the daemon's keep-alives hold the service
    up; then `systemctl reload` with ForceTouch turned off in /etc/pressured/pressured.conf: the daemon reloads
    (RELOADING=1, READY=1) and its clients hear the new settings and the device's changed force capability."""
    dropin = "/run/systemd/system/pressured.service.d/vmtest-watchdog.conf"
    conf = "/etc/pressured/pressured.conf"
    with open(conf) as f:
        shipped = f.read()
    os.makedirs(os.path.dirname(dropin), exist_ok=True)
    with open(dropin, "w") as f:
        f.write("[Service]\nWatchdogSec=2s\n")
    client = player = None
    try:
        systemctl("daemon-reload")
        stop_all()
        systemctl("start", SERVICE)  # Type=notify: returns once READY=1 arrived
        s = show(SERVICE, "MainPID", "NRestarts", "WatchdogUSec", "WatchdogTimestampMonotonic")
        check(s["WatchdogUSec"] == "2s", f"WatchdogUSec {s['WatchdogUSec']}")
        time.sleep(7)  # three and a half watchdog periods: without keep-alives systemd kills it after 2 s
        s2 = show(SERVICE, "MainPID", "NRestarts", "ActiveState", "WatchdogTimestampMonotonic")
        check(s2["ActiveState"] == "active" and s2["MainPID"] == s["MainPID"] and s2["NRestarts"] == s["NRestarts"],
              f"with WatchdogSec=2s: {s} then {s2}")
        pings = int(s2["WatchdogTimestampMonotonic"]) - int(s["WatchdogTimestampMonotonic"])
        check(pings > 0, "no keep-alive reached systemd in 7 s")
        details.append(f"WatchdogSec=2s (drop-in): 7 s later the same MainPID {s['MainPID']}, NRestarts "
                       f"{s['NRestarts']}, last keep-alive {pings / 1e6:.1f} s after the first seen")

        player = Player("reload", PEEK_POP["capture"])
        client = Client(SOCK, ("gestures", "devices"))
        dev = added_now(client, player.node)
        check(dev["forceCapability"] == "available", f"before the reload (the installed calibration): {dev}")
        journal = Journal(SERVICE)
        check("\n#ForceTouch = on\n" in shipped, f"{conf} has no commented-out ForceTouch line to turn on")
        with open(conf, "w") as f:  # uncommented in the shipped file's one [pressured] section
            f.write(shipped.replace("\n#ForceTouch = on\n", "\nForceTouch = off\n", 1))
        mark = client.mark()
        systemctl("reload", SERVICE)
        settings = client.wait_for(lambda e: e.get("type") == "settings", 30, "the new settings", after=mark)
        changed = client.wait_for(lambda e: e.get("type") == "device" and e.get("change") == "changed", 30,
                                  "the device's changed force capability", after=mark)["device"]
        check(settings["settings"]["forceTouch"] is False and changed["forceCapability"] == "unavailable" and
              changed.get("forceUnavailable") == "off", f"after the reload: {settings}, {changed}")
        line = journal.wait_for("configuration reloaded")
        s3 = show(SERVICE, "ActiveState", "MainPID")
        check(s3 == {"ActiveState": "active", "MainPID": s["MainPID"]}, f"after the reload: {s3}")
        details.append(f"ForceTouch = off in {conf}, systemctl reload: journal \"{line}\"; the client got settings "
                       f"{settings['settings']} and device {changed['id']} changed: forceCapability "
                       f"{changed['forceCapability']} ({changed.get('forceUnavailable')}), maximumPossibleForce "
                       f"{changed['maximumPossibleForce']}; same "
                       f"MainPID, active")
    finally:
        with open(conf, "w") as f:
            f.write(shipped)
        os.unlink(dropin)
        systemctl("daemon-reload")
        if client:
            client.close()
        if player:
            player.stop()
        systemctl("restart", SERVICE)

