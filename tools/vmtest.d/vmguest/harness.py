"""What every vmtest scenario uses inside the guest: the configuration prepare.py wrote (CFG, from the
results share given as guest.py's argument), checks and waits, child processes with logs (players, daemons),
the project's Python client on a thread, udevd, and a recorder of what the kernel delivers."""
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

OUT = sys.argv[1]
with open(os.path.join(OUT, "config.json")) as f:
    CFG = json.load(f)
# The guest has the standard library only: the project's client package and its process helper come
# from the repository's read-only mount, straight from the checkout (nothing is installed there).
sys.path.insert(0, CFG["client"])
sys.path.insert(0, CFG["pressured_process"])
import pressured_process  # noqa: E402  (how every tool starts pressured and waits for its socket)
from pressured import PressuredClient  # noqa: E402  (the project's own client, clients/python)

from .gestures import GESTURES, fmt, replayed, sequences  # noqa: E402,F401  (for the scenarios)

RUN = "/run/vmtest"  # guest tmpfs: logs are written here while measuring, copied to OUT afterwards
LOGS = os.path.join(OUT, "logs")
os.makedirs(RUN, exist_ok=True)
os.makedirs(LOGS, exist_ok=True)


def log(msg):
    print(f"[vmtest] {msg}", flush=True)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# How much slower this guest is than the x86_64 one the waits were set for (prepare.py's config.json, from
# tools/vmtest's Machine): the systemd boot's slowest waits (dpkg, the service's start) are multiplied.
SLOWER = CFG.get("timeout_factor", 1)


def wait_until(pred, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.02)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


class Proc:
    """A child process with its output in a log file on the guest's tmpfs."""
    count = 0

    def __init__(self, name, args, env=None, stdin=subprocess.DEVNULL):
        Proc.count += 1
        self.name = f"{Proc.count:02d}-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        self.logpath = os.path.join(RUN, self.name + ".log")
        self.logfile = open(self.logpath, "w")
        self.p = subprocess.Popen(args, stdout=self.logfile, stderr=subprocess.STDOUT, env=env,
                                  stdin=stdin)
        self.pid = self.p.pid

    def signal(self, sig):
        if self.p.poll() is None:
            os.kill(self.pid, sig)

    def wait(self, timeout):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"{self.name} still running after {timeout} s")

    def stop(self, timeout=5, keep_log=True):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.logfile.close()
        if keep_log:
            shutil.copy(self.logpath, os.path.join(LOGS, self.name + ".log"))
        return self.p.returncode

    def text(self):
        self.logfile.flush()
        with open(self.logpath, errors="replace") as f:
            return f.read()


class Player(Proc):
    """evplay: a uinput device made from an evemu description; SIGUSR1 opens its gates."""

    def __init__(self, name, capture, desc=None, gate=True, keep=False, record=None):
        self.devfile = os.path.join(RUN, f"dev-{Proc.count + 1}")
        args = [CFG["evplay"], "-v", "-d", self.devfile] + (["-g"] if gate else []) + (["-k"] if keep else [])
        args += ["-r", record] if record else []
        super().__init__("evplay-" + name, args + [capture] + ([desc] if desc else []))
        wait_until(lambda: os.path.exists(self.devfile) or self.p.poll() is not None, 30, f"{name}'s device")
        check(os.path.exists(self.devfile), f"evplay {name} made no device: {self.text().strip()}")
        with open(self.devfile) as f:
            self.node = f.read().strip()

    def go(self):
        self.signal(signal.SIGUSR1)

    def gates_passed(self):
        return self.text().count("at gate")


class Daemon(Proc):
    """pressured on a socket of its own, with a state directory of its own: fresh (nothing learned) unless
    `state` names one an earlier daemon used; never the system's /var/lib/pressured (the host's, through
    the chroot). `calibrated`: the fixtures' devices get the fixtures' calibration (prepare.py), so force is
    available from their first touch."""

    def __init__(self, name, args, binary=None, sock=None, wrapper=None, state=None, calibrated=False):
        self.sock = sock or os.path.join(RUN, f"p{Proc.count + 1}.sock")
        self.state = state or os.path.join(RUN, f"state-{Proc.count + 1}")
        os.makedirs(self.state, exist_ok=True)
        config = ["--config", CFG["fixture_conf"]] if calibrated else []
        cmd = pressured_process.command(binary or CFG["pressured"], config + args, self.sock, self.state, wrapper or [])
        super().__init__("pressured-" + name, cmd)
        try:
            pressured_process.wait_until_serving(self.p, self.sock, 60)
        except pressured_process.DidNotStart as e:
            raise Failure(f"{e}: {self.text().strip()[-500:]}") from None


class Client:
    """The project's Python client, reading events on a thread."""

    def __init__(self, sock, events=("gestures", "devices"), setup=None):
        """setup(PressuredClient), if given, makes its requests before the subscription and the reader."""
        self.c = PressuredClient(sock, timeout=120)
        end = time.monotonic() + 30
        while True:  # the socket's file exists from bind(); connecting before listen() is refused
            try:
                self.hello = self.c.connect()
                break
            except (ConnectionRefusedError, FileNotFoundError):
                self.c.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)
        if setup:
            setup(self.c)
        self.c.subscribe(events=list(events))
        self.events = []
        self.cv = threading.Condition()
        self.done = False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        try:
            for e in self.c.events():
                with self.cv:
                    self.events.append(e)
                    self.cv.notify_all()
        except Exception as e:  # noqa: BLE001 (a closed socket at the end)
            with self.cv:
                self.events.append({"type": "client-error", "error": repr(e)})
        with self.cv:
            self.done = True
            self.cv.notify_all()

    def mark(self):
        """Where the events received so far end: wait_for(after=mark) looks only at later ones."""
        with self.cv:
            return len(self.events)

    def wait_for(self, pred, timeout, what, after=0):
        end = time.monotonic() + timeout
        with self.cv:
            while True:
                for e in self.events[after:]:
                    if pred(e):
                        return e
                left = end - time.monotonic()
                if left <= 0 or self.done:
                    raise Failure(f"timed out waiting for {what}; last events: {self.events[-3:]}")
                self.cv.wait(left)

    def snapshot(self):
        with self.cv:
            return list(self.events)

    def close(self):
        self.c.close()


def device_added(node):
    return lambda e: e.get("type") == "device" and e.get("change") == "added" and e["device"]["node"] == node


def device_removed(dev_id):
    return lambda e: e.get("type") == "device" and e.get("change") == "removed" and e["device"]["id"] == dev_id


def start_udevd():
    os.makedirs("/run/udev/rules.d", exist_ok=True)
    shutil.copy(CFG["rules"], "/run/udev/rules.d/70-pressured.rules")
    env = dict(os.environ, SYSTEMD_IGNORE_CHROOT="1")
    udevd = next(p for p in ("/lib/systemd/systemd-udevd", "/usr/lib/systemd/systemd-udevd") if os.path.exists(p))
    t0 = time.monotonic()
    subprocess.run([udevd, "--daemon"], env=env, check=True)
    wait_until(lambda: os.path.exists("/run/udev/control"), 60, "udevd's control socket")
    return env, time.monotonic() - t0


def release(*things):
    """Closes clients and stops processes in the order given, skipping the ones never made (None)."""
    for t in things:
        if t is not None:
            (t.close if isinstance(t, Client) else t.stop)()


def stop_udevd(env):
    subprocess.run(["udevadm", "control", "--exit"], env=env)
    wait_until(lambda: not running("systemd-udevd"), 20, "udevd to exit")
    if os.path.exists("/run/udev/control"):
        os.unlink("/run/udev/control")


def running(comm):
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == comm:
                    return True
        except (OSError, ValueError):
            pass
    return False


def udev_properties(node, env):
    subprocess.run(["udevadm", "settle", "--timeout=30"], env=env)
    r = subprocess.run(["udevadm", "info", "--query=property", "--name=" + node], env=env, capture_output=True,
                       text=True)
    return dict(l.split("=", 1) for l in r.stdout.splitlines() if "=" in l)


def active_contacts(events, dev_id):
    live = {}
    for e in events:
        if e.get("type") == "touch" and e["device"] == dev_id:
            if e["phase"] in ("ended", "cancelled"):
                live.pop(e["contact"], None)
            else:
                live[e["contact"]] = (e["x"], e["y"])
    return live


class NodeRecorder:
    """Reads an evdev node beside pressured, keeping what the kernel delivered (CLOCK_MONOTONIC time stamps),
    until the device goes away; writes it as an evemu capture with a given header."""

    def __init__(self, node):
        import fcntl
        self.fd = os.open(node, os.O_RDONLY)
        fcntl.ioctl(self.fd, 0x400445A0, struct.pack("i", time.CLOCK_MONOTONIC))  # EVIOCSCLOCKID
        self.data = bytearray()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        try:
            while True:
                b = os.read(self.fd, 24 * 256)
                if not b:
                    break
                self.data += b
        except OSError:
            pass  # ENODEV: the device is gone
        os.close(self.fd)

    def write(self, path, header_from):
        self.t.join(10)
        with open(header_from, errors="replace") as f:
            header = [l for l in f if re.match(r"^[NIPBA]: ", l)]
        with open(path, "w") as o:
            o.write("# EVEMU 1.3\n")
            o.writelines(header)
            for i in range(0, len(self.data) - 23, 24):
                sec, usec, t, c, v = struct.unpack_from("qqHHi", self.data, i)
                o.write(f"E: {sec}.{usec:06d} {t:04x} {c:04x} {v}\n")


def daemon_status(sock):
    """The daemon's `status` counts, asked on a connection of its own (counted in `clients`)."""
    with PressuredClient(sock, timeout=30) as c:
        return c.status()


def process_usage(pid):
    """Open file descriptors (what each is) and resident memory (KiB) of a process."""
    fds = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            fds[int(fd)] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            pass
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    return fds, rss

