"""Captures and configurations the web tests make for themselves (deterministic, written to a temp folder),
built with tools/make-fixtures.py's evemu writer (tools/make-fixtures.d/evemu_script.py).

Every configuration sets the fixture device's calibration outright (PressureFloor 0, PressureAverage 300,
PressureTop 1000 on its 0..1023 axis), so what the daemon learns on a fresh device never changes the
gestures: ordinary touches stay at or below 250, peeks press to about 500, pops to 1010. That pops both
where the top itself is the pop threshold (a top below force 5.0, as here: 1000/300 = 3.33) and where pop
is 0.93 of the top.
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "evemu_script", os.path.join(HERE, "..", "make-fixtures.d", "evemu_script.py"))
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

DEVICE = "pressured web fixture"
AXIS = 4095          # x and y: 0..4095 device units
SCREEN = (800, 600)  # ScreenSize in the configuration: device units map onto these pixels
POP = 1010           # at or above the top: pops whichever rule places the threshold

CONFIG = f"""[pressured web fixture]
MatchName = {DEVICE}
PressureFloor = 0
PressureAverage = 300
PressureTop = 1000
ScreenSize = {SCREEN[0]}x{SCREEN[1]}
"""


def write_config(folder, extra=""):
    path = os.path.join(folder, "pressured.conf")
    with open(path, "w") as f:
        f.write(CONFIG + extra)
    return path


def device_units(px, py):
    """Device units for screen pixel (px, py) (the inverse of ScreenSize's mapping)."""
    return round(px * AXIS / SCREEN[0]), round(py * AXIS / SCREEN[1])


def ramp(a, b, n):
    return [round(a + (b - a) * i / (n - 1)) for i in range(n)]


class Recorder:
    """Touches in time order on one slot at a time, each a list of pressures with optional movement."""

    def __init__(self, start=1.0, step=0.01):
        self.s = mf.Script()
        self.t = start
        self.step = step
        self.tid = 100
        # One empty frame at time 0, so the replay starts its clock at 0 and the first touch comes `start` later.
        self.s.frame(0.0, [])

    def touch(self, x, y, pressures, dx=0, dy=0, slot=0, gap=0.3):
        self.tid += 1
        for i, p in enumerate(pressures):
            first = i == 0
            self.s.frame(self.t, mf.mt(slot if first else None, self.tid if first else None,
                                       x + i * dx if first or dx else None, y + i * dy if first or dy else None, p))
            self.t += self.step
        self.s.frame(self.t, mf.mt(slot, -1))
        self.t += gap

    def write(self, path):
        with open(path, "w") as f:
            f.write("\n".join(mf.screen_header(DEVICE) + self.s.lines) + "\n")
        return path


def light_touches(path, count=400, frames=40):
    """Only ordinary touches, each moving (so nothing long-presses): touch events and no gesture at all."""
    r = Recorder(step=0.001, start=0.01)
    for i in range(count):
        r.touch(500 + (i % 30) * 100, 800, [60 + (k % 5) * 30 for k in range(frames)], dx=3, gap=0.002)
    return r.write(path)


def many_presses(path, count=1500):
    """Quick firm presses: a peek and a pop each (gestures that may never be dropped)."""
    r = Recorder(step=0.001, start=0.01)
    for i in range(count):
        r.touch(500 + (i % 30) * 100, 1200, [100, 500, POP, POP, 100], gap=0.002)
    return r.write(path)


def one_press(path):
    """One firm press (peek, pop) a second in."""
    r = Recorder()
    r.touch(2000, 2000, ramp(60, 500, 10) + ramp(500, POP, 10) + [POP] * 3 + ramp(900, 100, 5))
    return r.write(path)
