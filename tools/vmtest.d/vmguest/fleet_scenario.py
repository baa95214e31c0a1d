"""Scenario 20, the fleet: every touch device of the kernel's hid-multitouch tests (../shared/hid-descriptors/
multitouch.json: real report descriptors), one after another through uhid into hid-multitouch, served by one
pressured found through udev with the project's rules. Per device (fleet_device.FleetDevice): the rules' tag,
pressured's device line against the kernel's node, then touches built from the descriptor: one finger down,
moved and up; two fingers; a contact in range without its tip (hovering); a still hold (long press); a
contact larger than a palm where the panel reports its size; one the firmware calls not confident (a palm);
where the kernel exposes pressure, eight ordinary taps (the device learns its average touch) and a press that
rises to the top of the range (peek, pop); and an unplug with a finger down (dismiss, cancelled). Writes the
table (OUT/fleet.md, OUT/fleet.json)."""
import json
import os
import time
import traceback

from .fleet_device import (FRAME, LEARNING_MS, LEARNING_PEAKS, PALM_MM, FleetDevice, KernelDiffers)
from .hid_touch import Q_TOUCH_SIZE_SCALING
from . import evdev_node as ev
from .harness import CFG, LOGS, OUT, Client, Daemon, Failure, check, log, release, start_udevd, stop_udevd, wait_until

MARKER = (0.85, 0.15)  # an ordinary tap after a contact that must not be a touch: pressured has read it all then


def marker(d):
    return d.stroke([MARKER] * 3)


def tap_move(d):
    path = [(0.30 + 0.06 * i, 0.40 + 0.06 * i) for i in range(6)]
    m, t = d.client.mark(), time.monotonic()
    d.play(d.stroke(path))
    d.expect_contacts("down, move, up", m, t, [(d.pos(*path[0]), d.pos(*path[-1]))])


def two_fingers(d):
    slots = d.touch.axis(ev.ABS_MT_SLOT)
    if d.digitizer.max_contacts < 2 or not slots or slots["max"] < 1:
        d.notes.append("one contact at a time (the kernel gives it one slot)")
        return
    frames = [[d.finger(0, 0.25 + 0.02 * i, 0.30 + 0.02 * i), d.finger(1, 0.70 - 0.02 * i, 0.65 - 0.02 * i)]
              for i in range(6)]
    m, t = d.client.mark(), time.monotonic()
    d.play(frames + [d.lift(frames[-1])])
    d.expect_contacts("two fingers", m, t, [(d.pos(0.25, 0.30), d.pos(0.35, 0.40)),
                                            (d.pos(0.70, 0.65), d.pos(0.60, 0.55))])


def not_a_touch(d, what, frames, kernel_touch=None):
    """`frames` (ended by their lift) must give pressured no touch: only the marker tap after them is one.
    `kernel_touch`: where the kernel itself reports them as a touching contact (a palm by size)."""
    m, t = d.client.mark(), time.monotonic()
    d.play(frames + marker(d))
    mark = (d.pos(*MARKER), d.pos(*MARKER))
    d.expect_contacts(what, m, t, [mark], kernel=sorted([mark] + ([(kernel_touch, kernel_touch)] if kernel_touch
                                                                  else [])))


def hover(d):
    if not d.digitizer.has("inrange"):
        return
    frames = [[d.finger(0, 0.5, 0.5, tip=False)] for _ in range(10)]
    t = time.monotonic()
    not_a_touch(d, "hovering is not a touch", frames + [d.lift(frames[-1])])
    if any(c["hover"] for c in d.kernel_view(t)):
        d.notes.append("hovers (the kernel reports ABS_MT_DISTANCE 1): not a touch")


def hold(d):
    frames = [[d.finger(0, 0.45, 0.55)] for _ in range(int(0.8 / FRAME))]
    m, t = d.client.mark(), time.monotonic()
    d.play(frames + [d.lift(frames[-1])])
    d.expect_contacts("hold", m, t, [(d.pos(0.45, 0.55), d.pos(0.45, 0.55))], gestures=[["longPress"]])


def palm(d):
    """A contact wider than PalmSizeMm, where the kernel reports contact size (ABS_MT_TOUCH_MAJOR)."""
    if not d.major or not d.digitizer.has("w"):
        return
    res = d.major["resolution"]
    if res <= 0:
        d.notes.append("contact size without a resolution: no palms by size")
        return
    finer = max(res, d.x["resolution"], d.y["resolution"])  # pressured's rule (TouchDevice)
    limit = int(PALM_MM * finer)
    largest = min(d.major["max"], d.digitizer.largest(d.digitizer.fields["w"]))
    if d.digitizer.quirks & Q_TOUCH_SIZE_SCALING:
        largest >>= 1
    if largest <= limit:
        d.notes.append(f"its largest contact ({largest} units, {largest / finer:.1f} mm at {finer} units/mm) is "
                       f"not a palm's {PALM_MM:.0f} mm")
        return
    mm = min(largest, int(limit * 1.6) + 1) / res
    big = [[d.finger(0, 0.4, 0.6, width=d.size_units(mm), height=d.size_units(mm))] for _ in range(5)]
    not_a_touch(d, f"a {mm * res / finer:.0f} mm contact is a palm", big + [d.lift(big[-1])], d.pos(0.4, 0.6))


def confidence_palm(d):
    """hid-multitouch reports a contact its firmware calls not confident as MT_TOOL_PALM (its Windows 8
    classes; the quirk is the application's, not in sysfs: the node's ABS_MT_TOOL_TYPE up to MT_TOOL_PALM
    says it)."""
    tool = d.touch.axis(ev.ABS_MT_TOOL_TYPE)
    if not d.digitizer.has("confidence") or not tool or tool["max"] < ev.MT_TOOL_PALM:
        return
    frames = [[d.finger(0, 0.6, 0.4, confident=False)] for _ in range(5)]
    not_a_touch(d, "not confident: a palm", frames + [d.lift(frames[-1])])


def learning(d):
    """Eight ordinary taps: the fresh device learns its average touch and says `available`."""
    if d.dev.get("forceUnavailable") != "learning":
        d.notes.append(f"force {d.dev['forceCapability']} ({d.dev.get('forceUnavailable')}) from the start")
        return
    m = d.client.mark()
    for peak, ms in zip(LEARNING_PEAKS, LEARNING_MS):
        n = max(3, ms // 10)
        profile = [peak * 0.6] + [peak] * (n - 2) + [peak * 0.7]
        frames = [[d.finger(0, 0.35, 0.5, pressure=p)] for p in profile]
        d.play(frames + [d.lift(frames[-1])])
        d.t += 0.15
    d.ended(m, len(LEARNING_PEAKS))
    try:
        changed = d.client.wait_for(lambda e: e.get("type") == "device" and e.get("change") == "changed" and
                                    e["device"]["id"] == d.dev["id"], 15, "device changed", after=m)["device"]
    except Failure:
        raise Failure(f"learning: no device changed after 8 ordinary taps ({d.force_status()})")
    d.force = changed
    d.notes.append(f"learned from 8 taps: {changed['forceCapability']} ({changed.get('forceUnavailable', '')}"
                   f"{changed['maximumPossibleForce']})")
    d.check("learning", changed["forceCapability"] == "available" or
            changed.get("forceUnavailable") in ("no-headroom", "too-few-levels", "flat", "pressure-is-size"),
            f"after 8 taps: {changed}")


def rising_press(d):
    if d.force.get("forceCapability") != "available":
        return
    ramp = [0.3 + 0.7 * i / 29 for i in range(30)] + [1.0] * 15
    frames = [[d.finger(0, 0.5, 0.45, pressure=p)] for p in ramp]
    m, t = d.client.mark(), time.monotonic()
    d.play(frames + [d.lift(frames[-1])])
    top = d.pos(0.5, 0.45)
    d.expect_contacts("a press to the top", m, t, [(top, top)], gestures=[["peek", "pop"]])


def unplug(d):
    """A finger down (peeking where force is available), then the device destroyed."""
    force = d.force.get("forceCapability") == "available"
    level = 0.4
    if force:
        s = d.force_status()
        level = ((s["peekRaw"] + s["popRaw"]) / 2 - d.p["min"]) / (d.p["max"] - d.p["min"])
    m = d.client.mark()
    want = "peek" if force else "began"
    seen = lambda: any(e.get("device") == d.dev["id"] and (e.get("type") == want or e.get("phase") == want)
                       for e in d.client.snapshot()[m:])
    ramp = [0.3 + (level - 0.3) * i / 9 for i in range(10)] if force else [level]
    # One stroke, a frame apart: played one call a frame, the ramp took 10 x 60 ms, longer than a long
    # press, which then fired first and (rightly) kept the press from peeking.
    d.play([[d.finger(0, 0.55, 0.5, pressure=p)] for p in ramp])
    end = time.monotonic() + 20
    while not seen() and time.monotonic() < end:  # the finger stays down: the firmware keeps reporting it
        d.play([[d.finger(0, 0.55, 0.5, pressure=level)]])
    check(seen(), f"unplug: no {want} before the unplug")
    # The finger reported once more just before the unplug: hid-multitouch releases a contact its firmware
    # has not reported for 100 ms on sticky-finger devices, which a guest stalled by a loaded host reached
    # between the check above and the unplug (`ended` before `cancelled`, seen once with other work running).
    d.play([[d.finger(0, 0.55, 0.5, pressure=level)]])
    d.uhid.destroy()
    removed = d.client.wait_for(lambda e: e.get("type") == "device" and e.get("change") == "removed" and
                                e["device"]["id"] == d.dev["id"], 20, "the device's removal", after=m)
    after = d.client.snapshot()[m:]
    tail = [e.get("phase", e["type"]) for e in after if e.get("device") == d.dev["id"] and
            e.get("type") in ("touch", "dismiss", "peek")]
    tail = [x for x in tail if x not in ("moved", "began")]
    wanted = ["peek", "dismiss", "cancelled"] if force else ["cancelled"]
    d.check("unplug", tail == wanted and removed, f"after the unplug: {tail}, wanted {wanted}")


PARTS = (tap_move, two_fingers, hover, hold, palm, confidence_palm, rising_press, unplug)


def run_device(entry, udev_env, daemon):
    client = Client(daemon.sock, ("gestures", "touches", "devices"))
    try:
        d = FleetDevice(entry, client, udev_env, daemon.sock)
    except (ValueError, KeyError) as e:  # a descriptor the player cannot read: this device fails, not the fleet
        client.close()
        return {"device": entry["test_class"], "id": "-", "generic_id": False, "kind": "-", "pressure": "-",
                "result": "failed", "differs": f"the player cannot build its reports: {e}", "notes": [],
                "checks": [], "seconds": 0}
    t0 = time.monotonic()
    row = {"device": entry["test_class"], "id": f"{d.bus:04x}:{d.vendor:04x}:{d.product:04x}",
           "generic_id": entry["vendor"] is None, "application": entry["application"]}
    try:
        d.plug()
        d.check_udev()
        d.check_device_line()
        if d.p is not None:
            learning(d)
        for part in PARTS:
            part(d)
        row["result"] = "served"
    except KernelDiffers as e:
        row["result"], row["differs"] = "kernel", str(e)
    except Failure as e:
        row["result"], row["differs"] = "failed", str(e)
    except Exception as e:  # noqa: BLE001 (a harness error: this device fails, the fleet goes on)
        row["result"], row["differs"] = "failed", f"{type(e).__name__}: {e} " + traceback.format_exc().splitlines()[-3]
    finally:
        if d.uhid:
            d.uhid.destroy()
        client.close()
        if d.recorder and row.get("result") != "served":
            # what the kernel delivered, for a look
            d.recorder.write(os.path.join(LOGS, f"fleet-{entry['test_class']}.events"), "/dev/null")
    row.update(kind=d.dev["kind"] if d.dev else "-", pressure=pressure_text(d, entry), notes=d.notes,
               checks=d.checks, seconds=round(time.monotonic() - t0, 1),
               quirks=d.digitizer.quirks, node=d.touch.name if d.touch else None,
               stalls=d.pacer.stalls, nodes={n.node: [n.name] + [k for k, v in sorted(getattr(d, "udev", {}).get(
                   n.node, {}).items()) if k.startswith("ID_INPUT") and v == "1"] + [n.axes] for n in getattr(d, "nodes", [])})
    return row


def pressure_text(d, entry):
    if d.p is not None:
        f = d.force or d.dev or {}
        state = f.get("forceCapability", "?") + (f" ({f['forceUnavailable']})" if f.get("forceUnavailable") else
                                                 f" {f.get('maximumPossibleForce', 0):.2f}")
        return f"{d.p['min']}..{d.p['max']}: {state}"
    if entry["has_tip_pressure"]:
        return "pen only (not finger force): no-pressure"
    return "no-pressure"


def write_table(rows, path):
    served = sum(r["result"] == "served" for r in rows)
    kernel = sum(r["result"] == "kernel" for r in rows)
    lines = [f"{served} of {len(rows)} served; {kernel} the kernel cannot serve; "
             f"{len(rows) - served - kernel} failed", "",
             "| device | bus:vendor:product | kind | pressure | result | what differed, notes |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        ident = r["id"] + (" (generic)" if r["generic_id"] else "")
        text = "; ".join(([r["differs"]] if r.get("differs") else []) + r["notes"]) or "-"
        lines.append(f"| {r['device']} | {ident} | {r['kind']} | {r['pressure']} | {r['result']} | "
                     f"{text.replace('|', '/')} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return served, kernel


def s20_fleet(details):
    fleet = CFG.get("fleet") or {}
    path = fleet.get("descriptors")
    check(path and os.path.exists(path), f"no descriptors ({path}): ../shared/hid-descriptors is absent")
    with open(path) as f:
        entries = json.load(f)
    if fleet.get("only"):
        entries = [e for e in entries if e["test_class"] in fleet["only"]]
    env, took = start_udevd()
    daemon = None
    rows = []
    try:
        daemon = Daemon("fleet", [])
        wait_until(lambda: "through udev" in daemon.text(), 30, "pressured's discovery through udev")
        for e in entries:
            row = run_device(e, env, daemon)
            rows.append(row)
            log(f"  {row['device']}: {row['result']} ({row['seconds']} s){': ' + row['differs'] if row.get('differs') else ''}")
            check(daemon.p.poll() is None, f"pressured exited: {daemon.text()[-400:]}")
    finally:
        release(daemon)
        stop_udevd(env)
    served, kernel = write_table(rows, os.path.join(OUT, "fleet.md"))
    with open(os.path.join(OUT, "fleet.json"), "w") as f:
        json.dump(rows, f, indent=1)
    details.append(f"{served} of {len(rows)} devices served, {kernel} that the kernel cannot serve "
                   f"(table: {os.path.relpath(OUT, CFG['repo'])}/fleet.md)")
    for r in rows:
        if r["result"] != "served":
            details.append(f"{r['device']} ({r['id']}): {r['result']}: {r.get('differs')}")
    check(served + kernel == len(rows), f"{len(rows) - served - kernel} device(s) failed")
