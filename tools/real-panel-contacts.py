#!/usr/bin/env python3
"""Writes Tests/RealPanels/contacts.tsv: every contact of the shared touchscreen recordings with pressure
(../shared/captures), classified as ordinary, firm or excluded with the reason for each, and whether it is
held out of the sessions the thresholds were tuned on. The real-panel session tests
(Tests/PressureCoreTests/RealPanelSessionTests.swift) build their sessions from this list.

    python3 tools/real-panel-contacts.py [PRESSURECTL]

The classification is a person's reading of the recordings (docs/gestures.md, "Real panels"), written down
as rules so it can be checked and rerun:
- excluded: the contact never pressed (its peak is within 1% of the range above the minimum): there is
  nothing to learn from it and no gesture it could make;
- firm: FlatFrog's contacts 3 and 4 (859 and 879, 2.1-2.2x the ordinary median; the only deliberate firm
  presses in the recordings); no other recording holds one;
- ordinary: everything else, taps, drags and drawing strokes.
Every fourth ordinary contact of a device with at least eight of them is held out: the sessions tuned on
draw from the others, the held-out sessions check the numbers on contacts the tuning never saw.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CAPTURES = os.path.join(ROOT, "..", "shared", "captures")

# device label -> (files, --desc for header-less files)
DEVICES = [
    ("flatfrog", ["hiddev-flatfrog_25b5_0002_0.evemu"], None),
    ("asus-0486-0185", ["hiddev-asus-computers_0486_0185_0.evemu"], None),
    ("ideacom-6650", ["hiddev-ideacom_1cb6_6650_0.evemu"], None),
    ("ideacom-6651", ["hiddev-ideacom_1cb6_6651_0.evemu"], None),
    ("stantum", ["hiddev-stantum_1f87_0002_0.evemu"], None),
    ("nexus-4", ["xit-nexus4-touch_dev.events"], "xit-nexus4-touch_dev.desc"),
    ("galaxy-s", ["monkeyhelper-galaxy-paint-new.getevent.txt", "monkeyhelper-galaxys-paint.getevent.txt"], None),
    ("phone-protocol-a", ["monkeyhelper-phone-two-finger-drag.getevent.txt"], None),
    ("tf201", ["monkeyhelper-tablet-two-finger-drag.getevent.txt",
               "monkeyhelper-tablet-AngryBirdsMultipleLevels.getevent.txt"], None),
    ("elan-elants", ["lkml-elants-i2c-elan-touchscreen.evtest.txt"], None),
    ("remarkable-2", ["ghostwriter-remarkable2-pt_mt.evtest.txt"], None),
]
FIRM = {("hiddev-flatfrog_25b5_0002_0.evemu", 3): "ramps 51 to 859 within 400 ms while moving 13 mm",
        ("hiddev-flatfrog_25b5_0002_0.evemu", 4): "lands at 800 and drags 85 mm, peaking at 879"}
# Average 10 on every device: force * 10 is the raw pressure, exactly.
RAW = "[raw]\nMatchName = *\nPressureFloor = 0\nPressureAverage = 10\nPressureTop = 1000000\n"


def contacts(ctl, path, desc, devices):
    """Each contact of each device of the file, in the order they began: [(device, id, frames)]."""
    conf = "/tmp/real-panel-raw.conf"
    with open(conf, "w") as f:
        f.write(RAW)
    out = []
    for index in range(devices):
        args = [ctl, "replay", "--touches", "--config", conf, path] + (["--desc", desc] if desc else [])
        if devices > 1:
            args += ["--device", str(index)]
        lines = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
        frames = {}
        for line in lines:
            e = json.loads(line)
            if e["type"] == "touch":
                frames.setdefault(e["contact"], []).append((e["time"], e["x"], e["y"], round(e["force"] * 10)))
        out += [(index, c, frames[c]) for c in sorted(frames)]
    return out


def describe(frames, median, top, res):
    t0, x0, y0, _ = frames[0]
    duration = (frames[-1][0] - t0) * 1000
    travel = max(((x - x0) ** 2 + (y - y0) ** 2) ** 0.5 for _, x, y, _ in frames)
    peak = max(p for *_, p in frames)
    kind = "tap" if duration < 300 and travel < 40 else ("drag" if travel >= 40 else "hold")
    where = f"{travel / res:.0f} mm" if res else f"{travel:.0f} units"
    ratio = f"{peak / median:.2f}x the ordinary median {median:.0f}" if median else "no ordinary median"
    return f"{kind}: {duration:.0f} ms, travel {where}, peak {peak} ({100 * peak / top:.0f}% of the range, {ratio})"


def main():
    ctl = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=ROOT, text=True).strip(), "pressurectl")
    rows = ["# device\tfile\tdevice index\tcontact\tclass\theld out\treason"]
    for label, files, desc in DEVICES:
        entries = []
        for name in files:
            path = os.path.join(CAPTURES, name)
            devices = 2 if name.startswith("lkml-elants") else 1  # its two evtest sessions
            for index, contact, frames in contacts(ctl, path, desc and os.path.join(CAPTURES, desc), devices):
                entries.append((name, index, contact, frames))
        top = 31 if label == "stantum" else (1024 if label == "flatfrog" else 255)
        res = 16 if label == "flatfrog" else 0
        peaks = sorted(max(p for *_, p in f) for n, _, c, f in entries if (n, c) not in FIRM and max(p for *_, p in f) > 0.01 * top)
        median = peaks[(len(peaks) - 1) // 2] if peaks else 0
        ordinary = 0
        for name, index, contact, frames in entries:
            peak = max(p for *_, p in frames)
            reason = describe(frames, median, top, res)
            if (name, contact) in FIRM:
                cls, held = "firm", "-"
                reason = "firm: " + FIRM[(name, contact)] + "; " + reason
            elif peak <= 0.01 * top:
                cls, held = "excluded", "-"
                reason = "never pressed: " + reason
            else:
                cls = "ordinary"
                held = "yes" if len(peaks) >= 8 and ordinary % 4 == 3 else "no"
                ordinary += 1
            rows.append(f"{label}\t{name}\t{index}\t{contact}\t{cls}\t{held}\t{reason}")
    out = os.path.join(ROOT, "Tests", "RealPanels", "contacts.tsv")
    with open(out, "w") as f:
        f.write("\n".join(rows) + "\n")
    print("wrote", out, len(rows) - 1, "contacts")


if __name__ == "__main__":
    main()
