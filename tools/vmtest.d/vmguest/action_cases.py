"""The cases of the actions' checks (action_stacks.py) as one evemu script, and what the app
(tools/vmtest.d/action-app.qml) printed of each, read back and judged.

The panel is the fixtures' (0..4095 on both axes, pressure 0..1023; with the fixtures' calibration a pop is
at 504). It maps onto the whole screen: the app's item (a context menu on a right click, its left clicks
counted) over the top half, its list over the bottom half. The configuration (CONFIG) makes a pop and a hold
a right click, and a pop in the bottom half Ctrl+C. No client owns a region: every touch may be an action's.
Each case ends at a gate, where the scenario reads what the app printed meanwhile.
"""
import re

from evscript import BTN_TOUCH, P, SLOT, TID, X, Y, Script, ev, header_of  # tools/vmtest.d, beside the drivers

from .harness import CFG, RUN
from .stack_cases import FIRM, TAP, _lift, _press

PANEL = 4096  # the fixtures' axes, 0..4095
POP = 504  # the fixtures' pop threshold (an average touch 252, pop 2.0 of it)
KEY_AREA = "4096x2048+0+2048"  # the bottom half, in panel units (no ScreenSize)

CONFIG = f"""\
[action]
Gesture = pop
Does = rightClick

[action]
Gesture = longPress
Does = rightClick

[action]
Gesture = pop
Does = key:Ctrl+C
Area = {KEY_AREA}
"""

TAP_AT = (2048, 1024)
FIRM_AT = (2800, 1400)
HOLD_AT = (1200, 800)
LIST = (2048, 3300)
KEY_AT = (1500, 3000)
HOLD_S = 0.9  # down and still: the long press is at 500 ms, by the daemon's timer

# (name, what it is, where the finger is on the panel or None), in the order the script plays them.
CASES = (
    ("tap", "an ordinary tap on the item", TAP_AT),
    ("firm", "a firm press on the item (pop: right click)", FIRM_AT),
    ("hold", "a hold on the item (long press: right click)", HOLD_AT),
    ("next", "a tap on the item after them", TAP_AT),
    ("drag", "a drag that begins in the list", None),
    ("key", "a firm press in the list (pop there: Ctrl+C)", KEY_AT),
)


def script():
    """The whole pass's script (its path): every case, a gate after each."""
    s = Script(header_of(CFG["peek_pop"]["capture"]))
    t = _lift(s, _press(s, 0.0, 1, TAP_AT, TAP))
    s.gate()
    t = _lift(s, _press(s, t + 0.1, 2, FIRM_AT, FIRM))
    s.gate()
    t = _press(s, t + 0.1, 3, HOLD_AT, (80, 160, 200))
    t = _lift(s, t + HOLD_S)
    s.gate()
    t = _lift(s, _press(s, t + 0.1, 4, TAP_AT, TAP))
    s.gate()
    x, y = LIST
    t = _press(s, t + 0.1, 5, (x, y + 400), (120, 200))
    for i in range(1, 25):
        s.frame(t, ev(SLOT, 0), ev(Y, y + 400 - 30 * i), ev(P, 200))
        t += 0.01
    t = _lift(s, t)
    s.gate()
    t = _lift(s, _press(s, t + 0.1, 6, KEY_AT, FIRM))
    s.gate()
    return s.write(RUN, "action-cases.evemu")


def lines(text):
    return [m.group(1) for m in re.finditer(r"app: (.+)", text)]


def points(ls, what):
    """The x,y of each line `what at X,Y`."""
    return [(int(m.group(1)), int(m.group(2))) for l in ls for m in [re.match(what + r" at (-?\d+),(-?\d+)", l)] if m]


def summary(ls):
    scrolled = [int(m.group(1)) for l in ls for m in [re.match(r"list (?:drag ended|stopped) at (-?\d+)", l)] if m]
    return {"clicks": sum(1 for l in ls if l.startswith("clicked")),
            "left_pressed": len(points(ls, "left pressed")),
            "right_clicks": points(ls, "right click"), "menus": points(ls, "menu opened"),
            "keys": [l[4:] for l in ls if l.startswith("key ")],
            "scrolled_to": max(scrolled, default=0), "lines": ls}


def expected_pixel(at, size):
    """Where the finger is on the screen, in pixels: the panel maps onto the whole output."""
    return tuple(round(v / PANEL * s) for v, s in zip(at, size))


def judge(case, at, s, size, tolerance=4):
    """What is wrong with the app's summary of a case (empty: as it must be)."""
    wrong = []
    if case in ("tap", "next"):
        if s["clicks"] != 1:
            wrong.append(f"{s['clicks']} clicks, expected 1")
        if s["right_clicks"] or s["menus"]:
            wrong.append("a right click or menu on a tap")
    elif case in ("firm", "hold"):
        if s["clicks"] or s["left_pressed"]:
            wrong.append(f"the item got a left press ({s['left_pressed']}) or click ({s['clicks']})")
        if len(s["right_clicks"]) != 1 or len(s["menus"]) != 1:
            wrong.append(f"{len(s['right_clicks'])} right clicks and {len(s['menus'])} menus, expected 1 and 1")
        else:
            want = expected_pixel(at, size)
            off = max(abs(a - b) for a, b in zip(s["right_clicks"][0], want))
            if off > tolerance:
                wrong.append(f"the right click at {s['right_clicks'][0]}, the finger at {want} ({off} px off)")
    elif case == "drag":
        if not s["scrolled_to"]:
            wrong.append("the list did not scroll")
        if s["right_clicks"] or s["clicks"] or s["keys"]:
            wrong.append("a drag clicked or pressed keys")
    elif case == "key":
        if s["keys"] != ["Ctrl+C"]:
            wrong.append(f"keys {s['keys']}, expected ['Ctrl+C']")
        if s["right_clicks"] or s["clicks"] or s["scrolled_to"]:
            wrong.append("the key action's touch also clicked or scrolled")
    return wrong


def words(case, at, s, size):
    w = [f"{s['clicks']} click{'s' if s['clicks'] != 1 else ''}"]
    if s["left_pressed"] and not s["clicks"]:
        w.append(f"{s['left_pressed']} left press")
    for p in s["right_clicks"]:
        want = expected_pixel(at, size) if at else None
        w.append(f"right click at {p[0]},{p[1]}" + (f" (finger {want[0]},{want[1]})" if want else ""))
    if s["menus"]:
        w.append("menu opened")
    if s["keys"]:
        w.append("keys " + " ".join(s["keys"]))
    if s["scrolled_to"]:
        w.append(f"list scrolled to {s['scrolled_to']}")
    return ", ".join(w)
