"""Scenario 25: filter mode under the installed unit (docs/filter.md, "Access" and "When something goes wrong").
`pressurectl filter enable` grants the service /dev/uinput and turns its watchdog on; with `Filter = on` the
service grabs a uinput touchscreen and the compositor's libinput (`libinput debug-events` on the udev seat, as a
compositor runs it) gets the touches through the clone; `systemd-analyze security` stays at 2.0 or lower. Then
the daemon is stopped with SIGSTOP under a finger, a hang as far as systemd can tell: the watchdog kills it,
systemd restarts it, the new daemon takes back the clone systemd kept (its file descriptor store), so libinput
never loses the device and gets the finger cancelled, and a tap reaches libinput through the clone within 3 s of
the SIGSTOP (a tap every 100 ms, each at its own x, so the first that arrives says when it was written).
`pressurectl filter disable`: the kept clone goes, and the service serves the panel as it is again, and says
why."""
import grp
import os
import re
import signal
import subprocess
import time

from .filter_common import name_of
from .harness import CFG, RUN, Player, Proc, check, release, wait_until
from .systemd_scenarios import SERVICE, Journal, running_pid, show, wait_active

CONF = "/etc/pressured/pressured.conf"
TAPS = 60  # one every 100 ms: 6 s of them, twice the time the watchdog has to give touch back
HELD = 0  # tap 0 is a finger put down (and held while the daemon hangs); "tap" 1 is its lift
BACK_WITHIN = 3.0
DOWN = re.compile(r"^.?(event\d+)\s+TOUCH_DOWN\s.*\(\s*([\d.]+)/\s*[\d.]+mm\)")
DOUBLE = re.compile(r"double tracking ID (-?\d+)")
ADDED = re.compile(r"^.?(event\d+)\s+DEVICE_ADDED\s+(.*?)\s+seat\d")
REMOVED = re.compile(r"^.?(event\d+)\s+DEVICE_REMOVED\s+(.*?)\s+seat\d")


def axes(desc):
    """An evemu description's axes: code -> (maximum, resolution)."""
    with open(desc) as f:
        return {int(p[1], 16): (int(p[3]), int(p[6])) for p in (l.split() for l in f if l.startswith("A:"))}


def tap_at(mm, desc):
    """Which tap was at x `mm` millimetres (libinput's figure): the inverse of tap_capture's x."""
    maximum, resolution = axes(desc)[0x35]
    return round((mm * resolution / maximum * 100 - 5) / 1.5)


def tap_capture(desc):
    """E: lines for TAPS light taps behind gates, tap k at x = 5 + 1.5 k percent of the axis (desc's)."""
    axes_ = {code: maximum for code, (maximum, _) in axes(desc).items()}
    lines = []
    for k in range(TAPS):
        x, y, t = int(axes_[0x35] * (5 + 1.5 * k) / 100), axes_[0x36] // 2, 1 + k
        lines += ["# vmtest: gate"]
        if k != HELD + 1:  # the held finger's lift is a "tap" of its own, with no touch
            lines += [f"E: {t}.000000 {ty} {code} {v:04d}" for ty, code, v in [
                ("0003", "002f", 0), ("0003", "0039", 100 + k), ("0003", "0035", x), ("0003", "0036", y),
                ("0003", "003a", 80), ("0001", "014a", 1), ("0003", "0000", x), ("0003", "0001", y),
                ("0003", "0018", 80), ("0000", "0000", 0)]]
        if k != HELD:
            lines += [f"E: {t}.030000 {ty} {code} {v:04d}" for ty, code, v in [
                ("0003", "0039", -1), ("0001", "014a", 0), ("0003", "0018", 0), ("0000", "0000", 0)]]
    path = os.path.join(RUN, "filter-unit-taps.evemu")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


class Seat:
    """`libinput debug-events` on the udev seat, as a compositor reads input: which device (by name, and
    which of the devices so named) each touch came from, and which tap it was (by its x, in mm)."""

    def __init__(self, desc):
        self.desc = desc
        self.proc = Proc("libinput-seat", ["libinput", "debug-events"])
        wait_until(lambda: "DEVICE_ADDED" in self.proc.text(), 30, "libinput on the seat")

    def added(self, name, pattern=ADDED):
        """How many times a device so named has been added (or, with REMOVED, removed)."""
        return sum(1 for line in self.proc.text().splitlines() if (m := pattern.match(line)) and m.group(2) == name)

    def touch_end(self, name, tap):
        """How libinput ended the touch of tap `tap` on the device so named: the TOUCH_UP or TOUCH_CANCEL of
        its slot after its TOUCH_DOWN (the fixture's one slot), or None."""
        names, down = {}, False
        for line in self.proc.text().splitlines():
            if m := ADDED.match(line):
                names[m.group(1)] = m.group(2)
                continue
            fields = line.lstrip("-").split()
            if len(fields) < 2 or names.get(fields[0]) != name:
                continue
            if (m := DOWN.match(line)) and tap_at(float(m.group(2)), self.desc) == tap:
                down = True
            elif down and fields[1] in ("TOUCH_UP", "TOUCH_CANCEL"):
                return fields[1]
        return None

    def downs(self):
        """(device name, its appearance counted from 1, tap index) for every TOUCH_DOWN so far."""
        names, seen, out = {}, {}, []
        for line in self.proc.text().splitlines():
            if m := ADDED.match(line):
                names[m.group(1)] = m.group(2)
                seen[m.group(2)] = seen.get(m.group(2), 0) + 1
            elif (m := DOWN.match(line)) and m.group(1) in names:
                name = names[m.group(1)]
                out.append((name, seen[name], tap_at(float(m.group(2)), self.desc)))
        return out


def exposure():
    r = subprocess.run(["systemd-analyze", "security", SERVICE], capture_output=True, text=True)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+)", r.stdout)
    check(m, f"systemd-analyze security: exit {r.returncode}: {(r.stdout + r.stderr).strip()[-300:]}")
    return float(m.group(1))


def pressurectl(*args):
    r = subprocess.run(["pressurectl", "filter", *args], capture_output=True, text=True)
    check(r.returncode == 0, f"pressurectl filter {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    return r.stdout


class Tapper:
    """Plays the taps one at a time: tap k when asked, remembering when it was written."""

    def __init__(self, player):
        self.player, self.sent = player, []

    def tap(self):
        k = len(self.sent)
        check(k < TAPS, "out of taps")
        self.sent.append(time.monotonic())
        self.player.go()
        wait_until(lambda: self.player.gates_passed() >= k + 2, 10, f"tap {k} played")
        return k


def s25_filter_unit(details):
    with open(CONF) as f:
        shipped = f.read()
    check("\n[pressured]\n" in shipped, f"{CONF} has no [pressured] section")
    seat = player = None
    try:
        running_pid()
        before = exposure()
        with open(CONF, "w") as f:
            f.write(shipped.replace("\n[pressured]\n", "\n[pressured]\nFilter = on\n", 1))
        said = pressurectl("enable")
        s = wait_active()
        props = show(SERVICE, "WatchdogUSec", "DropInPaths", "NRestarts")
        check(props["WatchdogUSec"] == "1s", f"WatchdogUSec {props['WatchdogUSec']}")
        gid = grp.getgrnam("pressured-uinput").gr_gid
        st = os.stat("/dev/uinput")
        check(st.st_gid == gid and st.st_mode & 0o777 == 0o660, f"/dev/uinput gid {st.st_gid} mode {st.st_mode:o}")
        after = exposure()
        details.append(f"pressurectl filter enable: {said.strip().splitlines()[-1]}; {props['DropInPaths']}; "
                       f"WatchdogUSec {props['WatchdogUSec']}; /dev/uinput group pressured-uinput ({gid}) 0660; "
                       f"systemd-analyze security: {before} before, {after} after")
        check(after <= 2.0, f"exposure {after} above 2.0")

        journal = Journal(SERVICE)
        capture = CFG["peek_pop"]["capture"]
        seat = Seat(capture)
        # Ungated: the capture's first line is a gate of its own, so the player waits there, and each tap
        # played is one more "at gate" in its log.
        player = Player("filter-unit", tap_capture(capture), desc=capture, gate=False, keep=True)
        panel, clone = name_of(player.node), name_of(player.node) + " (pressured)"
        line = journal.wait_for(f"{player.node}: filtered")
        with open(f"/proc/{show(SERVICE, 'MainPID')['MainPID']}/status") as f:
            groups = next(l.split()[1:] for l in f if l.startswith("Groups:"))
        check(str(gid) in groups, f"the daemon's groups {groups} lack pressured-uinput")
        wait_until(lambda: "(pressured)" in seat.proc.text(), 30, "libinput to add the clone")
        taps = Tapper(player)
        k = taps.tap()  # a finger down (HELD), still down when the daemon hangs
        wait_until(lambda: (clone, 1, k) in seat.downs(), 10, "the touch on the clone")
        check(not any(n == panel for n, _, _ in seat.downs()), "libinput saw the grabbed panel's touch")
        details.append(f"journal: \"{line}\"; libinput on the seat: the touch from the clone, none from the panel")

        # A hang, as systemd sees one: the watchdog kills, Restart=on-failure restarts. The finger lifts
        # while the daemon is stopped: only the stopped daemon's grab hears it, so the touch stays down on the
        # clone systemd keeps, until the new daemon takes the clone back and cancels it.
        pid = s["MainPID"]
        t0 = time.monotonic()
        os.kill(int(pid), signal.SIGSTOP)
        taps.tap()
        back = None
        while back is None and time.monotonic() - t0 < 2 * BACK_WITHIN:
            due = t0 + 0.1 * (len(taps.sent) - 1)
            time.sleep(max(0.0, due - time.monotonic()))
            taps.tap()
            back = next((k for n, _, k in seat.downs() if n == clone and k > HELD), None)
        seen = time.monotonic() - t0
        check(back is not None, f"no tap through the clone {seen:.1f} s after the SIGSTOP")
        # Taps still in flight when the first was seen may be counted too: the first written is the figure.
        first = min(k for n, _, k in seat.downs() if n == clone and k > HELD)
        written = taps.sent[first] - t0
        on_panel = sorted(k for n, _, k in seat.downs() if n == panel)
        s2 = wait_active(since=pid)
        killed = journal.wait_for("Watchdog timeout")
        exited = journal.wait_for("Main process exited")
        kept = wait_until(lambda: ([l for l in journal.lines() if f"{player.node}: filtered" in l][1:] or [None])[0],
                          30, "the new daemon's grab in the journal")
        details.append(f"SIGSTOP of MainPID {pid}: journal \"{killed}\", \"{exited}\"; new MainPID {s2['MainPID']}, NRestarts "
                       f"{s2['NRestarts']}; taps every 100 ms: {len(on_panel)} reached libinput from the released "
                       f"panel (taps {on_panel}), the first through the clone again was tap {first}, written "
                       f"{written:.2f} s after the SIGSTOP (seen {seen:.2f} s after it)")
        details.append("after the SIGSTOP: " + ", ".join(
            f"+{t - t0:.2f} {line[:70]}" for t, line in journal.stamped() if t >= t0))
        check(written <= BACK_WITHIN, f"touch back {written:.2f} s after the SIGSTOP, not within {BACK_WITHIN} s")

        # systemd kept the clone (its file descriptor store): libinput never lost the device, and the touch
        # the hung daemon left down on it was cancelled, not lifted (no click).
        check("the clone systemd kept" in kept, f"the new daemon made a clone of its own: \"{kept}\"")
        check(seat.added(clone) == 1 and seat.added(clone, REMOVED) == 0,
              f"libinput lost the clone: added {seat.added(clone)}, removed {seat.added(clone, REMOVED)} times")
        held = seat.touch_end(clone, HELD)
        check(held == "TOUCH_CANCEL", f"the touch left down on the clone ended as {held}, not TOUCH_CANCEL")
        details.append(f"journal: \"{kept}\"; libinput kept the clone (added once, never removed); the touch down "
                       f"when the daemon hung: TOUCH_CANCEL")

        # The new daemon grabs the panel between taps, never under one (docs/filter.md): libinput, which saw
        # a tap begin on the released panel, must see it end there, or it drops the next tap there as a
        # "double tracking ID" N. (A lift it drops, "double tracking ID -1", is the old daemon dying mid-tap:
        # the panel came back between a tap's down, which the grab kept from libinput, and its up.)
        doubles = DOUBLE.findall(seat.proc.text())
        check(not [i for i in doubles if int(i) >= 0], "a tap on the released panel was left down for libinput "
                                                     f"when the new daemon grabbed it: double tracking IDs {doubles}")
        if doubles:
            details.append(f"libinput dropped {len(doubles)} lift(s) of a tap begun while the old daemon held the "
                           f"panel (double tracking ID -1)")
        said = pressurectl("disable")
        s3 = wait_active(since=s2["MainPID"])
        line = journal.wait_for(f"{player.node}: not filtered, served as it is")
        wait_until(lambda: seat.added(clone, REMOVED) == 1, 10, "libinput to lose the clone")
        st = os.stat("/dev/uinput")
        check(st.st_gid == 0 and st.st_mode & 0o777 == 0o600, f"/dev/uinput gid {st.st_gid} mode {st.st_mode:o}")
        k = taps.tap()
        wait_until(lambda: (panel, 1, k) in seat.downs(), 10, "the tap from the panel itself")
        details.append(f"pressurectl filter disable: MainPID {s3['MainPID']}, WatchdogUSec "
                       f"{show(SERVICE, 'WatchdogUSec')['WatchdogUSec']}, /dev/uinput root 0600; journal \"{line}\"; "
                       f"the clone removed from libinput; the next tap reached libinput from the panel")
    finally:
        release(seat and seat.proc, player)
        with open(CONF, "w") as f:
            f.write(shipped)
        if os.path.exists("/etc/systemd/system/pressured.service.d/filter.conf"):
            subprocess.run(["pressurectl", "filter", "disable"], capture_output=True)
        subprocess.run(["systemctl", "restart", SERVICE], capture_output=True)
