#!/usr/bin/env python3
"""Writes the project's own capture fixtures (Tests/Fixtures/*.evemu), each a scripted scenario on a
described device, in evemu 1.2 text as `evemu-record` writes it, and a few logs in the text formats of
evtest and Android's getevent (*.evtest.txt, *.getevent.txt) with the quirks real ones have. The golden outputs beside them come from
`pressurectl replay` (regenerate with PRESSURED_REGENERATE_GOLDENS=1 swift test). Run from the repo root:

    python3 tools/make-fixtures.py

Deterministic: the same files every time.

A device nobody calibrated learns its average touch from its first ordinary touches, and force is
unavailable until it has (docs/gestures.md, "Learning the average touch"). So every fixture about force
gestures opens with eight quick ordinary taps (`warm_up`, peaks 230..270 of 1023, or 57..67 of 255):
the device learns an average touch of about 252 (62), so peek sits at about 353 (87) and pop at about
504 (124), and the scripted presses after them are placed against those thresholds.
"""
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures")

SCREEN_AXES = [  # code, min, max, fuzz, flat, resolution
    (0x00, 0, 4095, 0, 0, 16), (0x01, 0, 4095, 0, 0, 16), (0x18, 0, 1023, 0, 0, 0),
    (0x2f, 0, 9, 0, 0, 0), (0x35, 0, 4095, 0, 0, 16), (0x36, 0, 4095, 0, 0, 16),
    (0x39, 0, 65535, 0, 0, 0), (0x3a, 0, 1023, 0, 0, 0),
]


def header(name, ident, props, key_bits, axes):
    lines = ["# EVEMU 1.2", f"# Input device name: \"{name}\"", "# pressured test fixture (tools/make-fixtures.py)",
             f"N: {name}", "I: " + " ".join(f"{v:04x}" for v in ident),
             "P: " + " ".join(f"{b:02x}" for b in props)]
    types = 0x01 | (0x02 if key_bits else 0) | 0x08
    lines.append(f"B: 00 {types:02x} 00 00 00 00 00 00 00")
    keys = [0] * 96
    for k in key_bits:
        keys[k // 8] |= 1 << (k % 8)
    for i in range(0, 96, 8):
        lines.append("B: 01 " + " ".join(f"{b:02x}" for b in keys[i:i + 8]))
    absb = [0] * 8
    for a in axes:
        absb[a[0] // 8] |= 1 << (a[0] % 8)
    lines.append("B: 03 " + " ".join(f"{b:02x}" for b in absb))
    for a in axes:
        lines.append(f"A: {a[0]:02x} {a[1]} {a[2]} {a[3]} {a[4]} {a[5]}")
    return lines


class Script:
    def __init__(self):
        self.lines = []
        self.t = 0.0

    def ev(self, t, typ, code, value):
        self.lines.append(f"E: {t:.6f} {typ:04x} {code:04x} {value:04d}")

    def frame(self, t, events):
        for typ, code, value in events:
            self.ev(t, typ, code, value)
        self.ev(t, 0, 0, 0)


def mt(slot=None, tid=None, x=None, y=None, p=None, tool=None, major=None, distance=None):
    out = []
    if slot is not None: out.append((3, 0x2f, slot))
    if tid is not None: out.append((3, 0x39, tid))
    if tool is not None: out.append((3, 0x37, tool))
    if x is not None: out.append((3, 0x35, x))
    if y is not None: out.append((3, 0x36, y))
    if p is not None: out.append((3, 0x3a, p))
    if major is not None: out.append((3, 0x30, major))
    if distance is not None: out.append((3, 0x3b, distance))
    return out


# The warm-up taps' peaks: an ordinary touch of about 25% of the range, with the spread a finger has.
WARM_UP_PEAKS = [230, 260, 245, 270, 250, 240, 265, 255]


def warm_up(s, t, scale=1.0, frame=None):
    """Eight short ordinary taps (40 ms each, 40 ms apart), so the device learns its average touch
    before the scripted part. `frame(t, i, tap, pressure)` writes one frame of tap `tap` (i: its frame
    index, pressure None for the lift); the default is protocol B, slot 0. Returns the time after them."""
    if frame is None:
        def frame(t, i, tap, p):
            if p is None:
                s.frame(t, mt(0, -1))
            else:
                s.frame(t, mt(0, 900 + tap if i == 0 else None, 600 + 150 * tap if i == 0 else None, 400 + 2 * i, p))
    for tap, peak in enumerate(WARM_UP_PEAKS):
        peak = round(peak * scale)
        for i, p in enumerate([peak // 3, peak, peak * 4 // 5, peak // 2]):
            frame(t, i, tap, p)
            t += 0.01
        frame(t, 4, tap, None)
        t += 0.04
    return t


def write(name, head, script):
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(head + script.lines) + "\n")


def screen_header(name, axes=SCREEN_AXES):
    return header(name, (0x03, 0x1d6b, 0x0a01, 0x0100), [0x02, 0, 0, 0, 0, 0, 0, 0], [0x14a], axes)


def peek_pop():
    """One finger ramps smoothly to a pop; a second finger peeks and lifts (dismiss); a third rests light."""
    s = Script()
    t = warm_up(s, 1.0) + 0.2
    for i, p in enumerate([30, 90, 160, 230, 300, 380, 460, 540, 620, 700, 780, 860, 900, 700, 400]):
        s.frame(t, mt(0, 100 if i == 0 else None, 1000 if i == 0 else None, 1500 if i == 0 else None, p))
        t += 0.012
    s.frame(t, mt(0, -1)); t += 0.2
    for i, p in enumerate([40, 150, 280, 400, 440, 450, 430, 300, 120]):
        s.frame(t, mt(1, 101 if i == 0 else None, 3000 if i == 0 else None, 2500 if i == 0 else None, p))
        t += 0.015
    s.frame(t, mt(1, -1)); t += 0.1
    for i, p in enumerate([20, 50, 80, 90, 70, 30]):
        s.frame(t, mt(0, 102 if i == 0 else None, 500 if i == 0 else None, 500 if i == 0 else None, p))
        t += 0.02
    s.frame(t, mt(0, -1))
    write("peek-pop.evemu", screen_header("pressured fixture: peek-pop"), s)


def quick_actions_and_hold():
    """A peek swiped up 15 mm reveals quick actions; then a light touch held still long-presses."""
    s = Script()
    t = warm_up(s, 2.0) + 0.2
    s.frame(t, mt(0, 7, 2000, 3000, 120)); t += 0.01
    s.frame(t, mt(0, None, None, None, 400)); t += 0.01
    for y in range(2980, 2740, -20):
        s.frame(t, mt(0, None, None, y, 420)); t += 0.01
    s.frame(t, mt(0, -1)); t += 0.3
    s.frame(t, mt(0, 8, 1200, 1200, 60)); t += 0.9  # silent for 900 ms: long press by timer at +500 ms
    s.frame(t, mt(0, None, 1203, None, 62)); t += 0.05
    s.frame(t, mt(0, -1))
    write("quick-actions-hold.evemu", screen_header("pressured fixture: quick actions and hold"), s)


def simultaneous_long_presses():
    """Two fingers held still together, the one in slot 1 landing 5 ms before the one in slot 0: its long
    press is due first, though its slot comes second. A third finger slides, silent across both deadlines,
    so both are due before its next frame. Both lift after 0.8 s. No warm-up: long press needs no force."""
    s = Script()
    t = 1.0
    s.frame(t, mt(1, 21, 3000, 2000, 60)); t += 0.005
    s.frame(t, mt(0, 20, 1000, 2000, 60)); t += 0.1
    s.frame(t, mt(2, 22, 2000, 3500, 60)); t += 0.1
    for i in range(1, 4):  # sliding: no long press of its own
        s.frame(t, mt(2, None, 2000 + 200 * i)); t += 0.1
    t = 1.51
    s.frame(t, mt(2, None, 2000 + 200 * 4)); t = 1.8
    s.frame(t, mt(2, -1) + mt(1, None, 3002, None, 62)); t += 0.05
    s.frame(t, mt(0, -1) + mt(1, -1))
    write("simultaneous-long-presses.evemu", screen_header("pressured fixture: simultaneous long presses"), s)


def dropped_and_oddities():
    """SYN_DROPPED mid-press, a tracking id replaced without lift, values out of range, a slot beyond the
    declared maximum, pressure 0 on a live contact."""
    s = Script()
    t = warm_up(s, 0.5) + 0.2
    s.frame(t, mt(0, 1, 100, 100, 400)); t += 0.01  # peeks at once
    s.frame(t, mt(1, 2, 4000, 4000, 0)); t += 0.01  # pressure 0 is still a touch
    s.frame(t, mt(1, None, None, None, 40)); t += 0.01
    s.ev(t, 0, 3, 0)                                   # SYN_DROPPED
    s.ev(t, 3, 0x39, -1)                               # lost
    s.frame(t, mt(0, None, None, None, 900)); t += 0.01  # the report that ends the drop
    s.frame(t, mt(0, None, None, None, 950)); t += 0.01  # suppressed: state unknown
    s.frame(t, mt(0, -1)); t += 0.01
    s.frame(t, mt(1, -1)); t += 0.01
    s.frame(t, mt(0, 3, 9000, -20, 5000)); t += 0.01  # clamped to 4095, 0, 1023: peek and pop at once
    s.frame(t, mt(0, 4, 200, 200, 400)); t += 0.01    # a new id without a lift: ignored, as libevdev does
    s.frame(t, mt(12, 5, 1, 1, 1)); t += 0.01         # slot 12 is beyond the declared 0..9
    s.frame(t, mt(0, -1))
    write("dropped-and-oddities.evemu", screen_header("pressured fixture: dropped and oddities"), s)


def resistive():
    """A single-touch resistive panel (ABS_X/Y/PRESSURE, BTN_TOUCH, no resolution, pressure 0..255)."""
    axes = [(0x00, 0, 4095, 4, 0, 0), (0x01, 0, 4095, 4, 0, 0), (0x18, 0, 255, 0, 0, 0)]
    head = header("pressured fixture: resistive panel", (0x19, 0, 0, 0), [0x02, 0, 0, 0, 0, 0, 0, 0], [0x14a], axes)
    s = Script()

    def tap(t, i, n, p):
        if p is None:
            s.frame(t, [(3, 0x18, 0), (1, 0x14a, 0)])
        elif i == 0:
            s.frame(t, [(3, 0, 500 + 300 * n), (3, 1, 600), (3, 0x18, p), (1, 0x14a, 1)])
        else:
            s.frame(t, [(3, 0x18, p)])
    t = warm_up(s, 10.0, scale=255 / 1023, frame=tap) + 0.3
    s.frame(t, [(3, 0, 2000), (3, 1, 2000), (3, 0x18, 20), (1, 0x14a, 1)]); t += 0.02
    for p in [40, 70, 90, 100, 95, 100]:
        s.frame(t, [(3, 0x18, p)]); t += 0.02
    s.frame(t, [(3, 0x18, 0), (1, 0x14a, 0)]); t += 0.3
    s.frame(t, [(3, 0, 300), (3, 1, 3900), (3, 0x18, 15), (1, 0x14a, 1)]); t += 0.7
    s.frame(t, [(3, 0x18, 0), (1, 0x14a, 0)])
    write("resistive-single-touch.evemu", head, s)


def no_pressure():
    """A touchscreen without any pressure axis: force unavailable, long press still works."""
    axes = [a for a in SCREEN_AXES if a[0] not in (0x18, 0x3a)]
    s = Script()
    t = 0.0
    s.frame(t, mt(0, 1, 1000, 1000)); t += 0.3
    s.frame(t, mt(0, None, 1005)); t += 0.4
    s.frame(t, mt(0, -1)); t += 0.1
    s.frame(t, mt(0, 2, 1000, 1000)); t += 0.1
    s.frame(t, mt(0, None, 1500)); t += 0.6
    s.frame(t, mt(0, -1))
    write("no-pressure.evemu", screen_header("pressured fixture: no pressure", axes), s)


def protocol_a():
    """Protocol A (SYN_MT_REPORT), no tracking ids, pressure 0..255: two fingers, one presses hard."""
    axes = [(0x30, 0, 9600, 0, 0, 0), (0x35, 0, 9600, 0, 0, 37), (0x36, 0, 7200, 0, 0, 50), (0x3a, 0, 255, 0, 0, 0)]
    head = header("pressured fixture: protocol A", (0x03, 0x1b96, 0x0001, 0), [0] * 8, [0x14a], axes)
    s = Script()

    def tap(t, i, n, p):
        if p is None:
            s.frame(t, [(0, 2, 0), (1, 0x14a, 0)])
        else:
            s.frame(t, [(3, 0x35, 2000 + 500 * n), (3, 0x36, 2000), (3, 0x3a, p), (0, 2, 0)]
                    + ([(1, 0x14a, 1)] if i == 0 else []))
    t = warm_up(s, 3.0, scale=255 / 1023, frame=tap) + 0.2
    for i in range(12):
        evs = [(3, 0x35, 1000 + i), (3, 0x36, 1000), (3, 0x3a, 20 + 20 * i), (0, 2, 0),
               (3, 0x35, 6000), (3, 0x36, 5000 - i), (3, 0x3a, 30), (0, 2, 0)]
        if i == 0: evs.append((1, 0x14a, 1))
        s.frame(t, evs); t += 0.013
    s.frame(t, [(3, 0x35, 6000), (3, 0x36, 4988), (3, 0x3a, 30), (0, 2, 0)]); t += 0.013
    s.frame(t, [(0, 2, 0), (1, 0x14a, 0)])
    write("protocol-a.evemu", head, s)


def palms_and_hover():
    """A screen whose firmware marks palms (ABS_MT_TOOL_TYPE 0..2), reports contact size (ABS_MT_TOUCH_MAJOR
    0..2047 at 32 units/mm: a palm above 25 mm is above 800) and hovering (ABS_MT_DISTANCE 0..1, as
    hid-multitouch declares it). Like the kernel, each event is sent only when its slot's value changes,
    also across contacts. A finger hovers, lands, rises back into hover; a peek becomes a palm (dismissed,
    cancelled, then ignored however hard it presses or long it stays); a palm from the start and a contact
    too large from the start are never seen; a finger long-presses; a held finger that spreads into a palm
    is cancelled before its long press."""
    axes = SCREEN_AXES + [(0x30, 0, 2047, 0, 0, 32), (0x37, 0, 2, 0, 0, 0), (0x3b, 0, 1, 0, 0, 0)]
    axes.sort()
    s = Script()
    warm_up(s, 0.1)                                      # ends by 0.75 s: contacts 1-8
    s.frame(1.0, mt(0, 1, 1000, 1000, 0, distance=1))     # in range, no tip
    s.frame(1.1, mt(0, x=1010))                          # moving in the air
    s.frame(1.2, mt(0, p=100, distance=0))               # lands: began
    s.frame(1.3, mt(0, p=120))
    s.frame(1.4, mt(0, p=0, distance=1))                 # back in the air: ended
    s.frame(1.5, mt(0, -1))
    s.frame(2.0, mt(0, 2, 2000, 2000, 100, distance=0))
    s.frame(2.05, mt(0, p=400))                          # peek
    s.frame(2.1, mt(0, p=450, tool=2))                   # a palm: dismiss, cancelled
    s.frame(2.2, mt(0, p=900))                           # would pop
    s.frame(3.0, mt(0, p=300, tool=0))                   # a finger again: still ignored
    s.frame(3.1, mt(0, -1))
    s.frame(4.0, mt(1, 3, 3000, 3000, 800, tool=2))      # a palm from the start
    s.frame(4.8, mt(1, p=850))
    s.frame(4.9, mt(1, -1))
    s.frame(5.0, mt(0, 4, 1500, 3000, 200, major=1000))  # 31 mm from the start
    s.frame(5.7, mt(0, p=250))
    s.frame(5.8, mt(0, -1))
    s.frame(6.0, mt(0, 5, 500, 500, 60, major=150))      # a finger held still: long press
    s.frame(6.8, mt(0, -1))
    s.frame(7.0, mt(0, 6, 2500, 500, 80, major=200))
    s.frame(7.2, mt(0, major=900))                       # spreads into a palm before 500 ms
    s.frame(8.0, mt(0, -1))
    write("palms-and-hover.evemu", screen_header("pressured fixture: palms and hover", axes), s)


def resistive_without_btn_touch():
    """A single-touch panel without BTN_TOUCH (pressure 0..255: a touch begins at 30 and ends below 25).
    Its pressure wobbles around both thresholds as a noisy resistive panel's does: one touch that peeks
    and dismisses, never flapping; a light brush that never reaches 30; a hold that long-presses."""
    axes = [(0x00, 0, 4095, 0, 0, 0), (0x01, 0, 4095, 0, 0, 0), (0x18, 0, 255, 0, 0, 0)]
    head = header("pressured fixture: resistive panel without BTN_TOUCH", (0x19, 0, 0, 0),
                  [0x02, 0, 0, 0, 0, 0, 0, 0], [], axes)
    s = Script()

    def tap(t, i, n, p):
        if p is None:
            s.frame(t, [(3, 0x18, 0)])
        elif i == 0:
            s.frame(t, [(3, 0, 500 + 300 * n), (3, 1, 600), (3, 0x18, p)])
        else:
            s.frame(t, [(3, 0x18, p)])
    warm_up(s, 9.0, scale=255 / 1023, frame=tap)          # ends by 9.7 s: contacts 1-8
    t = 10.0
    s.frame(t, [(3, 0, 2000), (3, 1, 2000), (3, 0x18, 12)]); t += 0.02
    for p in [27, 29, 31, 28, 33, 29, 26, 45, 70, 90, 60, 40, 27, 26, 28, 24, 27, 29, 0]:
        s.frame(t, [(3, 0x18, p)]); t += 0.02
    t = 11.0
    s.frame(t, [(3, 0, 500), (3, 1, 3500), (3, 0x18, 20)]); t += 0.02
    for p in [28, 29, 22, 0]:
        s.frame(t, [(3, 0x18, p)]); t += 0.02
    s.frame(12.0, [(3, 0, 3000), (3, 1, 1000), (3, 0x18, 35)])
    s.frame(12.02, [(3, 0x18, 40)])
    s.frame(12.8, [(3, 0x18, 38)])
    s.frame(12.9, [(3, 0x18, 0)])
    write("resistive-without-btn-touch.evemu", head, s)


def demo():
    """The README's demo, at a person's pace (100 Hz): eight ordinary taps, from which the device learns
    its average touch (force becomes available after them); then peek and pop; peek and let go; peek
    and swipe up for quick actions; touch and hold; a light tap; two fingers at once, one pressing hard."""
    s = Script()
    t = warm_up(s, 1.0) + 0.6
    tid = [200]

    def touch(x, y, pressures, dy=0, slot=0, hold=0.0):
        nonlocal t
        tid[0] += 1
        for i, p in enumerate(pressures):
            s.frame(t, mt(slot, tid[0] if i == 0 else None, x if i == 0 else None, y + i * dy, p))
            t += 0.01
        t += hold
        s.frame(t, mt(slot, -1))
        t += 0.6

    ramp = lambda a, b, n: [round(a + (b - a) * i / (n - 1)) for i in range(n)]
    touch(1200, 2000, ramp(30, 420, 25) + [420] * 20 + ramp(420, 800, 15) + ramp(800, 300, 10))   # peek, pop
    touch(2500, 2200, ramp(30, 420, 25) + [420] * 40 + ramp(420, 50, 15))                           # peek, dismiss
    touch(3000, 3200, ramp(30, 410, 20) + [410] * 30, dy=-8)                                       # quick actions
    touch(800, 800, [80] * 3, hold=0.9)                                                          # long press
    touch(2000, 1000, ramp(20, 90, 5) + ramp(90, 20, 5))                                          # light tap
    tid[0] += 1
    a, b = tid[0], tid[0] + 1
    for i, (p, q) in enumerate(zip(ramp(40, 950, 30), ramp(40, 160, 30))):
        evs = mt(0, a if i == 0 else None, 1000 if i == 0 else None, 3000 if i == 0 else None, p)
        evs += mt(1, b if i == 0 else None, 3000 if i == 0 else None, 3000 if i == 0 else None, q)
        s.frame(t, evs)
        t += 0.01
    s.frame(t, mt(0, -1) + mt(1, -1))
    write("demo.evemu", screen_header("pressured demo touchscreen"), s)


# The text logs other tools print (evtest, Android getevent), for the readers of those formats.
NAMES = {(0, 0): ("EV_SYN", "SYN_REPORT"), (0, 2): ("EV_SYN", "SYN_MT_REPORT"), (1, 0x14a): ("EV_KEY", "BTN_TOUCH"),
         (1, 0x72): ("EV_KEY", "KEY_VOLUMEDOWN"), (3, 0x2f): ("EV_ABS", "ABS_MT_SLOT"),
         (3, 0x30): ("EV_ABS", "ABS_MT_TOUCH_MAJOR"), (3, 0x35): ("EV_ABS", "ABS_MT_POSITION_X"),
         (3, 0x36): ("EV_ABS", "ABS_MT_POSITION_Y"), (3, 0x39): ("EV_ABS", "ABS_MT_TRACKING_ID"),
         (3, 0x3a): ("EV_ABS", "ABS_MT_PRESSURE"), (4, 4): ("EV_MSC", "MSC_SCAN")}


def getevent_line(t, typ, code, value, node=None):
    """`getevent -lt`: `[   1234.567890] EV_ABS       ABS_MT_PRESSURE      0000002a            `."""
    sec, usec = int(t), round((t - int(t)) * 1e6)
    tname, cname = NAMES[(typ, code)]
    vlabel = {0: "UP", 1: "DOWN"}[value] if typ == 1 and code != 0x72 else None
    v = f" {vlabel:<20.20}" if vlabel else f" {value & 0xffffffff:08x}            "
    return f"[{sec:8d}.{usec:06d}] " + (f"{node}: " if node else "") + f"{tname:<12.12} {cname:<20.20}" + v


def evtest_line(t, typ, code, value):
    sec, usec = int(t), round((t - int(t)) * 1e6)
    if typ == 0:
        return f"Event: time {sec}.{usec:06d}, -------------- {NAMES[(typ, code)][1]} ------------"
    tname, cname = NAMES[(typ, code)]
    shown = f"{value:02x}" if (typ, code) == (4, 4) else f"{value}"
    return f"Event: time {sec}.{usec:06d}, type {typ} ({tname}), code {code} ({cname}), value {shown}"


def mail_wrap(line, width=72):
    """How a mail client breaks a long line: at the last space before the width."""
    out = []
    while len(line) > width and " " in line[:width]:
        cut = line.rindex(" ", 0, width)
        out.append(line[:cut])
        line = line[cut + 1:]
    return out + [line]


def headerless_getevent():
    """An Android phone's `getevent -lt` without any header, as traces come: protocol B without slots (no
    ABS_MT_SLOT), hex values, ffffffff for a lift, BTN_TOUCH DOWN/UP. A light tap, then a firm ramp."""
    lines = []

    def tap(t, i, n, p):
        if p is None:
            evs = [(3, 0x39, -1), (1, 0x14a, 0)]
        elif i == 0:
            evs = [(3, 0x39, 0x10 + n), (3, 0x30, 6), (3, 0x3a, p), (3, 0x35, 100 + 50 * n), (3, 0x36, 300), (1, 0x14a, 1)]
        else:
            evs = [(3, 0x3a, p)]
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(getevent_line(t, typ, code, value))
    t = round(warm_up(None, 499.5, scale=255 / 1023, frame=tap), 6) + 0.2

    def frame(evs):
        nonlocal t
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(getevent_line(t, typ, code, value))
        t += 0.016

    frame([(3, 0x39, 0x2a), (3, 0x30, 6), (3, 0x3a, 15), (3, 0x35, 300), (3, 0x36, 900), (1, 0x14a, 1)])
    for p in [22, 25, 18]:
        frame([(3, 0x3a, p)])
    frame([(3, 0x39, -1), (1, 0x14a, 0)])
    t += 0.4
    frame([(3, 0x39, 0x2b), (3, 0x30, 9), (3, 0x3a, 30), (3, 0x35, 700), (3, 0x36, 1800), (1, 0x14a, 1)])
    for i, p in enumerate([70, 110, 150, 190, 230, 255, 255, 200, 120]):
        frame([(3, 0x3a, p), (3, 0x36, 1800 - i)])
    frame([(3, 0x39, -1), (1, 0x14a, 0)])
    with open(os.path.join(OUT, "headerless-one-slot.getevent.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def two_devices_getevent():
    """`getevent -lp` then `getevent -lt` on a phone: a key device and a described touchscreen with slots,
    their events interleaved and told apart by node; a stray error line from getevent between them."""
    lines = ["add device 1: /dev/input/event1", '  name:     "gpio-keys"', "  events:",
             "    KEY (0001): KEY_VOLUMEDOWN        KEY_POWER", "  input props:", "    <none>",
             "could not get driver version for /dev/input/mice, Not a typewriter",
             "add device 2: /dev/input/event2", "  bus:      0018", "  vendor    0000", "  product   0000",
             "  version   0000", '  name:     "pressured fixture touchscreen"', "  location: \"\"", '  id:       ""',
             "  version:  1.0.1", "  events:", "    KEY (0001): BTN_TOUCH            ",
             "    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0"]
    for code, hi in [(0x30, 255), (0x35, 1079), (0x36, 1919), (0x39, 65535), (0x3a, 1023)]:
        lines.append(f"                {NAMES[(3, code)][1]:<21} : value 0, min 0, max {hi}, fuzz 0, flat 0, resolution 0")
    lines += ["  input props:", "    INPUT_PROP_DIRECT"]
    keys, touch = "/dev/input/event1", "/dev/input/event2"

    def tap(t, i, n, p):
        if p is None:
            evs = [(3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0)]
        elif i == 0:
            evs = [(3, 0x2f, 0), (3, 0x39, 100 + n), (3, 0x35, 100 + 60 * n), (3, 0x36, 1500), (3, 0x3a, p),
                   (1, 0x14a, 1)]
        else:
            evs = [(3, 0x3a, p)]
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(getevent_line(t, typ, code, value, touch))
    t = round(warm_up(None, 80.5, frame=tap), 6) + 0.2

    def frame(node, evs):
        nonlocal t
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(getevent_line(t, typ, code, value, node))
        t += 0.011

    frame(touch, [(3, 0x2f, 0), (3, 0x39, 7), (3, 0x35, 500), (3, 0x36, 800), (3, 0x3a, 60), (1, 0x14a, 1)])
    for p in [200, 420, 640, 860, 1000]:
        frame(touch, [(3, 0x3a, p)])
    frame(keys, [(1, 0x72, 1)])
    frame(touch, [(3, 0x2f, 1), (3, 0x39, 8), (3, 0x35, 900), (3, 0x36, 300), (3, 0x3a, 50)])
    frame(keys, [(1, 0x72, 0)])
    frame(touch, [(3, 0x2f, 0), (3, 0x3a, 300), (3, 0x2f, 1), (3, 0x3a, 80)])
    frame(touch, [(3, 0x2f, 0), (3, 0x39, -1), (3, 0x2f, 1), (3, 0x39, -1), (1, 0x14a, 0)])
    with open(os.path.join(OUT, "two-devices.getevent.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def two_sessions_evtest():
    """Two evtest runs pasted into one mail: prose around them, the first run's long lines wrapped by the
    mail client (before a code's name, before `value`), each run with its own header."""
    def header(name, axes, keys):
        out = ["Input driver version is 1.0.1", "Input device ID: bus 0x18 vendor 0x4f3 product 0x1c version 0x100",
               f'Input device name: "{name}"', "Supported events:", "  Event type 0 (EV_SYN)",
               "  Event type 1 (EV_KEY)"]
        out += [f"    Event code {k} ({NAMES[(1, k)][1]})" for k in keys]
        out += ["  Event type 3 (EV_ABS)"]
        for code, lo, hi, res in axes:
            out += [f"    Event code {code} ({NAMES[(3, code)][1]})", "      Value      0", f"      Min   {lo:6d}",
                    f"      Max   {hi:6d}"] + ([f"      Resolution {res:6d}"] if res else [])
        out += ["  Event type 4 (EV_MSC)", "    Event code 4 (MSC_SCAN)", "Properties:",
                "  Property type 1 (INPUT_PROP_DIRECT)", "Testing ... (interrupt to exit)"]
        return out

    axes = [(0x2f, 0, 9, 0), (0x35, 0, 1279, 10), (0x36, 0, 2111, 10), (0x39, 0, 65535, 0), (0x3a, 0, 255, 0)]
    lines = ["Hi, here is evtest before and after the patch:", "", "==== before ===="]
    lines += header("Elan Touchscreen", axes, [0x14a])
    t = 1587922486.1

    def tap(tt, i, n, p):
        if p is None:
            evs = [(3, 0x39, -1), (1, 0x14a, 0)]
        elif i == 0:
            evs = [(3, 0x2f, 0), (3, 0x39, 50 + n), (3, 0x35, 300 + 40 * n), (3, 0x36, 1500), (3, 0x3a, p),
                   (1, 0x14a, 1)]
        else:
            evs = [(3, 0x3a, p)]
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(evtest_line(round(tt, 6), typ, code, value))
    t = round(warm_up(None, t, scale=255 / 1023, frame=tap) + 0.2, 6)
    frames = [[(3, 0x2f, 0), (3, 0x39, 64), (3, 0x35, 855), (3, 0x36, 893), (3, 0x3a, 47), (1, 0x14a, 1)]]
    frames += [[(3, 0x36, 899 + 6 * i), (3, 0x3a, p)] for i, p in enumerate([124, 166, 187, 207, 183])]
    frames += [[(4, 4, 0x90001), (3, 0x39, -1), (1, 0x14a, 0)]]
    for evs in frames:
        for typ, code, value in evs + [(0, 0, 0)]:
            lines += mail_wrap(evtest_line(t, typ, code, value))
        t = round(t + 0.011, 6)
    lines += ["", "==== after (only the tap) ====", ""]
    lines += header("Elan Touchscreen (patched)", [(c, lo, hi, 0) for c, lo, hi, _ in axes], [0x14a])
    t = 1587922846.335151
    for evs in [[(3, 0x39, 0), (3, 0x35, 565), (3, 0x36, 423), (3, 0x3a, 39), (1, 0x14a, 1)],
                [(3, 0x39, -1), (1, 0x14a, 0)]]:
        for typ, code, value in evs + [(0, 0, 0)]:
            lines.append(evtest_line(t, typ, code, value))
        t = round(t + 0.129, 6)
    lines += ["", "Thanks!"]
    with open(os.path.join(OUT, "two-sessions.evtest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for f in (peek_pop, quick_actions_and_hold, simultaneous_long_presses, dropped_and_oddities, resistive, no_pressure, protocol_a, demo,
              palms_and_hover, resistive_without_btn_touch, headerless_getevent, two_devices_getevent,
              two_sessions_evtest):
        f()
    print("wrote fixtures to", os.path.normpath(OUT))
