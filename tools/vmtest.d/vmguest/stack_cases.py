"""The cases of the compositor matrix (filter_stacks.py) as one evemu script a pass, and what the stack's
clients printed of each, read back: `wev`'s wl_touch events, `xinput test-xi2`'s XI2 touch events, the Qt
app's lines.

The panel is the fixtures' (0..4095 on both axes, pressure 0..1023; with the fixtures' calibration an
average touch is 252, peek 1.4 of it at 353, pop 2.0 at 504). It maps onto the whole screen, where the app
has its button over the top half and its list over the bottom half. A pressured client owns a region over
the whole screen that wants previews, so every touch begins in a force region. Each case ends at a gate,
where the scenario reads what the clients printed meanwhile.
"""
import re

from evscript import BTN_TOUCH, P, SLOT, TID, X, Y, Script, ev, header_of  # tools/vmtest.d, beside the drivers

from .harness import CFG, RUN

BUTTON = (2048, 1024)
LIST = (2048, 3300)
AFTER = (2600, 700)  # the tap on the released panel
STEP = 0.01  # seconds between frames

# (name, what it is), in the order the script plays them; "kill" is the last: pressured is killed at its
# first gate, with the finger down, and the finger lifts and a tap follows on the panel it let go of.
CASES = (
    ("tap", "a tap on the button"),
    ("firm", "a firm press on the button that peeks and pops"),
    ("next", "the tap on the button after it"),
    ("drag", "a drag that begins in the list"),
    ("two", "two fingers: a firm press in the list, a tap on the button during it"),
    ("kill", "pressured killed (SIGKILL) while a finger is down on the button"),
    ("after", "that finger lifting, then a tap on the button, on the released panel"),
)


def _press(s, t, tid, at, pressures, slot=0):
    """A contact that lands at `at` with the first pressure and goes through the rest, a frame each, in
    `slot`; stays down. Returns the time after its last frame."""
    x, y = at
    s.frame(t, ev(SLOT, slot), ev(TID, tid), ev(X, x), ev(Y, y), ev(P, pressures[0]), ev(BTN_TOUCH, 1))
    for p in pressures[1:]:
        t += STEP
        s.frame(t, ev(SLOT, slot), ev(P, p))
    return t + STEP


def _lift(s, t, slot=0, last=True):
    s.frame(t, ev(SLOT, slot), ev(TID, -1), *((ev(BTN_TOUCH, 0),) if last else ()))
    return t + STEP


TAP = (80, 160, 250, 220, 150)
# Up past peek (353) and pop (504), held a little at the top, and down again.
FIRM = (80, 150, 220, 290, 360, 420, 480, 540, 600, 650, 650, 650, 650, 600, 450, 300, 150)


def script():
    """The whole pass's script (its path): every case, a gate after each."""
    s = Script(header_of(CFG["peek_pop"]["capture"]))
    t = _lift(s, _press(s, 0.0, 1, BUTTON, TAP))
    s.gate()
    t = _lift(s, _press(s, t + 0.1, 2, BUTTON, FIRM))
    s.gate()
    t = _lift(s, _press(s, t + 0.1, 3, BUTTON, TAP))
    s.gate()
    # A drag: light, 30 panel units (about 7 px) a frame for 24 frames: well past any slop.
    x, y = LIST
    t = _press(s, t + 0.1, 4, (x, y + 400), (120, 200))
    for i in range(1, 25):
        s.frame(t, ev(SLOT, 0), ev(Y, y + 400 - 30 * i), ev(P, 200))
        t += STEP
    t = _lift(s, t)
    s.gate()
    # Two fingers: A firm in the list; B on the button 30 ms later, lifting after A's peek and pop.
    t += 0.1
    s.frame(t, ev(SLOT, 0), ev(TID, 5), ev(X, LIST[0]), ev(Y, LIST[1]), ev(P, FIRM[0]), ev(BTN_TOUCH, 1))
    for i, p in enumerate(FIRM[1:], 1):
        t += STEP
        extra = ()
        if i == 3:
            extra = (ev(SLOT, 1), ev(TID, 6), ev(X, BUTTON[0] - 400), ev(Y, BUTTON[1]), ev(P, 200))
        elif i == 14:
            extra = (ev(SLOT, 1), ev(TID, -1))
        s.frame(t, ev(SLOT, 0), ev(P, p), *extra)
    t = _lift(s, t + STEP)
    s.gate()
    # Down and still on the button, light: killed here.
    t = _press(s, t + 0.1, 7, BUTTON, (80, 160, 200, 200))
    s.gate()
    t = _lift(s, t + 0.05)
    # Elsewhere on the button: the kernel passes on only the values that change, and the compositor's
    # libinput, which saw nothing of the grabbed panel, would take an unchanged axis as 0.
    t = _lift(s, _press(s, t + 0.3, 8, AFTER, TAP))
    s.gate()
    return s.write(RUN, "matrix-cases.evemu")


# --- what the clients printed ---

WEV = re.compile(r"\[(\d+): +wl_touch\] (down|up|motion|frame|cancel)\b(?:.*?\btime: (\d+))?(?:.*?\bid: (-?\d+))?")


def wev_events(text):
    """wev's wl_touch events as (kind, id); a cancel has no id (None). wev may hold more than one wl_touch
    (the seat's touch capability comes and goes with the clone): only the newest one's events count."""
    return [(kind, tid) for kind, tid, _ in wev_timed(text)]


def wev_timed(text):
    """wev_events with each event's time (the compositor's, in ms; None for a frame or a cancel)."""
    found = [(int(m.group(1)), m.group(2), int(m.group(4)) if m.group(4) else None,
              int(m.group(3)) if m.group(3) else None) for m in WEV.finditer(text)]
    if not found:
        return []
    newest = max(obj for obj, _, _, _ in found)
    return [(kind, tid, ms) for obj, kind, tid, ms in found if obj == newest]


def down_to_up_ms(text):
    """For a case of one touch: the milliseconds from its wl_touch.down to its up, by the compositor's
    times (what the toolkit measures a tap's duration with); None without both."""
    times = {kind: ms for kind, _, ms in wev_timed(text) if kind in ("down", "up") and ms is not None}
    return times["up"] - times["down"] if len(times) == 2 else None


XI_KINDS = {"TouchBegin": "down", "TouchUpdate": "motion", "TouchEnd": "up"}


def xi2_events(text):
    """xinput test-xi2's touch events on the master pointer (device 2, each also comes from its slave) as
    (kind, touch id)."""
    out, kind, device = [], None, None
    for line in text.splitlines():
        m = re.match(r"EVENT type \d+ \((\w+)\)", line)
        if m:
            kind, device = XI_KINDS.get(m.group(1)), None
            continue
        m = re.match(r"\s+device: (\d+)", line)
        if m:
            device = int(m.group(1))
        m = re.match(r"\s+detail: (\d+)", line)
        if m and kind and device == 2:
            out.append((kind, int(m.group(1))))
            kind = None
    return out


def app_lines(text):
    return [m.group(1) for m in re.finditer(r"app: (.+)", text)]


def protocol_summary(events, down_before=()):
    """What the printer got in one case: counts, and the touches it still has down at the end (`down_before`:
    those left down by earlier cases, which a later down with the same id replaces)."""
    down = set(down_before)
    counts = {"down": 0, "up": 0, "motion": 0, "frame": 0, "cancel": 0}
    reused = 0
    for kind, tid in events:
        counts[kind] += 1
        if kind == "down":
            reused += tid in down
            down.add(tid)
        elif kind == "up":
            down.discard(tid)
        elif kind == "cancel":
            down.clear()  # wl_touch.cancel ends every touch the client has
    return {**counts, "left_down": sorted(down), "reused_down_id": reused}


def app_summary(lines):
    clicks = sum(1 for l in lines if l.startswith("clicked"))
    scrolled = [int(m.group(1)) for l in lines for m in [re.match(r"list (?:drag ended|stopped) at (-?\d+)", l)] if m]
    return {"clicks": clicks, "pressed": lines.count("button pressed"), "released": lines.count("button released"),
            "canceled": lines.count("button canceled"), "dragged": lines.count("list drag started"),
            "scrolled_to": max(scrolled, default=0), "lines": lines}


def protocol_words(p, frames=True):
    """A protocol summary in a few words, for the results and the table (`frames`: the protocol has frames:
    Wayland's, not XI2's)."""
    if not p["down"] and not p["up"] and not p["cancel"]:
        return "nothing"
    words = [f"{p[k]} {k}" for k in ("down", "up", "cancel") if p[k]]
    if p["left_down"]:
        words.append(f"{len(p['left_down'])} left down")
    if p["reused_down_id"]:
        words.append("a down reusing a down id")
    if frames and not p["frame"]:
        words.append("no wl_touch.frame")  # (a client that waits for the frame, as Qt does, gets them late)
    return ", ".join(words)


def app_words(a):
    words = [f"{a['clicks']} click{'s' if a['clicks'] != 1 else ''}"]
    if a["pressed"] > a["released"] + a["canceled"]:
        words.append("button held pressed")
    if a["canceled"]:
        words.append("button canceled")
    if a["dragged"] or a["scrolled_to"]:
        words.append("list scrolled" if a["scrolled_to"] else "list dragged, not scrolled")
    return ", ".join(words)
