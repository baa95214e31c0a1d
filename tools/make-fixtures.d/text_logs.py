"""The text logs of tools/make-fixtures.py: what evtest and Android's getevent print, with the quirks real
ones have (no header, interleaved devices, a mail client's wrapping), for the readers of those formats."""
import os

from evemu_script import OUT, warm_up

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
