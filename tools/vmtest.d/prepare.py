#!/usr/bin/env python3
"""Host side of tools/vmtest, before the boot: picks the captures to play, computes what `pressurectl
replay` gives for each (the expected gestures), writes the scenario scripts, and writes config.json for the
guest (tools/vmtest.d/guest.py). Usage: prepare.py REPO WORK OUT SCENARIOS...

Expected gestures are per contact: the ordered list of gesture types, contacts in order of first
appearance (timestamps differ through the kernel, contact numbers may too).
"""
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evscript import BTN_TOUCH, P, SLOT, TID, X, Y, Script, ev, header_of  # noqa: E402  (the scripts' blocks)
from vmguest.gestures import force_changes, replay_events, sequences  # noqa: E402  (shared with the guest)
import scenarios as registry  # noqa: E402

REPO, VMDIR, OUT = (os.path.abspath(p) for p in sys.argv[1:4])
WORK = os.path.join(VMDIR, "work")
# None given: the chroot boot's, as `tools/vmtest` with no arguments.
SCENARIOS = [int(s) for s in sys.argv[4:]] or registry.numbers(registry.in_boot(registry.SCENARIOS,
                                                                                 registry.Boot.CHROOT))
CAPTURES = os.path.abspath(os.path.join(REPO, "..", "shared", "captures"))
PRESSURECTL = os.path.join(REPO, ".build", "debug", "pressurectl")
notes = []


def has_pressure(header_lines):
    return any(re.match(r"^A: (18|3a) ", l) for l in header_lines)


# What Tests/TestSupport/DaemonProcess.swift's `fixtureCalibration` gives test daemons: the fixtures' devices
# (tools/make-fixtures.py, and the scripts below, which take their header) calibrated, so force is available
# from the first touch, without learning. For scenarios about the kernel path rather than learning.
FIXTURE_CALIBRATION = """[pressured fixtures]
MatchName = pressured fixture*
PressureAverage = 252
"""
FIXTURE_CONF = os.path.join(WORK, "fixtures.conf")


def replay(capture, desc=None, config=None):
    """Per-contact gesture type sequences from `pressurectl replay` (from fresh, or with a configuration file),
    or None if it cannot read the file."""
    return outcome(capture, desc, config)["expected"]


def outcome(capture, desc=None, config=None):
    """What `pressurectl replay` gives for a capture: `expected`, the gestures per contact, and `force`, its
    `device changed` lines (what learning made of the device's force); both None if it cannot read the file."""
    events, _ = replay_events(PRESSURECTL, capture, desc, config)
    if events is None:
        return {"expected": None, "force": None}
    return {"expected": sequences(events), "force": force_changes(events)}


def reader_view(capture, desc):
    """What pressured can see of a capture played through uinput and read through libevdev, when that is not
    the capture itself. Three things a recording may hold do not get through as they are:
    - SYN_DROPPED: the kernel ignores it when written to uinput (input_get_disposition passes SYN_REPORT,
      SYN_CONFIG and SYN_MT_REPORT only; evdev makes SYN_DROPPED itself when a reader's buffer overflows);
    - ABS_MT_SLOT outside the device's slots: the kernel ignores it, so the events after it go to the slot
      that was current (pressurectl replay drops them instead);
    - a tracking ID that changes from one contact to another without -1 between (N to M), or -1 to -1:
      the kernel passes it, but libevdev discards it ("received a double tracking ID", sanitize_event in
      libevdev.c), so the old contact goes on with the new one's values; pressurectl replay now ignores such
      an id the same way (this test found the difference), so only the first two change what replay gives.
    Returns (path of the view, list of notes), or (None, []) when the capture gets through unchanged."""
    nslots = -1
    for l in header_of(desc or capture):
        m = re.match(r"^A: 2f (-?\d+) (-?\d+)", l)
        if m:
            nslots = int(m.group(2)) + 1
    slot, tids = 0, {}
    dropped = {"syn": 0, "slot": 0, "tid": 0}
    out_lines = []
    with open(capture, errors="replace") as f:
        for l in f:
            m = re.match(r"^E: \S+ ([0-9a-fA-F]{4}) ([0-9a-fA-F]{4}) (-?\d+)", l)
            if m:
                t, c, v = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))
                if t == 0 and c == 3:
                    dropped["syn"] += 1
                    continue
                if t == 3 and c == 0x2F and nslots > 0:
                    if not 0 <= v < nslots:
                        dropped["slot"] += 1
                        continue
                    slot = v
                if t == 3 and c == 0x39 and nslots > 0:
                    cur = tids.get(slot, -1)
                    if v == cur:
                        pass  # the kernel filters the repeat; nothing changes either way
                    elif (v == -1) == (cur == -1):
                        dropped["tid"] += 1
                        continue
                    else:
                        tids[slot] = v
            out_lines.append(l)
    if not any(dropped.values()):
        return None, []
    notes = []
    if dropped["syn"]:
        notes.append(f"{dropped['syn']} SYN_DROPPED the kernel ignores from uinput")
    if dropped["slot"]:
        notes.append(f"{dropped['slot']} ABS_MT_SLOT beyond the device's slots the kernel ignores")
    if dropped["tid"]:
        notes.append(f"{dropped['tid']} tracking IDs changed without a lift, which libevdev discards "
                     f"(pressured reads through libevdev; pressurectl replay ignores them the same way)")
    out = os.path.join(WORK, "reader-view-" + os.path.basename(capture))
    with open(out, "w") as o:
        o.writelines(out_lines)
    return out, notes


def capture_entry(name, capture, desc=None):
    hdr = header_of(desc or capture)
    if not hdr:
        notes.append(f"{name}: skipped, no evemu description")
        return None
    if not has_pressure(hdr):
        return None
    got = outcome(capture, desc)
    if got["expected"] is None:
        notes.append(f"{name}: skipped, pressurectl replay cannot read it")
        return None
    return with_view({"name": name, "capture": capture, "desc": desc, "note": None, **got})


def with_view(entry):
    view, view_notes = reader_view(entry["capture"], entry["desc"])
    if view:
        entry["original_expected"] = entry["expected"]
        entry.update(outcome(view, entry["desc"]))
        entry["note"] = "; ".join(view_notes) + ": compared with the replay of the capture without them"
    return entry


def pick_captures():
    entries = []
    if os.path.isdir(CAPTURES):
        names = sorted(os.listdir(CAPTURES))
        for n in names:
            p = os.path.join(CAPTURES, n)
            if n.endswith(".evemu"):
                e = capture_entry(n, p)
            elif n.endswith(".events") or n.endswith(".event"):
                # the header is in a sibling .desc (.events) or .prop (.event): the longest matching stem
                sib = [s for s in names if s.endswith(".desc" if n.endswith(".events") else ".prop")
                       and n.startswith(s.rsplit(".", 1)[0] + ".")]
                if not sib:
                    notes.append(f"{n}: skipped, no description file beside it")
                    continue
                e = capture_entry(n, p, os.path.join(CAPTURES, max(sib, key=len)))
            else:
                continue
            if e:
                entries.append(e)
        if not entries:
            notes.append(f"{CAPTURES}: no pressure captures found")
    else:
        notes.append(f"{CAPTURES} is absent: only the project's fixtures are played")
    for p in sorted(glob.glob(os.path.join(REPO, "Tests", "Fixtures", "*.evemu"))):
        # every fixture, pressure or not (no-pressure.evemu checks the long press path)
        got = outcome(p)
        if got["expected"] is None:
            notes.append(f"{os.path.basename(p)}: skipped, pressurectl replay cannot read it")
            continue
        entries.append(with_view({"name": "Fixtures/" + os.path.basename(p), "capture": p, "desc": None,
                                  "note": None, **got}))
    return entries


# --- scenario scripts (evemu text; `# vmtest: gate` lines stop evplay until SIGUSR1) ---------------------

PEEK_POP = os.path.join(REPO, "Tests", "Fixtures", "peek-pop.evemu")


# The ordinary taps the fixtures open with (tools/make-fixtures.py's `warm_up`): a fresh device learns its average
# touch (about 252) from its first eight ordinary touches.
TAP_PEAKS = (230, 260, 245, 270, 250, 240, 265, 255)


def tap(s, t, tid, x, peak):
    """One ordinary tap at (x, 600): 40 ms up to `peak` and down, then a 40 ms pause; returns the time after."""
    for i, p in enumerate((peak // 3, peak, peak * 4 // 5, peak // 2)):
        down = (ev(SLOT, 0), ev(TID, tid), ev(X, x), ev(Y, 600), ev(BTN_TOUCH, 1)) if i == 0 else ()
        s.frame(t, *down, ev(P, p))
        t += 0.01
    s.frame(t, ev(TID, -1), ev(BTN_TOUCH, 0))
    return t + 0.04


def hold_peek(warm=False):
    """One finger presses past peek (not pop) and stays; the test unplugs the device at the gate. `warm`: the
    eight ordinary taps first, so that a fresh daemon has learned the device's average touch by the press."""
    s = Script(header_of(PEEK_POP))
    t = 0.0
    for i, peak in enumerate(TAP_PEAKS if warm else ()):
        t = tap(s, t, 100 + i, 900 + 250 * i, peak)
    s.frame(t, ev(SLOT, 0), ev(TID, 1), ev(X, 1000), ev(Y, 1500), ev(P, 30), ev(BTN_TOUCH, 1))
    for i, p in enumerate((100, 200, 300, 350, 380, 400), 1):
        s.frame(t + 0.02 * i, ev(P, p))
    s.gate()
    s.frame(t + 0.2, ev(TID, -1), ev(BTN_TOUCH, 0))
    return s.write(WORK, "warm-hold-peek.evemu" if warm else "hold-peek.evemu")


# Scenarios 17 and 18: devices that learn (the fixtures' calibration does not match their name).
LEARNING_TAPS = 16


def learning_device(name, bus, product):
    """A touchscreen with the fixtures' axes under another name and identity (bus, e.g. 0x03 USB or 0x06
    virtual): ordinary taps, each followed by a gate, so the test taps until the daemon says force is
    available (up to LEARNING_TAPS)."""
    s = Script([f"N: {name}", f"I: {bus:04x} 1d6b {product:04x} 0001"] +
               [l for l in header_of(PEEK_POP) if not l.startswith(("N: ", "I: "))])
    t = 0.0
    for i in range(LEARNING_TAPS):
        t = tap(s, t, 1 + i, 800 + 150 * i, TAP_PEAKS[i % len(TAP_PEAKS)])
        s.gate()
    return s.write(WORK, f"learning-{bus:02x}.evemu")


BURST_FRAMES = 2000


def burst(same_slot=False):
    """Finger A down; gate (the test stops pressured); a burst, all at one time stamp, that lifts A, lands B
    and moves B far more often than evdev's client buffer holds; gate (pressured continues); B lifts.
    `same_slot` (scenario 24): A presses on past peek first (380 to 450: 1.5 to 1.8 average touches with the
    fixtures' calibration), lifts in a frame of its own, and B lands in A's slot, not the next."""
    s = Script(header_of(PEEK_POP))
    s.frame(0.0, ev(SLOT, 0), ev(TID, 1), ev(X, 1000), ev(Y, 1000), ev(P, 100), ev(BTN_TOUCH, 1))
    for i in range(1, 6):
        s.frame(0.02 * i, ev(X, 1000 + 2 * i), *((ev(P, 100 + 70 * i),) if same_slot else ()))
    s.gate()
    if same_slot:
        s.frame(1.0, ev(TID, -1))
    s.frame(1.0, *(() if same_slot else (ev(TID, -1), ev(SLOT, 1))), ev(TID, 2), ev(X, 2000), ev(Y, 3000), ev(P, 100))
    for i in range(1, BURST_FRAMES + 1):
        s.frame(1.0, ev(X, 2000 + i))
    s.gate()
    s.frame(2.0, ev(TID, -1), ev(BTN_TOUCH, 0))
    name = "burst-same-slot.evemu" if same_slot else "burst.evemu"
    return s.write(WORK, name), {"A": [1010, 1000], "B": [2000 + BURST_FRAMES, 3000]}


# Scenario 24: pressured started under a finger.
def held_then_tap():
    """A finger down and still (gate: pressured starts with filter mode on), then it moves and lifts (gate:
    pressured grabs the panel once it has), then an ordinary tap."""
    s = Script(header_of(PEEK_POP))
    s.frame(0.0, ev(SLOT, 0), ev(TID, 1), ev(X, 1000), ev(Y, 1000), ev(P, 100), ev(BTN_TOUCH, 1))
    s.gate()
    for i in range(1, 4):
        s.frame(1.0 + 0.02 * i, ev(X, 1000 + 10 * i))
    s.frame(1.1, ev(TID, -1), ev(BTN_TOUCH, 0))
    s.gate()
    tap(s, 2.0, 2, 3000, 250)
    return s.write(WORK, "held-then-tap.evemu")


# Scenario 24: two fingers, one cancelled, the other lifted as ever.
def two_fingers():
    """Two fingers land in one frame: slot 0 presses on past peek (1.4 average touches, 353 with the fixtures'
    calibration: 420 is 1.67, short of pop's 2.0) and stays while slot 1, light (160 to 176: under 0.7),
    slides a little and lifts; then slot 0 lifts. Every frame moves both, so both slots are in each."""
    s = Script(header_of(PEEK_POP))
    s.frame(0.0, ev(SLOT, 0), ev(TID, 1), ev(X, 1000), ev(Y, 1000), ev(P, 40),
            ev(SLOT, 1), ev(TID, 2), ev(X, 3000), ev(Y, 3000), ev(P, 160), ev(BTN_TOUCH, 1))
    for i, p in enumerate((120, 220, 320, 380, 420, 420), 1):
        s.frame(0.02 * i, ev(SLOT, 0), ev(P, p), ev(SLOT, 1), ev(X, 3000 + 4 * i), ev(P, 160 + 2 * (i % 2) + i))
    s.frame(0.16, ev(TID, -1))
    s.frame(0.2, ev(SLOT, 0), ev(TID, -1), ev(BTN_TOUCH, 0))
    return s.write(WORK, "two-fingers.evemu")


# Scenario 24: filter mode holding (FilterMethod = hold), one touch of each kind, under a region over the
# left half of the screen that wants previews (device units: no screen configured).
HOLD_REGION = {"x": 0, "y": 0, "width": 2048, "height": 4096}
HOLD_TOUCHES = ("tap", "pop", "drag", "outside", "still", "drag-then-pop")


def hold_touches():
    """The touches of HOLD_TOUCHES in turn, 0.4 s apart, each in slot 0 (frames 20 ms apart): a light tap in
    the region (80 ms); a firm press there that peeks (353, 1.4 average touches) and pops (504); a drag there,
    2.5 mm a frame (the panel's 16 units a mm; the slop is 2 mm); a light tap outside it; a still touch
    there, 0.8 s with no change (the panel sends nothing: the long-press time lets it go, on the daemon's
    timer); a drag there, let go past the slop, that then presses on to a pop (a still touch let go at the
    long-press time cannot peek: pressured's long press came first)."""
    s = Script(header_of(PEEK_POP))
    t = 0.0

    def contact(tid, x, pressures, dx=0):
        nonlocal t
        s.frame(t, ev(SLOT, 0), ev(TID, tid), ev(X, x), ev(Y, 1000), ev(P, pressures[0]), ev(BTN_TOUCH, 1))
        for i, p in enumerate(pressures[1:], 1):
            t += 0.02
            s.frame(t, *((ev(X, x + dx * i),) if dx else ()), ev(P, p))
        t += 0.02
        s.frame(t, ev(TID, -1), ev(BTN_TOUCH, 0))
        t += 0.4

    contact(1, 1000, (80, 200, 150, 100))
    contact(2, 1000, (100, 200, 300, 400, 500, 600, 700, 600, 300))
    contact(3, 500, (150,) * 10, dx=40)
    contact(4, 3000, (80, 200, 150, 100))
    contact(5, 1000, (150,) * 40)
    contact(6, 1000, (150, 150, 150, 150, 300, 400, 500, 600, 700, 400), dx=40)
    return s.write(WORK, "hold-touches.evemu")


# Scenario 8: a finger held on device A while device B is plugged and unplugged 200 times.
HOTPLUG_REGION = {"x": 2048, "y": 0, "width": 2048, "height": 4096}  # B touches here, A outside


def held_then_pop():
    """Device A: a finger presses past peek and stays (gate: the 200 plugs happen), then presses on to a pop
    and lifts. The time after the gate stands for the minutes the finger stayed down."""
    s = Script(header_of(PEEK_POP))
    s.frame(0.0, ev(SLOT, 0), ev(TID, 1), ev(X, 1000), ev(Y, 1000), ev(P, 30), ev(BTN_TOUCH, 1))
    for i, p in enumerate((100, 200, 300, 400), 1):
        s.frame(0.02 * i, ev(P, p))
    s.gate()
    for i, p in enumerate((600, 800, 1000), 1):
        s.frame(300.0 + 0.02 * i, ev(P, p))
    s.frame(300.2, ev(TID, -1), ev(BTN_TOUCH, 0))
    return s.write(WORK, "held-then-pop.evemu")


def region_press(hold):
    """Device B: a light press in the region (a peek) that lifts, or (hold) stays until B is unplugged."""
    s = Script(header_of(PEEK_POP))
    s.frame(0.0, ev(SLOT, 0), ev(TID, 1), ev(X, 3000), ev(Y, 500), ev(P, 30), ev(BTN_TOUCH, 1))
    for i, p in enumerate((150, 300, 400), 1):
        s.frame(0.02 * i, ev(P, p))
    if hold:
        s.gate()
    s.frame(0.1, ev(TID, -1), ev(BTN_TOUCH, 0))
    return s.write(WORK, "region-hold.evemu" if hold else "region-press.evemu")


# Scenario 10: taps, then firm presses, for pressurectl calibrate on a live device.
def calibration_session():
    """Four ordinary taps (peaks 240..330), a gate (the test presses Enter: fewer taps than asked), three
    firm presses (peaks 880..1000). Returns the script and when the presses begin (for --taps-until)."""
    s = Script(header_of(PEEK_POP))
    t, tid = 0.0, 1

    def contact(peak, steps, x):
        nonlocal t, tid
        ramp = [max(20, peak * k // steps) for k in range(1, steps + 1)]
        s.frame(t, ev(SLOT, 0), ev(TID, tid), ev(X, x), ev(Y, 2000), ev(P, ramp[0]), ev(BTN_TOUCH, 1))
        for p in ramp[1:] + ramp[-2::-1]:
            t += 0.012
            s.frame(t, ev(P, p))
        t += 0.012
        s.frame(t, ev(TID, -1), ev(BTN_TOUCH, 0))
        t += 0.25
        tid += 1

    for i, peak in enumerate((240, 270, 300, 330)):
        contact(peak, 4, 800 + 300 * i)
    s.gate()
    t += 5.0
    presses_from = t - 1.0
    for i, peak in enumerate((880, 940, 1000)):
        contact(peak, 12, 1200 + 400 * i)
    return s.write(WORK, "calibration-session.evemu"), presses_from


def calibration_expected(script, presses_from):
    """What `pressurectl calibrate --from-capture` proposes for the same events: the section it prints."""
    r = subprocess.run([PRESSURECTL, "calibrate", "--from-capture", script, "--taps-until", f"{presses_from:.3f}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"prepare: calibrate --from-capture failed: {r.stderr}")
    return r.stdout


def keyboard():
    """A plain uinput keyboard (KEY_ESC..KEY_CAPSLOCK...): udev's input_id calls it ID_INPUT_KEYBOARD."""
    lines = ["N: vmtest keyboard", "I: 0003 1d6b 0a02 0001", "P: 00 00 00 00 00 00 00 00",
             "B: 00 03 00 00 00 00 00 00 00", "B: 01 fe ff ff ff ff ff ff ff"]
    path = os.path.join(WORK, "keyboard.evemu")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def fleet_config():
    """Scenario 20: the descriptors (../shared/hid-descriptors/multitouch.json) and which devices to play:
    every one (VMTEST_FLEET unset or `all`: CI runs the whole fleet, about 5 minutes), or the test classes
    VMTEST_FLEET lists, separated by commas."""
    path = os.path.abspath(os.path.join(REPO, "..", "shared", "hid-descriptors", "multitouch.json"))
    if not os.path.exists(path):
        if 20 in SCENARIOS:
            notes.append(f"{path} is absent: scenario 20 is skipped")
        return None
    which = os.environ.get("VMTEST_FLEET", "")
    only = None if which in ("", "all") else [c for c in which.split(",") if c]
    return {"descriptors": path, "only": only}


def main():
    os.makedirs(WORK, exist_ok=True)
    config = {"repo": REPO, "work": WORK, "out": OUT, "scenarios": SCENARIOS,
              "pressured": os.path.join(REPO, ".build", "debug", "pressured"),
              "pressurectl": PRESSURECTL,
              "static_pressured": os.path.join(REPO, ".build", "release", "pressured"),
              "evplay": os.path.join(VMDIR, "bin", "evplay"), "uhidplay": os.path.join(VMDIR, "bin", "uhidplay"),
              "client": os.path.join(REPO, "clients", "python"),  # the package `pressured`, not installed
              "pressured_process": os.path.join(REPO, "tools", "python"),
              "rules": os.path.join(REPO, "udev-rules", "70-pressured.rules"),
              "fixtures": os.path.join(REPO, "Tests", "Fixtures")}
    config["captures"] = pick_captures() if 1 in SCENARIOS else []
    with open(FIXTURE_CONF, "w") as f:
        f.write(FIXTURE_CALIBRATION)
    config["fixture_conf"] = FIXTURE_CONF
    config["peek_pop"] = {"capture": PEEK_POP, **outcome(PEEK_POP), "calibrated": replay(PEEK_POP, config=FIXTURE_CONF)}
    config["quick_actions_hold"] = {"capture": os.path.join(REPO, "Tests", "Fixtures", "quick-actions-hold.evemu")}
    nopress = os.path.join(REPO, "Tests", "Fixtures", "no-pressure.evemu")
    config["no_pressure"] = {"capture": nopress, **outcome(nopress)}
    config["hold_peek"] = {"capture": hold_peek()}
    warm = hold_peek(warm=True)
    config["warm_hold_peek"] = {"capture": warm, **outcome(warm)}
    config["burst"], config["burst_positions"] = burst()
    config["burst_same_slot"], _ = burst(same_slot=True)
    config["two_fingers"] = two_fingers()
    config["filter_hold"] = {"capture": hold_touches(), "region": HOLD_REGION, "touches": HOLD_TOUCHES}
    config["held_then_tap"] = held_then_tap()
    config["keyboard"] = keyboard()
    held = held_then_pop()
    config["hotplug"] = {"held": held, "held_expected": replay(held, config=FIXTURE_CONF), "press": region_press(False),
                         "hold": region_press(True), "region": HOTPLUG_REGION,
                         "cycles": int(os.environ.get("VMTEST_HOTPLUG_CYCLES", "200"))}
    session, presses_from = calibration_session()
    config["calibration"] = {"script": session, "section": calibration_expected(session, presses_from)}
    hid = os.path.join(CAPTURES, "hiddev-flatfrog_25b5_0002.hid-recorder.hid")
    evemu = os.path.join(CAPTURES, "hiddev-flatfrog_25b5_0002_0.evemu")
    if os.path.exists(hid) and os.path.exists(evemu):
        config["hid"] = {"recording": hid, "evemu": evemu, **outcome(evemu)}
    else:
        config["hid"] = None
        if 5 in SCENARIOS:
            notes.append(f"{hid} is absent: scenario 5 is skipped")
    config["learning"] = {"usb": learning_device("vmtest learning touchscreen", 0x03, 0x0a10),
                          "virtual": learning_device("vmtest virtual learning touchscreen", 0x06, 0x0a11),
                          "taps": LEARNING_TAPS}
    config["fleet"] = fleet_config()
    # The compositor matrix's ways (VMTEST_MATRIX_WAYS=hold,cancel; unset: every way the build has).
    config["matrix_ways"] = [w for w in os.environ.get("VMTEST_MATRIX_WAYS", "").split(",") if w]
    config["notes"] = notes
    with open(os.path.join(OUT, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    for n in notes:
        print(f"vmtest: note: {n}")
    if 1 in SCENARIOS:
        print(f"vmtest: {len(config['captures'])} captures to play through the kernel")


main()
