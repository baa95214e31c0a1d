"""Scenario 24's hold: filter mode holding (FilterMethod = hold, docs/filter.md). pressured grabs a uinput
touchscreen and serves the compositor through its clone, `libinput debug-events` reading the clone as a
compositor does, a client owning a region over the left half that wants previews. One touch of each kind
(prepare.py's hold_touches): a tap in the region reaches the clone whole at its lift (TOUCH_DOWN and TOUCH_UP
within a few ms); a firm press there that peeks and pops never reaches it; a drag there begins once past the
slop and moves on live; a tap outside the region passes as it happens (its down its duration before its up);
a still touch there is given to the clone at the long-press time (on the daemon's timer: the panel sends
nothing); a drag let go past the slop that presses on to a peek after that is cancelled (TOUCH_CANCEL)."""
import os
import re
import time

from .filter_common import let_go, libinput_on, plug
from .harness import CFG, RUN, Client, Daemon, check, release


def timed_touches(text):
    """libinput debug-events' touch lines as (kind, seconds), kind DOWN, MOTION, UP or CANCEL."""
    out = []
    for line in text.splitlines():
        m = re.search(r"\bTOUCH_(DOWN|UP|CANCEL|MOTION)\s+\+(\d+\.\d+)s", line)
        if m:
            # libinput's event times are milliseconds in 32 bits: an event stamped just before its first one
            # comes out as 2^32 ms less a few
            t = float(m.group(2))
            out.append((m.group(1), t - 4294967.296 if t > 2147483.648 else t))
    return out


def touches(events):
    """The touches libinput saw begin, in order: each its kinds and times from its DOWN to its UP or CANCEL."""
    out, current = [], None
    for kind, t in events:
        if kind == "DOWN":
            current = [(kind, t)]
            out.append(current)
        elif current is not None:
            current.append((kind, t))
            if kind in ("UP", "CANCEL"):
                current = None
    return out


def held(env, details):
    """A daemon of its own with FilterMethod = hold, and one touch of each kind (the module's doc)."""
    conf = os.path.join(RUN, "filter-hold.conf")
    with open(conf, "w") as f:
        f.write("[pressured]\nFilter = on\nFilterMethod = hold\n")
    spec = CFG["filter_hold"]
    r = spec["region"]
    daemon = owner = player = on_clone = None
    try:
        daemon = Daemon("filter-hold", ["--config", conf], calibrated=True)
        owner = Client(daemon.sock, ("gestures",),
                       setup=lambda c: c.set_region("left", r["x"], r["y"], r["width"], r["height"], wants=["previews"]))
        player, clone = plug(daemon, "held", spec["capture"])
        said = re.search(re.escape(player.node) + r": filtered .*", daemon.text())
        details.append(f"pressured: {said.group(0) if said else '(no line)'}")
        check(said is not None and "held back (FilterMethod = hold" in said.group(0), "the panel is not held")
        (on_clone,) = libinput_on(clone, env=env, label="clone-hold")
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        time.sleep(1.5)
        seen = touches(timed_touches(on_clone.text()))
        gestures = [e.get("type") for e in owner.snapshot() if e.get("type")]
        details.append(f"the owner's gestures: {' '.join(gestures)}")
        for k, t in enumerate(seen):
            kinds = [kind for kind, _ in t]
            span = (t[-1][1] - t[0][1]) * 1000
            details.append(f"libinput on the clone, touch {k + 1}: DOWN, {kinds.count('MOTION')} MOTION, "
                           f"{kinds[-1]}, {span:.1f} ms from DOWN to {kinds[-1]}")
        check(len(seen) == 5, f"{len(seen)} touches on the clone, not 5 (the pop's never): {seen}")
        tap, drag, outside, still, dragged = seen
        ends = [t[-1][0] for t in seen]
        check(ends == ["UP", "UP", "UP", "UP", "CANCEL"], f"how the touches ended: {ends}")
        span = [t[-1][1] - t[0][1] for t in seen]
        check(span[0] < 0.01, f"the tap in the region was not written whole at its lift: {span[0] * 1000:.1f} ms")
        check(any(kind == "MOTION" for kind, _ in drag) and span[1] > 0.1, f"the drag did not go on live: {drag}")
        check(span[2] > 0.04, f"the tap outside the region did not pass as it happened: {span[2] * 1000:.1f} ms")
        check(0.1 < span[3] < 0.6, f"the still touch was not let go at the long-press time: {span[3] * 1000:.1f} ms")
        check(any(kind == "MOTION" for kind, _ in dragged), f"the drag that popped did not go on live: {dragged}")
        check(gestures.count("peek") == 2 and gestures.count("pop") == 2, f"the owner's gestures: {gestures}")
    finally:
        if owner is not None:
            let_go(owner)
        release(on_clone, player, daemon)
