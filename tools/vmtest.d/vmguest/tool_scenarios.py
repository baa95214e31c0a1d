"""Scenarios 9 and 10: pressurectl's live tools on real kernel devices. `record` in both formats, ended by
Ctrl-C, SIGTERM and an unplug, played back by evemu's and libinput's own tools into pressured; `record` by a
user outside and inside the `input` group; `calibrate` driven through a terminal like a person would."""
import fcntl
import grp
import os
import pty
import re
import shutil
import signal
import stat
import subprocess
import termios
import threading
import time

from .gestures import fmt_outcome, force_changes, replay_events
from .harness import (CFG, LOGS, RUN, Client, Daemon, Player, Proc, check, device_removed, fmt,
                      release, replayed, sequences, start_udevd, stop_udevd, wait_until)


def record_live(name, capture, fmt_name, end, path):
    """Plays `capture` through uinput while `pressurectl record` records the node; `end` is how the
    recording ends: a signal (SIGINT is Ctrl-C) once the capture is played, or "unplug" at the capture's gate.
    Returns the recorder's output."""
    player = Player(name, capture, keep=end != "unplug")
    rec = Proc("record-" + name, [CFG["pressurectl"], "record", player.node, "--format", fmt_name, "-o", path])
    try:
        wait_until(lambda: "Ctrl-C to stop" in rec.text() or rec.p.poll() is not None, 30, "the recorder")
        check(rec.p.poll() is None, f"record exited: {rec.text()}")
        player.go()
        if end == "unplug":
            wait_until(lambda: player.gates_passed() >= 1, 30, "the finger to rest")
            player.signal(signal.SIGTERM)
        else:
            wait_until(lambda: "lateness" in player.text(), 60, "the capture's end")
            time.sleep(0.2)
            rec.signal(end)
        rc = rec.wait(15)
        check(rc == 0, f"record ({end}) exit status {rc}: {rec.text()[-400:]}")
        return rec.text()
    finally:
        rec.stop()
        if os.path.exists(path):
            shutil.copy(path, os.path.join(LOGS, os.path.basename(path)))
        player.stop()


def served(start_player, what, finish):
    """Starts a fresh pressured (discovery through udev, nothing learned: as `pressurectl replay` starts), a
    client, and a playback tool (which makes its own device); waits until pressured serves that device, lets
    `finish(tool, dev, watcher)` play and end it, and returns the gestures and force changes pressured sent."""
    daemon = watcher = tool = None
    try:
        daemon = Daemon("served-" + what.replace(" ", "-"), [])
        watcher = Client(daemon.sock, ("gestures", "devices"))
        tool = start_player()
        dev = watcher.wait_for(lambda e: e.get("type") == "device" and e.get("change") == "added", 30,
                               f"{what}'s device")["device"]
        finish(tool, dev, watcher)
        watcher.wait_for(device_removed(dev["id"]), 30, f"{what}'s device removal")
        return sequences(watcher.snapshot(), dev["id"]), force_changes(watcher.snapshot(), dev["id"])
    finally:
        release(tool, watcher, daemon)


# libinput's replay tool is Python: run by the system's interpreter, where its modules are.
LIBINPUT_REPLAY = ["/usr/bin/python3", "/usr/libexec/libinput/libinput-replay"]


def s9_record(details):
    pp = CFG["peek_pop"]
    want = (pp["expected"], pp["force"])
    env, _ = start_udevd()
    try:
        evemu_file, yaml_file, cut_file = (os.path.join(RUN, n) for n in ("rec.evemu", "rec.yml", "cut.evemu"))

        out = record_live("rec-evemu", pp["capture"], "evemu", signal.SIGINT, evemu_file)
        got = replay(evemu_file)
        check(got == pp["expected"], f"replay of the evemu recording: {fmt(got)}, expected {fmt(pp['expected'])}")
        details.append(f"record --format evemu, Ctrl-C: {last_line(out)}; pressurectl replay: {fmt(got)}")

        def evemu_play(tool, dev, watcher):
            with open(evemu_file) as f:
                r = subprocess.run(["evemu-play", dev["node"]], stdin=f, capture_output=True, text=True, timeout=60)
            check(r.returncode == 0, f"evemu-play: {r.stderr}")
            time.sleep(0.2)
            tool.signal(signal.SIGTERM)  # evemu-device destroys its device

        got = served(lambda: Proc("evemu-device", ["evemu-device", evemu_file]), "evemu-device", evemu_play)
        check(got == want,
              f"evemu-device + evemu-play into pressured: {fmt_outcome(*got)}, expected {fmt_outcome(*want)}")
        details.append(f"evemu-device + evemu-play of the recording, served by a fresh pressured: {fmt_outcome(*got)}")

        out = record_live("rec-libinput", pp["capture"], "libinput", signal.SIGTERM, yaml_file)
        got = replay(yaml_file)
        check(got == pp["expected"], f"replay of the libinput recording: {fmt(got)}")
        details.append(f"record --format libinput, SIGTERM: {last_line(out)}; pressurectl replay: {fmt(got)}")

        def libinput_replay(tool, dev, watcher):
            time.sleep(0.5)  # its udev check runs after the device appears
            tool.p.stdin.write(b"\n")  # "Hit enter to start replaying"
            tool.p.stdin.flush()
            watcher.wait_for(lambda e: e.get("type") == "pop" and e["device"] == dev["id"], 30, "the replayed pop")
            time.sleep(0.5)
            tool.signal(signal.SIGINT)  # it asks again; Ctrl-C ends it and its device

        got = served(lambda: Proc("libinput-replay", LIBINPUT_REPLAY + [yaml_file], stdin=subprocess.PIPE),
                     "libinput replay", libinput_replay)
        check(got == want, f"libinput replay into pressured: {fmt_outcome(*got)}, expected {fmt_outcome(*want)}")
        details.append(f"libinput replay of the recording, served by a fresh pressured: {fmt_outcome(*got)}")

        # eight ordinary taps, then a finger held past peek: a recording a fresh replay learns from
        out = record_live("rec-unplug", CFG["warm_hold_peek"]["capture"], "evemu", "unplug", cut_file)
        check("was removed; the recording ends here" in out, f"record on unplug said: {out}")
        with open(cut_file) as f:
            text = f.read()
        check(text.endswith("\n") and re.match(r"E: \S+ 0000 0000 \d+\b", text.splitlines()[-1]),
              f"the recording cut by the unplug does not end with a whole frame: {text.splitlines()[-1]!r}")
        events, refused = replay_events(CFG["pressurectl"], cut_file)
        check(refused is None, f"pressurectl replay {cut_file}: {refused}")
        got = (sequences(events), force_changes(events))
        check(got[0] and got[0][0][0] == "peek" and got[1] == CFG["warm_hold_peek"]["force"],
              f"replay of the cut recording: {fmt_outcome(*got)}")
        details.append(f"record, device unplugged mid-press after eight taps: ends by itself, exit 0, "
                       f"{last_line(out)}; the last frame (the kernel's release of BTN_TOUCH) is whole; "
                       f"pressurectl replay: {fmt_outcome(*got)}")
    finally:
        stop_udevd(env)


def replay(path):
    got, refused = replayed(CFG["pressurectl"], path)
    check(refused is None, f"pressurectl replay {path}: {refused}")
    return got


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def as_nobody(groups):
    """setpriv arguments to run as nobody, with only the given supplementary groups."""
    return ["setpriv", "--reuid", "65534", "--regid", "65534"] + (
        ["--groups", ",".join(str(g) for g in groups)] if groups else ["--clear-groups"])


def record_permissions(details):
    pp = CFG["peek_pop"]
    player = Player("perm", pp["capture"], keep=True)
    rec = None
    try:
        subprocess.run(["udevadm", "settle", "--timeout=30"], env=dict(os.environ, SYSTEMD_IGNORE_CHROOT="1"))
        input_gid = grp.getgrnam("input").gr_gid
        st = os.stat(player.node)
        check(st.st_gid == input_gid and stat.S_IMODE(st.st_mode) == 0o660,
              f"{player.node}: group {st.st_gid}, mode {stat.S_IMODE(st.st_mode):o}; udev should make it input 0660")
        r = subprocess.run(as_nobody(None) + [CFG["pressurectl"], "record", player.node], capture_output=True,
                           text=True, timeout=30)
        check(r.returncode == 1 and "needs the `input` group" in r.stderr and r.stdout == "",
              f"record outside the input group: exit {r.returncode}, {r.stderr.strip()}")
        details.append(f"record as nobody: exit 1, \"{last_line(r.stderr)}\"")
        folder = os.path.join(RUN, "nobody")
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o1777)
        path = os.path.join(folder, "rec.evemu")
        rec = Proc("record-as-input-member", as_nobody([input_gid]) + [CFG["pressurectl"], "record", player.node,
                                                                        "-o", path])
        wait_until(lambda: "Ctrl-C to stop" in rec.text() or rec.p.poll() is not None, 30, "the recorder")
        check(rec.p.poll() is None, f"record in the input group exited: {rec.text()}")
        player.go()
        wait_until(lambda: "lateness" in player.text(), 60, "the capture's end")
        time.sleep(0.2)
        rec.signal(signal.SIGINT)
        check(rec.wait(15) == 0, f"record in the input group: {rec.text()}")
        got = replay(path)
        check(got == pp["expected"], f"its recording replays as {fmt(got)}")
        details.append(f"record as nobody in group input: {last_line(rec.text())}; replays as {fmt(got)}")
    finally:
        if rec:
            rec.stop()
        player.stop()


class Terminal:
    """A program on a pseudo-terminal of its own (its controlling terminal: Ctrl-C typed there is SIGINT),
    as a person at a console runs it; what it shows is collected."""

    def __init__(self, args):
        master, slave = pty.openpty()
        self.p = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                                  preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.master = master
        self.shown = b""
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                b = os.read(self.master, 4096)
            except OSError:  # EIO: the program and its terminal are gone
                b = b""
            with self.cv:
                self.shown += b
                self.cv.notify_all()
            if not b:
                return

    def text(self):
        with self.cv:
            return self.shown.decode(errors="replace")

    def wait_for(self, needle, timeout):
        end = time.monotonic() + timeout
        with self.cv:
            while needle.encode() not in self.shown:
                left = end - time.monotonic()
                check(left > 0, f"the terminal never showed {needle!r}; it shows: {self.shown[-400:]!r}")
                self.cv.wait(left)

    def type(self, keys):
        os.write(self.master, keys.encode())

    def close(self, name):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        with open(os.path.join(LOGS, name + ".terminal.log"), "w") as f:
            f.write(self.text())
        os.close(self.master)


def calibrate_interactive(details):
    cal = CFG["calibration"]
    conf = os.path.join(RUN, "calibration.conf")
    player = Player("calibration", cal["script"])
    term = Terminal([CFG["pressurectl"], "calibrate", player.node, "--taps", "8", "--presses", "3", "--write", conf])
    try:
        term.wait_for("Step 1 of 2", 30)
        player.go()  # four taps, then the player waits: fewer than the eight asked for
        wait_until(lambda: player.gates_passed() >= 1, 60, "the taps")
        term.wait_for("taps 3/8", 10)  # the live status line
        term.type("\n")  # Enter moves on
        term.wait_for("Step 2 of 2", 10)
        player.go()  # three firm presses: the third finishes the session
        term.wait_for("[y/N]", 60)
        term.type("y\n")
        check(term.p.wait(30) == 0, f"calibrate exit status {term.p.returncode}")
        shown = term.text()
        check("Appended to " + conf in shown, "calibrate did not say it wrote the file")
        with open(conf) as f:
            written = f.read()
        check(written == cal["section"], f"calibrate wrote\n{written}\nbut --from-capture proposes\n{cal['section']}")
        summary = [m.group(1) or f"{m.group(2)} {m.group(3)}" for m in (
            re.match(r"\s*(?:(\d+ taps.*?) \(axis|(Pressure\w+) += (\d+) {2,})", l) for l in shown.splitlines()) if m]
        details.append("calibrate on a terminal: 4 taps, Enter, 3 firm presses, y: " + "; ".join(summary))
        details.append(f"{conf} holds exactly the section `calibrate --from-capture` proposes for the same events")
    finally:
        term.close("calibrate")
        player.stop()


def calibrate_cancelled(details):
    conf = os.path.join(RUN, "cancelled.conf")
    player = Player("calibration-cancelled", CFG["calibration"]["script"])
    term = Terminal([CFG["pressurectl"], "calibrate", player.node, "--write", conf])
    try:
        term.wait_for("Step 1 of 2", 30)
        player.go()
        wait_until(lambda: player.gates_passed() >= 1, 60, "the taps")
        term.type("\x03")  # Ctrl-C, typed on its terminal
        check(term.p.wait(30) == 1, f"calibrate after Ctrl-C: exit status {term.p.returncode}")
        check("Calibration cancelled; nothing written." in term.text(), "no word of the cancellation")
        check(not os.path.exists(conf), "a cancelled calibration wrote its file")
        details.append("calibrate, Ctrl-C typed mid-session: exit 1, \"Calibration cancelled; nothing written.\", no file")
    finally:
        term.close("calibrate-cancelled")
        player.stop()


def s10_permissions_and_calibrate(details):
    env, _ = start_udevd()
    try:
        record_permissions(details)
        calibrate_interactive(details)
        calibrate_cancelled(details)
    finally:
        stop_udevd(env)
