#!/usr/bin/env python3
"""Writes the project's own capture fixtures (Tests/Fixtures/*.evemu), each a scripted scenario on a
described device, in evemu 1.2 text as `evemu-record` writes it, and a few logs in the text formats of
evtest and Android's getevent (*.evtest.txt, *.getevent.txt, written by make-fixtures.d/text_logs.py)
with the quirks real ones have. The golden outputs beside them come from `pressurectl replay`
(regenerate with PRESSURED_REGENERATE_GOLDENS=1 swift test). Run from the repo root:

    python3 tools/make-fixtures.py

Deterministic: the same files every time.

A device nobody calibrated learns its average touch from its first ordinary touches, and force is
unavailable until it has (docs/gestures.md, "Learning the average touch"). So every fixture about force
gestures opens with eight quick ordinary taps (`warm_up`, peaks 230..270 of 1023, or 57..67 of 255):
the device learns an average touch of about 252 (62), so peek sits at about 353 (87) and pop at about
504 (124), and the scripted presses after them are placed against those thresholds.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-fixtures.d"))
from evemu_script import OUT, SCREEN_AXES, Script, header, mt, screen_header, warm_up, write  # noqa: E402
from text_logs import headerless_getevent, two_devices_getevent, two_sessions_evtest  # noqa: E402


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


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for f in (peek_pop, quick_actions_and_hold, simultaneous_long_presses, dropped_and_oddities, resistive, no_pressure, protocol_a, demo,
              palms_and_hover, resistive_without_btn_touch, headerless_getevent, two_devices_getevent,
              two_sessions_evtest):
        f()
    print("wrote fixtures to", os.path.normpath(OUT))
