"""Scenarios 28-35: the compositor matrix (docs/filter.md, "Which compositors pass the cancel on"). Each
brings up one display stack (stacks.py) reading pressured's clone, with a region over the whole screen that
wants previews, and plays the cases of stack_cases.py through a filtered panel, each way filter mode keeps a
taken touch from the app (`FilterMethod = cancel`, and `hold` where the build has it), twice: once to the
stack's event printer (wev, or xinput test-xi2 under X), once to the Qt Quick app (touch-app.qml).

What each client got of each case is written to OUT/matrix/<stack>-<way>.json (tools/filter-matrix-table makes
docs/filter.md's table from those files) and compared with what was measured before for that stack and way
(stack_expectations.py): with `cancel` the stacks that drop the cancel are expected to, and that is recorded,
not failed; with `hold` every stack must give the app a clean tap, no trace of a taken touch and a scroll.
"""
import json
import os
import time

from . import stack_cases as cases
from .filter_common import let_go, plug, region_owner
from .harness import CFG, OUT, RUN, Daemon, Failure, check, release, start_udevd, stop_udevd, wait_until
from .stack_expectations import expected
from .stacks import LABWC_RC, SWAY_CONF, Session, Stack, package_version

STACKS = {
    "weston10": Stack("weston10", "Weston 10", "weston-direct"),
    "cage014": Stack("cage014", "cage 0.1.4", "wlroots", ("cage", "--", "sleep", "100000")),
    "sway17": Stack("sway17", "sway 1.7", "wlroots", ("sway",), SWAY_CONF),
    "xorg21": Stack("xorg21", "Xorg 21.1, xf86-input-libinput 1.2", "xorg"),
    "labwc08": Stack("labwc08", "labwc 0.8", "wlroots", ("labwc",), LABWC_RC),
    "cage02": Stack("cage02", "cage 0.2", "wlroots", ("cage", "--", "sleep", "100000")),
    "sway110": Stack("sway110", "sway 1.10", "wlroots", ("sway",), SWAY_CONF),
    "weston14": Stack("weston14", "Weston 14", "weston-seatd"),
}
# The packages whose versions the results name, per stack.
PACKAGES = {"weston-direct": ("weston",), "weston-seatd": ("weston",), "xorg": ("xserver-xorg-core",
            "xserver-xorg-input-libinput"), "wlroots": ()}
COMMON_PACKAGES = ("libinput10", "qml-qt6", "qt6-wayland")
WAYS = ("cancel", "hold")
SETTLE = 1.5  # seconds after a case for its events to reach the clients (the emulated guest is slow)
KILL_WAIT = 3.0  # after the SIGKILL: the clone goes, the compositor drops it


def config(way, with_method):
    path = os.path.join(RUN, f"filter-matrix-{way}.conf")
    with open(path, "w") as f:
        f.write("[pressured]\nFilter = on\n" + (f"FilterMethod = {way}\n" if with_method else ""))
    return path


def start_daemon(label, way, with_method):
    return Daemon(f"matrix-{label}-{way}", ["--config", config(way, with_method)], binary=CFG["static_pressured"],
                  calibrated=True)


def ways_in_build():
    """The ways this build of pressured has: (way, whether the configuration names it). A build without
    `FilterMethod` refuses the key (an unknown key is an error): it has `cancel` alone, as filter mode's
    only way."""
    try:
        probe = start_daemon("probe", "hold", True)
    except Failure as e:
        if "FilterMethod" not in str(e):
            raise
        return [("cancel", False)]
    probe.stop()
    return [(w, True) for w in WAYS]


def one_pass(session, way, with_method, client_kind, script):
    """Plays every case to one client under one way; returns {case: {protocol or app summary, words}}."""
    label = f"{session.stack.key}-{client_kind}"
    daemon = start_daemon(label, way, with_method)
    owner = player = None
    try:
        owner = region_owner(daemon, "previews")
        player, clone = plug(daemon, label, script)
        time.sleep(2)  # the compositor's libinput takes the clone on udev's word
        client = session.printer() if client_kind == "printer" else session.app()
        parse = (cases.xi2_events if session.stack.kind == "xorg" else cases.wev_events) \
            if client_kind == "printer" else cases.app_lines
        out, left = {}, []
        for i, (case, _) in enumerate(cases.CASES):
            mark = len(client.text())
            player.go()  # (the first opens the player's own gate, each next the gate after a case)
            wait_until(lambda: player.gates_passed() >= i + 1 or player.p.poll() is not None, 60, f"case {case}")
            time.sleep(SETTLE)
            if case == "kill":
                daemon.p.kill()
                daemon.p.wait()
                time.sleep(KILL_WAIT)
                out["clone_removed"] = not os.path.exists(clone)
            text = client.text()[mark:]
            got = parse(text)
            if client_kind == "printer":
                s = cases.protocol_summary(got, left)
                left = s["left_down"]
                wayland = session.stack.kind != "xorg"
                out[case] = {**s, "words": cases.protocol_words(s, frames=wayland),
                             "down_to_up_ms": cases.down_to_up_ms(text) if wayland else None}
            else:
                s = cases.app_summary(got)
                out[case] = {**s, "words": cases.app_words(s)}
        player.go()  # (past the gate after the last case)
        check(player.wait(60) == 0, "evplay failed")
        session.stop_client(client)
        return out
    finally:
        release(player)
        if owner:
            let_go(owner)
        daemon.stop()


def run_stack(key, details):
    stack = STACKS[key]
    env, _ = start_udevd()
    t0 = time.monotonic()
    session = Session(stack, env)
    result = {"stack": key, "name": stack.name, "release": debian_release(),
              "versions": {p: package_version(p) for p in PACKAGES[stack.kind] + COMMON_PACKAGES +
                           ((stack.command[0],) if stack.command else ())},
              "ways": {}}
    try:
        session.start()
        result["started_in_s"] = round(time.monotonic() - t0, 1)
        script = cases.script()
        asked = CFG.get("matrix_ways") or WAYS
        for way, with_method in [(w, m) for w, m in ways_in_build() if w in asked]:
            result["ways"][way] = {kind: one_pass(session, way, with_method, kind, script)
                                   for kind in ("printer", "app")}
    finally:
        session.stop()
        stop_udevd(env)
        write(result)
    report(result, details)
    compare(result)


def debian_release():
    with open("/etc/debian_version") as f:
        return "Debian " + f.read().strip().split(".")[0]


def write(result, under="matrix"):
    folder = os.path.join(OUT, under)
    os.makedirs(folder, exist_ok=True)
    # A file a way: a run of one way (VMTEST_MATRIX_WAYS) leaves the other's results as they were.
    for way, passes in result["ways"].items():
        with open(os.path.join(folder, f"{result['stack']}-{way}.json"), "w") as f:
            json.dump(dict(result, ways={way: passes}), f, indent=1)


def report(result, details):
    versions = ", ".join(f"{p} {v}" for p, v in result["versions"].items())
    details.append(f"{result['name']} ({result['release']}: {versions}); up in {result.get('started_in_s')} s")
    if "hold" not in result["ways"]:
        details.append("hold: not in this build of pressured (FilterMethod refused): cancel only")
    printer = "xinput test-xi2" if STACKS[result["stack"]].kind == "xorg" else "wev"
    for way, passes in result["ways"].items():
        for case, what in cases.CASES:
            p, a = passes["printer"][case], passes["app"][case]
            details.append(f"{way}: {what}: {printer}: {p['words']}; Qt app: {a['words']}")
        taps = [passes["printer"][c].get("down_to_up_ms") for c in ("tap", "next")]
        if any(t is not None for t in taps):
            details.append(f"{way}: a tap's wl_touch.down to up, by the compositor's times: "
                           + ", ".join(f"{t} ms" for t in taps if t is not None) + " (on the panel: 50 ms)")
        details.append(f"{way}: the clone after the kill: "
                       f"{'gone' if passes['printer'].get('clone_removed') else 'still there'}")


def compare(result):
    """Each case's words against what was measured before for this stack and way (hold: what must be)."""
    wrong = []
    for way, passes in result["ways"].items():
        for case, _ in cases.CASES:
            want = expected(result["stack"], way, case) or (None, None)
            got = (passes["printer"][case]["words"], passes["app"][case]["words"])
            for client, w, g in zip(("printer", "app"), want, got):
                if w is not None and w != g:
                    wrong.append(f"{way} {case}, {client}: got '{g}', expected '{w}'")
    check(not wrong, "; ".join(wrong))


def s28_cage014(details):
    run_stack("cage014", details)


def s29_xorg21(details):
    run_stack("xorg21", details)


def s30_weston10(details):
    run_stack("weston10", details)


def s31_sway17(details):
    run_stack("sway17", details)


def s32_labwc08(details):
    run_stack("labwc08", details)


def s33_cage02(details):
    run_stack("cage02", details)


def s34_sway110(details):
    run_stack("sway110", details)


def s35_weston14(details):
    run_stack("weston14", details)
