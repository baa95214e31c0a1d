#!/usr/bin/env python3
"""Runs inside the QEMU guest of tools/bench-filter (chrooted into the host's root, read-only; /run is the
guest's tmpfs). Usage: guest.py OUT (the writable results share, holding config.json from tools/bench-filter).

1. Latency, for every repeat and server template (order reversed on even repeats, so drift in the
   emulator's speed hits every server alike): panel_writer makes the panel, the server starts on it, its
   clone is found by name, clone_reader reads the clone, the writer streams, the reader joins.
2. libinput, for every server: `libinput debug-events` on the clone and on the panel while a tap is
   written, and once on the panel with no server (the control: this libinput does see the panel's touches
   when nobody grabs it, so silence under the grab is the grab's doing).
3. Held touches, for every server whose template names `{socket}` (pressured with FilterMethod = hold): a
   client owns a region over the whole panel that wants previews, and the writer makes taps, then drags;
   the clone is read here, each frame with its kernel time stamp: how long after the panel's lift a held
   tap's down and up reach the clone, and how long after the panel's frame that passes the slop a drag's
   down does.
Writes OUT/results.txt (the table and the libinput lines); logs of every process go to OUT/logs/.
Asserts nothing: a run that fails gets a row saying why and the next one goes on.
"""
import array
import fcntl
import json
import os
import struct
import threading
import re
import shutil
import signal
import subprocess
import sys
import time

OUT = sys.argv[1]
CFG = json.load(open(os.path.join(OUT, "config.json")))
BIN = CFG["bin"]
LOGS = os.path.join(OUT, "logs")
RUN = "/run/bench-filter"  # tmpfs: nothing goes over 9p while measuring
PANEL = "filterbench panel"  # panel_writer.c's device name
HZ = os.sysconf("SC_CLK_TCK")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HELD = 20  # taps, and drags, a held run writes


def log(msg):
    print(f"[bench-filter] {msg}", flush=True)


def wait_for(cond, seconds, step=0.05):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(step)
    return None


def stop(p, sig=signal.SIGTERM):
    if p is None or p.poll() is not None:
        return
    p.send_signal(sig)
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def start(name, argv, env=None):
    out = open(os.path.join(RUN, name + ".out"), "w")
    return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def clone_of_panel(before):
    """The event node of a new input device named "<panel> (…)": the clone, whoever made it."""
    for ev in sorted(os.listdir("/sys/class/input")):
        if not ev.startswith("event") or ev in before:
            continue
        if read(f"/sys/class/input/{ev}/device/name").strip().startswith(PANEL + " ("):
            node = f"/dev/input/{ev}"
            return node if os.access(node, os.R_OK) else None
    return None


def events_now():
    return {e for e in os.listdir("/sys/class/input") if e.startswith("event")}


def cpu_ms(pid):
    try:
        f = read(f"/proc/{pid}/stat").rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 1000 // HZ
    except (IndexError, ValueError):
        return None


def panel(mode):
    """panel_writer, gated, with its node; (process, node) or (process, None). `mode`: stream, tap, or
    taps or drags (HELD of them)."""
    shutil.rmtree(RUN, ignore_errors=True)
    os.makedirs(RUN)
    argv = [f"{BIN}/panel_writer", "-d", f"{RUN}/dev", "-l", f"{RUN}/writer.log", "-r", str(CFG["rate"])]
    argv += {"tap": ["-t"], "taps": ["-t", "-c", str(HELD)], "drags": ["-g", "-c", str(HELD)]}.get(
        mode, ["-n", str(CFG["frames"])])
    w = start("writer", argv)
    ok = wait_for(lambda: os.path.exists(f"{RUN}/dev") or w.poll() is not None, 30)
    return w, (read(f"{RUN}/dev").strip() if ok and w.poll() is None else None)


def server(label, template, dev):
    cmd = template.replace("{dev}", dev).replace("{bin}", BIN).replace("{run}", RUN)
    cmd = cmd.replace("{socket}", f"{RUN}/server.sock")
    before = events_now()
    s = start("server", ["sh", "-c", "exec " + cmd])
    clone = wait_for(lambda: clone_of_panel(before) or (s.poll() is not None and "exited"), 30)
    return s, cmd, (None if clone == "exited" else clone)


def keep_logs(name):
    os.makedirs(LOGS, exist_ok=True)
    with open(os.path.join(LOGS, name + ".txt"), "w") as f:
        for part in ("writer", "server", "reader", "libinput-clone", "libinput-panel"):
            text = read(f"{RUN}/{part}.out")
            if text:
                f.write(f"=== {part}\n{text}")


def latency_run(label, template, rep):
    w, dev = panel("stream")
    s = r = None
    try:
        if dev is None:
            return f"label={label} error=no-panel"
        s, cmd, clone = server(label, template, dev)
        log(f"{label} #{rep}: {cmd} -> clone {clone}")
        if clone is None:
            return f"label={label} error=no-clone"
        r = start("reader", [f"{BIN}/clone_reader", "-d", clone, "-l", f"{RUN}/writer.log", "-n", str(CFG["frames"]),
                             "-w", str(CFG["warmup"]), "-L", label, "-R", f"{RUN}/ready"])
        if not wait_for(lambda: os.path.exists(f"{RUN}/ready"), 30):
            return f"label={label} error=reader-not-ready"
        time.sleep(0.5)  # the reader blocked in read(), the server idle
        c0 = cpu_ms(s.pid)
        w.send_signal(signal.SIGUSR1)
        wait_for(lambda: os.path.exists(f"{RUN}/writer.log"), CFG["frames"] / CFG["rate"] + 60, 0.2)
        time.sleep(0.5)  # the last frames drain through the server
        c1 = cpu_ms(s.pid)
        alive = s.poll() is None
        stop(r)
        res = [l for l in read(f"{RUN}/reader.out").splitlines() if l.startswith("RESULT ")]
        if not res:
            return f"label={label} error=no-result"
        cpu = "-" if c0 is None or c1 is None else str(c1 - c0)
        # frames the writer sent more than a period late: the guest stalled (the host's load), not the server
        late = re.search(r"(\d+) more than a period late", read(f"{RUN}/writer.out"))
        return (res[-1][len("RESULT "):] + f" cpu_ms={cpu} late={late.group(1) if late else '-'}" +
                ("" if alive else " error=server-died"))
    finally:
        stop(r)
        stop(s)
        stop(w, signal.SIGUSR1)
        keep_logs(f"latency-{label}-{rep}")


def debug_events(name, node, env):
    # line-buffered, so that DEVICE_ADDED can be waited for; SIGINT is how libinput ends cleanly
    return start(name, ["stdbuf", "-oL", "libinput", "debug-events", "--device", node], env)


def touches(name):
    """libinput's event names of a debug-events log, DEVICE_ADDED and the like left out."""
    names = []
    for line in read(f"{RUN}/{name}.out").splitlines():
        f = line.split()
        if len(f) >= 2 and f[1].startswith("TOUCH_"):
            names.append(f[1])
    return names


def tap_through(seq):
    return "TOUCH_DOWN" in seq and "TOUCH_UP" in seq[seq.index("TOUCH_DOWN"):]


def show(seq):
    """TOUCH_DOWN TOUCH_MOTION x10 TOUCH_UP (+12 TOUCH_FRAME): runs counted, frames (which carry nothing
    for this) only counted."""
    runs = []
    for name in (s for s in seq if s != "TOUCH_FRAME"):
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    text = " ".join(n if c == 1 else f"{n} x{c}" for n, c in runs) or "nothing"
    return text + (f" (+{seq.count('TOUCH_FRAME')} TOUCH_FRAME)" if "TOUCH_FRAME" in seq else "")


def libinput_run(label, template, env):
    """A tap on the panel; libinput on the clone (when there is a server) and on the panel. Result lines."""
    w, dev = panel("tap")
    s = lc = lp = None
    try:
        if dev is None:
            return [f"libinput {label}: no panel"]
        clone = None
        if template is not None:
            s, cmd, clone = server(label, template, dev)
            if clone is None:
                return [f"libinput {label}: no clone appeared ({cmd})"]
        subprocess.run(["udevadm", "settle", "--timeout=30"], env=env)  # ID_INPUT_*: libinput ignores a node without
        lp = debug_events("libinput-panel", dev, env)
        lc = debug_events("libinput-clone", clone, env) if clone else None
        for p, name in ((lp, "libinput-panel"), (lc, "libinput-clone")):
            if p and not wait_for(lambda: "DEVICE_ADDED" in read(f"{RUN}/{name}.out"), 60, 0.2):
                return [f"libinput {label}: {name} never added the device: {read(f'{RUN}/{name}.out')[-300:]!r}"]
        w.send_signal(signal.SIGUSR1)
        wait_for(lambda: os.path.exists(f"{RUN}/writer.log"), 30, 0.1)
        time.sleep(1.5)  # libinput's reads under TCG
        stop(lc, signal.SIGINT)
        stop(lp, signal.SIGINT)
        pan = touches("libinput-panel")
        if template is None:
            seen = "yes" if tap_through(pan) else "NO"
            return [f"libinput, no server (control): on the panel {show(pan)}: tap seen {seen}"]
        cl = touches("libinput-clone")
        return [f"libinput {label}: on the clone {show(cl)}: tap through {'yes' if tap_through(cl) else 'NO'}",
                f"libinput {label}: on the grabbed panel {show(pan)}: silent {'yes' if not pan else 'NO'}"]
    finally:
        stop(lc, signal.SIGINT)
        stop(lp, signal.SIGINT)
        stop(s)
        stop(w, signal.SIGUSR1)
        keep_logs(f"libinput-{label}")


EVIOCSCLOCKID = 0x400445a0  # _IOW('E', 0xa0, int)
EVENT = struct.Struct("llHHi")  # struct input_event on a 64-bit kernel


def read_frames(node, frames, done):
    """Reads the clone until `done` is set: each SYN_REPORT as (kernel stamp ns, 'down' / 'up' / '') by the
    tracking ids it carries, the stamps on CLOCK_MONOTONIC (the writer's clock)."""
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, EVIOCSCLOCKID, array.array("i", [time.CLOCK_MONOTONIC]))
    kind = ""
    try:
        while not done.is_set():
            try:
                data = os.read(fd, EVENT.size * 64)
            except BlockingIOError:
                time.sleep(0.001)
                continue
            for off in range(0, len(data) - EVENT.size + 1, EVENT.size):
                sec, usec, typ, code, value = EVENT.unpack_from(data, off)
                if typ == 3 and code == 0x39:
                    kind = "down" if value >= 0 else "up"
                elif typ == 0 and code == 0:
                    frames.append((sec * 1_000_000_000 + usec * 1000, kind))
                    kind = ""
    finally:
        os.close(fd)


def held_run(label, template, mode):
    """A held run (the module's doc, 3.): the delays, in ms, of each touch's down (and a tap's up) on the
    clone after the panel's frame that decided it: a tap's lift (frame 11 of its 12), a drag's move past
    the 2 mm slop (frame 4: 20 units across at 10 a mm and 4 down, just past it). Returns (downs, ups) or
    an error string."""
    sys.path.insert(0, os.path.join(REPO, "clients", "python"))
    import pressured  # noqa: E402  (the repository's client, not installed in the guest)
    w, dev = panel(mode)
    s = owner = reader = None
    done = threading.Event()
    frames = []
    try:
        if dev is None:
            return "no panel"
        s, cmd, clone = server(label, template, dev)
        if clone is None:
            return f"no clone ({cmd})"
        owner = pressured.Client(f"{RUN}/server.sock", timeout=10)
        owner.connect()
        owner.subscribe(events=["gestures"])
        owner.set_region("all", 0, 0, 4096, 4096, wants=["previews"])
        reader = threading.Thread(target=read_frames, args=(clone, frames, done))
        reader.start()
        time.sleep(0.5)
        w.send_signal(signal.SIGUSR1)
        if not wait_for(lambda: os.path.exists(f"{RUN}/writer.log"), 60, 0.1):
            return "the writer never finished"
        time.sleep(1.0)
        written = [int(l.split()[1]) for l in read(f"{RUN}/writer.log").splitlines() if not l.startswith("#")]
        downs = [t for t, k in frames if k == "down"]
        ups = [t for t, k in frames if k == "up"]
        if len(downs) != HELD or len(ups) != HELD:
            return f"{len(downs)} downs and {len(ups)} ups on the clone, not {HELD} each"
        decided = 11 if mode == "taps" else 4
        return ([(downs[g] - written[12 * g + decided]) / 1e6 for g in range(HELD)],
                [(ups[g] - written[12 * g + 11]) / 1e6 for g in range(HELD)])
    finally:
        done.set()
        if reader:
            reader.join()
        if owner:
            owner.close()
        stop(s)
        stop(w, signal.SIGUSR1)
        keep_logs(f"held-{mode}-{label}")


def held_lines(label, template):
    """The held runs' result lines: medians and worst of HELD taps' and drags' delays."""
    def figures(xs):
        xs = sorted(xs)
        return f"p50 {median(xs):.2f} ms, max {xs[-1]:.2f} ms"
    lines = []
    taps = held_run(label, template, "taps")
    drags = held_run(label, template, "drags")
    if isinstance(taps, str):
        lines.append(f"held {label}: taps: {taps}")
    else:
        lines.append(f"held {label}: {HELD} taps in a region, the panel's lift -> the clone's down: {figures(taps[0])}; "
                     f"-> its up: {figures(taps[1])}")
    if isinstance(drags, str):
        lines.append(f"held {label}: drags: {drags}")
    else:
        lines.append(f"held {label}: {HELD} drags in a region, the panel's frame past the slop -> the clone's down: "
                     f"{figures(drags[0])}")
    return lines


def start_udevd():
    # libinput takes a node only with udev's ID_INPUT properties; udevd runs only for this part, so that
    # it adds nothing to the latency runs
    env = dict(os.environ, SYSTEMD_IGNORE_CHROOT="1")
    udevd = next(p for p in ("/lib/systemd/systemd-udevd", "/usr/lib/systemd/systemd-udevd") if os.path.exists(p))
    subprocess.run([udevd, "--daemon"], env=env, check=True)
    wait_for(lambda: os.path.exists("/run/udev/control"), 60)
    return env


COLUMNS = ["label", "written", "read", "lost", "p50_us", "p99_us", "max_us", "mean_us", "emit_p50_us",
           "emit_p99_us", "cpu_ms", "dropped", "late"]
HEAD = ["server", "written", "read", "lost", "p50", "p99", "max", "mean", "emit_p50", "emit_p99", "cpu_ms", "drops",
        "late"]
FMT = "{:<12} {:>7} {:>7} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>5} {:>5}"


def row(kv):
    return FMT.format(*[kv.get(c, "-") for c in COLUMNS]) + (f"  {kv['error']}" if "error" in kv else "")


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[(n - 1) // 2] + xs[n // 2]) / 2 if n else None


def main():
    for m in ("uinput", "evdev"):
        subprocess.run(["modprobe", m], check=True)
    servers = CFG["servers"]
    cs = read("/sys/devices/system/clocksource/clocksource0/current_clocksource").strip()
    log(f"guest {os.uname().release}, {os.cpu_count()} cpus, clocksource {cs}; {CFG['frames']} frames at "
        f"{CFG['rate']} Hz, 10 fingers, {CFG['repeat']} repeat(s) of {', '.join(l for l, _ in servers)}")
    rows = []
    for rep in range(1, CFG["repeat"] + 1):
        for label, template in (servers if rep % 2 else servers[::-1]):
            kv = dict(f.split("=", 1) for f in latency_run(label, template, rep).split() if "=" in f)
            rows.append(kv)
            log(row(kv))
    lines = [f"# {CFG['frames']} frames at {CFG['rate']} Hz, 10 fingers ({CFG['warmup']} warm-up frames not in the "
             f"latencies), guest clocksource {cs}, {os.cpu_count()} vCPUs, QEMU TCG: read the ratios",
             "# latency (us) = clone_reader's read() of a frame's SYN_REPORT on the clone - panel_writer's clock "
             "before its write() of the frame",
             "# emit = the clone's kernel time stamp of that SYN_REPORT - the same write (no reader wake-up in it); "
             "cpu_ms = the server's utime+stime over the stream; lost = written - read; drops = SYN_DROPPED on the clone;",
             "# late = frames the writer sent more than a period late (the guest stalled: the host's load)"]
    lines += [f"# {l}: {t}" for l, t in servers]
    lines += [FMT.format(*HEAD)] + [row(kv) for kv in rows]
    # Under TCG on a shared host the guest stalls whenever the host's other work takes its cores, and
    # latency then jumps from hundreds of microseconds to milliseconds, whatever the server: a median
    # over such runs says which runs the host spoiled. A quiet run (the writer, which does next to
    # nothing, late on at most 1 % of its frames) says something about the server; the ratios are taken
    # over quiet runs when every server has one.
    def quiet(kv):
        return kv.get("late", "-") != "-" and int(kv["late"]) <= CFG["frames"] // 100

    def summary(label, pick):
        mine = [kv for kv in rows if kv.get("label") == label and "p50_us" in kv and pick(kv)]
        med = {c: median([float(kv[c]) for kv in mine if kv.get(c, "-") != "-"]) for c in COLUMNS[1:]}
        return len(mine), {"label": label, **{c: "-" if v is None else f"{v:g}" for c, v in med.items()}}

    every = {l: summary(l, lambda kv: True) for l, _ in servers}
    calm = {l: summary(l, quiet) for l, _ in servers}
    if CFG["repeat"] > 1:
        lines.append(f"# median over {CFG['repeat']} repeats")
        lines += [row(every[l][1]) for l, _ in servers]
        lines.append("# median over the quiet runs (the writer late on <= 1 % of its frames)")
        lines += [row(calm[l][1]) + f"  ({calm[l][0]} of {every[l][0]} runs)" for l, _ in servers]
    use, which = (calm, "quiet runs") if all(calm[l][0] for l, _ in servers) else (every, "all runs: none quiet")
    base = use[servers[0][0]][1]
    for label, _ in servers[1:]:
        kv = use[label][1]
        ratios = [f"{c[:-3]} {float(kv[c]) / float(base[c]):.2f}x" for c in ("p50_us", "p99_us", "cpu_ms")
                  if kv[c] != "-" and base[c] not in ("-", "0")]
        lines.append(f"# {label} against {base['label']} ({which}): " + (", ".join(ratios) or "no figures"))

    log("libinput: a tap on the panel, read through the clone and on the panel (udevd started)")
    env = start_udevd()
    for label, template in [("none", None)] + servers:
        for l in libinput_run(label, template, env):
            log(l)
            lines.append(l)
    held = [(l, t) for l, t in servers if "{socket}" in t]
    if held:
        log("held touches: taps and drags in a region that wants previews, the clone's kernel stamps")
    for label, template in held:
        for l in held_lines(label, template):
            log(l)
            lines.append(l)
    with open(os.path.join(OUT, "results.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


main()
