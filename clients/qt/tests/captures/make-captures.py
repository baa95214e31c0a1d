#!/usr/bin/env python3
"""Writes the Qt module's test captures (evemu 1.2, as tools/make-fixtures.py writes the daemon's), each one
finger at a known screen point, for the QML tests to touch in step (tests/tst_forcetoucharea.qml).

The device: a 4096×4096 panel (16 units/mm, pressure 0..1023). tests/captures/pressured-test.conf maps it
to a 1024×1024 px screen (4 units a pixel) and fixes the average touch at 250 (no learning), so peek sits
at 350 (1.4) and pop at 500 (2.0). The test window's scene point P is at screen P + (100, 60): the daemon's
screen is not where Qt thinks the window is, and the module has to learn that from the first touch.

    python3 clients/qt/tests/captures/make-captures.py      # deterministic: the same files every time
"""
import os

OUT = os.path.dirname(os.path.abspath(__file__))
SCREEN = 1024
UNITS = 4095
OFFSET = (100, 60)  # daemon screen = Qt scene + OFFSET (tests/tst_forcetoucharea.qml says the same)

AXES = [(0x00, 0, 4095, 0, 0, 16), (0x01, 0, 4095, 0, 0, 16), (0x18, 0, 1023, 0, 0, 0),
        (0x2f, 0, 9, 0, 0, 0), (0x35, 0, 4095, 0, 0, 16), (0x36, 0, 4095, 0, 0, 16),
        (0x39, 0, 65535, 0, 0, 0), (0x3a, 0, 1023, 0, 0, 0)]


def header(name):
    lines = ["# EVEMU 1.2", f"# Input device name: \"{name}\"",
             "# pressured Qt module test capture (clients/qt/tests/captures/make-captures.py)",
             f"N: {name}", "I: 0003 1d6b 0a02 0100", "P: 02 00 00 00 00 00 00 00",
             "B: 00 0b 00 00 00 00 00 00 00"]
    keys = [0] * 96
    keys[0x14a // 8] |= 1 << (0x14a % 8)
    for i in range(0, 96, 8):
        lines.append("B: 01 " + " ".join(f"{b:02x}" for b in keys[i:i + 8]))
    absb = [0] * 8
    for a in AXES:
        absb[a[0] // 8] |= 1 << (a[0] % 8)
    lines.append("B: 03 " + " ".join(f"{b:02x}" for b in absb))
    lines += [f"A: {a[0]:02x} {a[1]} {a[2]} {a[3]} {a[4]} {a[5]}" for a in AXES]
    return lines


class Capture:
    def __init__(self, name, out=OUT, offset=OFFSET):
        self.name = name
        self.out = out
        self.offset = offset
        self.lines = header(f"pressured qt test: {name}")
        self.tid = 1

    def frame(self, t, events):
        for code, value in events:
            self.lines.append(f"E: {t:.6f} 0003 {code:04x} {value:04d}")
        self.lines.append(f"E: {t:.6f} 0000 0000 0000")

    def touch(self, t, scene, pressures, dt=0.02, hold=0.0):
        """One finger at the scene point `scene` (screen = scene + OFFSET) through `pressures`, a frame each
        `dt`, then still for `hold` seconds, then lifted. Returns the time after the lift."""
        sx, sy = scene[0] + self.offset[0], scene[1] + self.offset[1]
        x, y = round(sx * UNITS / SCREEN), round(sy * UNITS / SCREEN)
        for i, p in enumerate(pressures):
            ev = [(0x2f, 0)]
            if i == 0:
                ev += [(0x39, self.tid), (0x35, x), (0x36, y)]
            self.frame(t, ev + [(0x3a, p)])
            t += dt
        t += hold
        self.frame(t, [(0x2f, 0), (0x39, -1)])
        self.tid += 1
        return t + 0.05

    def write(self):
        with open(os.path.join(self.out, self.name + ".evemu"), "w") as f:
            f.write("\n".join(self.lines) + "\n")


LIGHT_TAP = [60, 120, 150, 120, 60]                   # peaks at 0.6: no peek
FIRM = [100, 200, 300, 380, 450, 520, 600, 640, 640, 600, 400, 200]  # peek at 380, pop at 520
HOLD = [70, 80]                                        # light and still: long press after 500 ms
LEAD = 1.0  # the replay's clock starts at the capture's first event: the finger lands a second in


def ramp(a, b, n):
    return [round(a + (b - a) * i / (n - 1)) for i in range(n)]


def main():
    c = Capture("tap"); c.touch(LEAD, (120, 120), LIGHT_TAP); c.write()
    c = Capture("firm-press"); c.touch(LEAD, (100, 110), FIRM, dt=0.04); c.write()
    c = Capture("firm-press-taphandler"); c.touch(LEAD, (560, 120), FIRM, dt=0.04); c.write()
    c = Capture("hold"); c.touch(LEAD, (340, 120), HOLD, hold=0.9); c.write()
    c = Capture("firm-press-outside"); c.touch(LEAD, (120, 310), FIRM, dt=0.04); c.write()
    c = Capture("firm-press-disabled"); c.touch(LEAD, (120, 520), FIRM, dt=0.04); c.write()
    c = Capture("firm-press-nested"); c.touch(LEAD, (340, 520), FIRM, dt=0.04); c.write()
    c = Capture("press-list"); c.touch(LEAD, (560, 470), ramp(100, 640, 20) + [640] * 20, dt=0.04); c.write()
    c = Capture("peek-hold"); c.touch(LEAD, (100, 150), ramp(100, 420, 8) + [420] * 60, dt=0.04); c.write()
    # The window's first touch, before the offset is learned: on the MouseArea tile, 10 px from its edge.
    c = Capture("first-touch"); c.touch(LEAD, (430, 120), FIRM, dt=0.04); c.write()

    # The kiosk example (examples/kiosk/Main.qml: tiles of 300 px from (24, 84), 324 apart; its window at
    # 0, 0, so no offset): a long peek on Cappuccino (the README's picture), a pop on Espresso, the Menu
    # icon's quick actions, a pop on the Call staff button.
    kiosk = Capture("kiosk", out=os.path.join(OUT, "..", "..", "examples", "kiosk"), offset=(0, 0))
    t = kiosk.touch(LEAD, (498, 234), [100, 200, 300, 380, 420] + [420] * 40 + [300, 150], dt=0.04)
    t = kiosk.touch(t + 1.0, (174, 234), FIRM, dt=0.04)
    t = kiosk.touch(t + 1.5, (822, 234), [100, 200, 300, 400, 420, 420, 420, 420, 300], dt=0.04)
    kiosk.touch(t + 1.0, (174, 738), FIRM, dt=0.04)
    kiosk.write()


if __name__ == "__main__":
    main()
