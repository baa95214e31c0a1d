"""The evemu writer of tools/make-fixtures.py: a described device's header in evemu 1.2 text, as
`evemu-record` writes it, and a script of timed frames, with the warm-up taps every force fixture opens
with. Also used by the web tests to make captures of their own."""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures")

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
