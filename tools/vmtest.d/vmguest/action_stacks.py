"""Scenarios 36-41: actions (docs/actions.md) under the compositor matrix's stacks (stacks.py, brought up as
filter_stacks.py does). pressured in filter mode with the `[action]` sections of action_cases.CONFIG (a pop
and a hold: a right click; a pop in the bottom half: Ctrl+C) serves a panel that maps onto the whole screen,
where the Qt Quick app of tools/vmtest.d/action-app.qml runs: a firm press and a hold on its item must open
the item's context menu at the finger (a right click within a few pixels of the finger's screen point) with
no left press or click; an ordinary tap must click once, a drag scroll its list, and the firm press in the
list reach the app as Ctrl+C.

The latency from the gesture's frame (the pop's `time`: the kernel's time stamp of the panel frame that
crossed the threshold; a long press's: the daemon's timer tick) to the action pointer's BTN_RIGHT press (and
the action keyboard's first key) as the kernel stamped them for a reader of those nodes, is printed beside
the pointer's events. Each way's results go to OUT/actions/<stack>-<way>.json.
"""
import glob
import re
import os
import struct
import time

from . import action_cases as cases
from .filter_common import plug
from .filter_stacks import COMMON_PACKAGES, PACKAGES, SETTLE, STACKS, debian_release, write
from .harness import CFG, RUN, Client, Daemon, NodeRecorder, check, release, start_udevd, stop_udevd, wait_until
from .stacks import APP, Session, package_version

APP_QML = os.path.join(os.path.dirname(APP), "action-app.qml")
WAYS = ("hold", "cancel")
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_LEFT, BTN_RIGHT = 0x110, 0x111


# Cases a stack cannot pass for a reason of its own, found by the matrix (stack_expectations.py): what goes
# wrong there is recorded in the result line, not failed. {stack: {case: why}}
STACK_LIMITS = {
    "cage014": {c: "cage 0.1.4 sends no wl_touch.frame: Qt 6.4 takes a touch late (scenario 28)"
                for c in ("tap", "next", "drag")},
}


def start_daemon(key, way):
    path = os.path.join(RUN, f"actions-{way}.conf")
    with open(path, "w") as f:
        f.write(f"[pressured]\nFilter = on\nFilterMethod = {way}\n\n" + cases.CONFIG)
    return Daemon(f"actions-{key}-{way}", ["--config", path], binary=CFG["static_pressured"], calibrated=True)


def action_node(panel, kind):
    """The event node of the action device (`pointer` or `keyboard`) pressured made for the panel at `panel`."""
    for d in glob.glob("/sys/class/input/event*/device"):
        try:
            with open(os.path.join(d, "phys")) as f:
                phys = f.read().strip()
            with open(os.path.join(d, "name")) as f:
                name = f.read().strip()
        except OSError:
            continue
        if phys == f"pressured-action:{panel}" and name.endswith(f" {kind} (pressured)"):
            return "/dev/input/" + os.path.basename(os.path.dirname(d))
    return None


def events_of(recorder):
    """(seconds, type, code, value) of what a NodeRecorder got so far."""
    data = bytes(recorder.data)
    return [(sec + usec / 1e6, t, c, v) for sec, usec, t, c, v in
            (struct.unpack_from("qqHHi", data, i) for i in range(0, len(data) - 23, 24))]


def pointer_words(evs):
    """The pointer's events in a few words, frame by frame: `abs` (motion), `right down`, `right up`."""
    frames, cur = [], []
    for _, t, c, v in evs:
        if t == EV_SYN:
            frames.append("+".join(dict.fromkeys(cur)) or "empty")
            cur = []
        elif t == EV_ABS:
            cur.append("abs")
        elif t == EV_KEY:
            cur.append({BTN_LEFT: "left", BTN_RIGHT: "right"}.get(c, hex(c)) + (" down" if v else " up"))
    return ", ".join(frames)


def app(session):
    """The action app, started as the matrix starts its app."""
    # No client-side decorations: under a compositor without server-side ones (cage 0.1.4) Qt's Wayland
    # plugin draws a title bar and borders, and the item's origin is then 30 px below the output's top.
    env = dict(session.client_env, QT_QUICK_BACKEND="software", QT_QUICK_CONTROLS_STYLE="Basic",
               QT_LOGGING_RULES="qt.qpa.*=false", QT_WAYLAND_DISABLE_WINDOWDECORATION="1")
    p = session._spawn("action-app", ["/usr/lib/qt6/bin/qml", APP_QML], env=env)  # noqa: SLF001
    wait_until(lambda: "app: ready" in p.text() or p.p.poll() is not None, 180, "the action app's window")
    check(p.p.poll() is None, f"the action app did not start (exit {p.p.poll()}): {p.text()[-800:]}")
    time.sleep(3)
    return p


def one_way(session, way, script):
    daemon = start_daemon(session.stack.key, way)
    player = watcher = client = None
    recorders = {}
    try:
        watcher = Client(daemon.sock, ("gestures",))
        player, _ = plug(daemon, f"actions-{session.stack.key}", script)
        for kind in ("pointer", "keyboard"):
            node = wait_until(lambda: action_node(player.node, kind), 30, f"the action {kind}")
            recorders[kind] = NodeRecorder(node)
        time.sleep(2)  # the compositor's libinput takes the clone and the action devices on udev's word
        client = app(session)
        m = re.search(r"app: ready (\d+)x(\d+)", client.text())
        size = (int(m.group(1)), int(m.group(2)))
        out = {"screen": size, "cases": {}}
        for i, (case, _, at) in enumerate(cases.CASES):
            mark, pmark = len(client.text()), len(events_of(recorders["pointer"]))
            gmark = len(watcher.snapshot())
            player.go()
            wait_until(lambda: player.gates_passed() >= i + 1 or player.p.poll() is not None, 60, f"case {case}")
            time.sleep(SETTLE + (0.5 if case in ("firm", "hold") else 0))  # (the menu opens a frame later)
            s = cases.summary(cases.lines(client.text()[mark:]))
            pointer = events_of(recorders["pointer"])[pmark:]
            gestures = [e for e in watcher.snapshot()[gmark:] if e.get("type") in ("pop", "longPress")]
            out["cases"][case] = {**s, "wrong": cases.judge(case, at, s, size),
                                  "words": cases.words(case, at, s, size), "pointer": pointer_words(pointer),
                                  "latency_ms": latency(gestures, pointer, events_of(recorders["keyboard"]))}
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        session.stop_client(client)
        client = None
        return out
    finally:
        if client:
            session.stop_client(client)
        release(player, watcher)
        daemon.stop()


def latency(gestures, pointer, keyboard):
    """Milliseconds from each gesture's time to the first BTN_RIGHT press (or key press) after it."""
    out = []
    for g in gestures:
        t0 = g["time"]
        press = [t for t, ty, c, v in pointer if ty == EV_KEY and c == BTN_RIGHT and v == 1 and t >= t0 - 0.001]
        key = [t for t, ty, c, v in keyboard if ty == EV_KEY and v == 1 and t >= t0 - 0.001]
        first = min(press[:1] + key[:1], default=None)
        out.append({"gesture": g["type"], "ms": round((first - t0) * 1000, 2) if first else None,
                    "to": "BTN_RIGHT" if press and first == press[0] else "key" if first else None})
    return out


def run_stack(key, details):
    stack = STACKS[key]
    env, _ = start_udevd()
    t0 = time.monotonic()
    session = Session(stack, env)
    result = {"stack": key, "name": stack.name, "release": debian_release(),
              "versions": {p: package_version(p) for p in PACKAGES[stack.kind] + COMMON_PACKAGES}, "ways": {}}
    try:
        session.start()
        result["started_in_s"] = round(time.monotonic() - t0, 1)
        script = cases.script()
        for way in CFG.get("matrix_ways") or WAYS:
            result["ways"][way] = one_way(session, way, script)
    finally:
        session.stop()
        stop_udevd(env)
        write(result, "actions")
    report(result, details)
    limits = STACK_LIMITS.get(key, {})
    wrong = [f"{way} {case}: {w}" for way, r in result["ways"].items() for case, c in r["cases"].items()
             for w in c["wrong"] if case not in limits]
    check(not wrong, "; ".join(wrong))


def report(result, details):
    versions = ", ".join(f"{p} {v}" for p, v in result["versions"].items())
    details.append(f"{result['name']} ({result['release']}: {versions}); up in {result.get('started_in_s')} s")
    for way, r in result["ways"].items():
        details.append(f"{way}: screen {r['screen'][0]}x{r['screen'][1]}")
        for case, what, _ in cases.CASES:
            c = r["cases"][case]
            lat = "; ".join(f"{l['gesture']} to {l['to']}: {l['ms']} ms" for l in c["latency_ms"])
            details.append(f"{result['name']}: {way}: {what}: Qt app: {c['words']}"
                           + (f"; pointer: {c['pointer']}" if c["pointer"] else "")
                           + (f"; latency {lat}" if lat else "")
                           + (f"; WRONG: {'; '.join(c['wrong'])}" if c["wrong"] else "")
                           + (f" (the stack's: {STACK_LIMITS[result['stack']][case]})"
                              if c["wrong"] and case in STACK_LIMITS.get(result["stack"], {}) else ""))


def s36_xorg21(details):
    run_stack("xorg21", details)


def s37_cage014(details):
    run_stack("cage014", details)


def s38_weston10(details):
    run_stack("weston10", details)


def s39_labwc08(details):
    run_stack("labwc08", details)


def s40_cage02(details):
    run_stack("cage02", details)


def s41_weston14(details):
    run_stack("weston14", details)
