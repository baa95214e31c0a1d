#!/usr/bin/env python3
"""Generate a synthetic but realistic evemu 1.2 recording of a pressure touchscreen.

The output imitates what `evemu-record` writes for a multi-touch protocol B
touchscreen (as a FlatFrog 3200 panel's recording has it: 0..1024 pressure, ten slots):
a `# EVEMU 1.2` comment block describing the device, then `N:`, `I:`, `P:`,
`B:` and `A:` lines, the "Waiting for events" banner, and one
`E: <sec>.<usec> <type> <code> <value>\t# <comment>` line per event.

Device: ABS_MT_SLOT 0..9 (or more with --contacts > 10), ABS_MT_TRACKING_ID,
ABS_MT_POSITION_X/Y 0..4095 at 16 units/mm, ABS_MT_PRESSURE 0..1023, and the
kernel's single-touch emulation (BTN_TOUCH, ABS_X, ABS_Y, ABS_PRESSURE of the
oldest contact, as input_mt_report_pointer_emulation() does).

Events are emitted the way the kernel input core would pass them on: values
that did not change are filtered out, ABS_MT_SLOT appears only when the slot
changes, every frame ends with SYN_REPORT.

Each of the --contacts fingers repeatedly lands, follows one pressure profile
and lifts (new tracking id each time).  Profile mix (weights, per touch):

  light_tap      20%  0.3-0.8 s, peak 3-9% of range (never reaches 10%)
  press          25%  0.6-3.0 s, rises (overshoot of up to +4% of range that
                      decays within ~100-150 ms) and settles at 35-60%
  hard_press     15%  0.5-3.0 s, peak 92-100%, holds above 90% for a while
  noisy_rest     15%  1.0-3.0 s, rests at 20% +-3% (crosses a 20% threshold
                      back and forth: exercises per-contact latching)
  fast_hard_tap  10%  40-100 ms total, spikes to 92-100% and lifts within 100 ms
  swipe_up       15%  0.4-1.5 s, pressed at ~40% (+-2%), moves 15-40 mm upward

All touches except fast_hard_tap last 0.3-3 s.  Between touches a finger is
up for 20-400 ms.  The output is deterministic for a given --seed.

With the defaults (10 contacts, 1000 frames/s, 60 s) this writes about two
million events (~125 MB); the event count is printed to stderr.

Example:
    tools/gen-capture.py --seconds 5 --seed 7 -o /tmp/bench-small.evemu
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-capture.d"))
from evemu_text import (  # noqa: E402
    ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_PRESSURE, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_PRESSURE, ABS_X,
    ABS_Y, BTN_TOUCH, EV_ABS, EV_KEY, EV_SYN, P_MAX, POS_MAX, POS_RES, SYN_REPORT, TRKID_MAX, EventText, header)

PROFILES = [  # (name, weight)
    ("light_tap", 20), ("press", 25), ("hard_press", 15),
    ("noisy_rest", 15), ("fast_hard_tap", 10), ("swipe_up", 15),
]


class Touch:
    """One finger-down period: a pressure profile plus a trajectory."""

    __slots__ = ("profile", "tid", "n", "x", "y", "vx", "vy", "params",
                 "rng", "wander")

    def __init__(self, rng, tid, rate, profile):
        self.rng = rng
        self.tid = tid
        self.profile = profile
        self.wander = 0.0
        u = rng.uniform
        margin = 20 * POS_RES
        self.x = u(margin, POS_MAX - margin)
        self.y = u(margin, POS_MAX - margin)
        self.vx = self.vy = 0.0
        p = {}
        if profile == "light_tap":
            dur = u(0.3, 0.8)
            p.update(peak=u(0.03, 0.09), rise=u(0.03, 0.08), fall=u(0.03, 0.06),
                     noise=0.004, cap=0.099)
        elif profile == "press":
            dur = u(0.6, 3.0)
            p.update(peak=u(0.36, 0.59), over=u(0.0, 0.04), rise=u(0.06, 0.2),
                     fall=u(0.04, 0.12), noise=0.006)
        elif profile == "hard_press":
            dur = u(0.5, 3.0)
            p.update(peak=u(0.92, 1.0), rise=u(0.1, 0.3), fall=u(0.06, 0.15),
                     noise=0.006)
        elif profile == "noisy_rest":
            dur = u(1.0, 3.0)
            p.update(peak=0.20, rise=u(0.05, 0.1), fall=u(0.03, 0.08), noise=0.03)
        elif profile == "fast_hard_tap":
            dur = u(0.04, 0.1)
            p.update(peak=u(0.92, 1.0), spike=u(0.25, 0.45))
        else:  # swipe_up
            dur = u(0.4, 1.5)
            dist = u(15.0, 40.0) * POS_RES
            self.y = u(dist + margin, POS_MAX - margin)
            p.update(peak=u(0.38, 0.42), rise=u(0.05, 0.1), fall=u(0.04, 0.08),
                     noise=0.006, dist=dist, drift=u(-0.15, 0.15) * dist)
        self.n = max(2, int(dur * rate))
        # convert seconds to frames
        for k in ("rise", "fall"):
            if k in p:
                p[k] = max(1.0, p[k] * rate)
        if profile == "swipe_up":
            # move during the middle of the touch, after pressure settled
            start = p["rise"] * 1.5
            end = self.n - p["fall"] * 1.5
            if end - start < 4:
                start, end = 1, self.n - 1
            p["mstart"], p["mend"] = start, end
            p["vy"] = -p["dist"] / (end - start)
            p["vx"] = p["drift"] / (end - start)
        self.params = p

    def pressure(self, i):
        """Pressure (0..P_MAX, >=1 while touching) at frame i of the touch."""
        p = self.params
        rng = self.rng
        prof = self.profile
        n = self.n
        if prof == "fast_hard_tap":
            peak_at = max(1, int(n * p["spike"]))
            if i <= peak_at:
                f = p["peak"] * (i + 1) / (peak_at + 1)
            else:
                f = p["peak"] * math.exp(-3.0 * (i - peak_at) / (n - peak_at))
            f += rng.uniform(-0.004, 0.004)
        else:
            rise, fall, peak = p["rise"], p["fall"], p["peak"]
            if i < rise:
                e = 0.5 - 0.5 * math.cos(math.pi * (i + 1) / rise)
                env, level = e, peak
            elif i >= n - fall:
                e = (n - i) / fall
                env, level = e, peak
            else:
                env = 1.0
                level = peak
                if prof == "press":
                    # overshoot right after the rise, settling exponentially
                    level = peak + p["over"] * math.exp(-(i - rise) / (0.5 * rise + 30))
                elif prof == "hard_press":
                    level = peak - 0.02 * (1 - math.cos((i - rise) * 0.01))
            if prof == "noisy_rest":
                if env >= 1.0:
                    # slow wander plus fast noise, bounded to +-3% of range
                    self.wander = 0.98 * self.wander + rng.uniform(-0.004, 0.004)
                    f = level + self.wander + rng.uniform(-0.012, 0.012)
                    f = min(0.23, max(0.17, f))
                else:
                    f = level * env
            else:
                f = level * env + rng.uniform(-p["noise"], p["noise"]) * env
            if "cap" in p:
                f = min(f, p["cap"])
        v = int(f * P_MAX + 0.5)
        return 1 if v < 1 else (P_MAX if v > P_MAX else v)

    def move(self, i):
        """Advance and return the integer position at frame i."""
        rng = self.rng
        # finger tremor: small correlated random walk (~0.1 mm)
        self.vx = 0.9 * self.vx + rng.uniform(-0.06, 0.06)
        self.vy = 0.9 * self.vy + rng.uniform(-0.06, 0.06)
        self.x += self.vx
        self.y += self.vy
        if self.profile == "swipe_up":
            p = self.params
            if p["mstart"] <= i < p["mend"]:
                # ease-in/out speed profile along the swipe
                s = (i - p["mstart"]) / (p["mend"] - p["mstart"])
                k = 1.5 * (1 - (2 * s - 1) ** 2) * 1.0
                self.x += p["vx"] * k
                self.y += p["vy"] * k
        # sensor noise on the reported coordinate (+-2.5 units = 0.16 mm, triangular)
        x = int(self.x + (rng.random() + rng.random() - 1.0) * 2.5 + 0.5)
        y = int(self.y + (rng.random() + rng.random() - 1.0) * 2.5 + 0.5)
        x = 0 if x < 0 else (POS_MAX if x > POS_MAX else x)
        y = 0 if y < 0 else (POS_MAX if y > POS_MAX else y)
        return x, y


def generate(out, contacts, rate, seconds, seed, chunk_lines=1 << 16, comments=True):
    rng = random.Random(seed)
    n_slots = max(10, contacts)
    out.write(header("pressured synthetic pressure touchscreen", n_slots))
    et = EventText(comments)
    names = [n for n, _ in PROFILES]
    weights = [w for _, w in PROFILES]
    nframes = int(seconds * rate)
    us_per_frame = 1e6 / rate
    jitter = min(40.0, us_per_frame * 0.04)

    # per-slot state
    touch = [None] * contacts
    frame_in = [0] * contacts
    next_land = [int(rng.uniform(0.0, 0.5) * rate) for _ in range(contacts)]
    # last values the "kernel" passed on, per slot: tid, x, y, p
    last = [[-1, -1, -1, -1] for _ in range(n_slots)]
    cur_slot = 0
    next_tid = 0
    land_order = []                   # slots by landing order (oldest first)
    st_touch = 0
    st = [-1, -1, -1]                 # last ABS_X, ABS_Y, ABS_PRESSURE emitted
    st[2] = 0
    count = 0
    profile_count = dict.fromkeys(names, 0)
    buf = []
    append = buf.append
    write = out.write

    for f in range(nframes + 1):
        final = f == nframes  # last frame: lift everybody
        us = int(f * us_per_frame + rng.uniform(0.0, jitter))
        ts = "E: %d.%06d " % divmod(us, 1000000)
        nbuf = len(buf)
        # --- MT slots -------------------------------------------------------
        for s in range(contacts):
            t = touch[s]
            evs = None
            lv = last[s]
            if t is None:
                if final or f < next_land[s]:
                    continue
                prof = rng.choices(names, weights)[0]
                profile_count[prof] += 1
                t = touch[s] = Touch(rng, next_tid, rate, prof)
                next_tid = (next_tid + 1) & TRKID_MAX
                frame_in[s] = 0
                land_order.append(s)
                evs = [(ABS_MT_TRACKING_ID, t.tid)]
                lv[0] = t.tid
            i = frame_in[s]
            if final or i >= t.n:
                # lift
                evs = [(ABS_MT_TRACKING_ID, -1)]
                lv[0] = -1
                touch[s] = None
                land_order.remove(s)
                next_land[s] = f + max(1, int(rng.uniform(0.02, 0.4) * rate))
            else:
                x, y = t.move(i)
                pr = t.pressure(i)
                frame_in[s] = i + 1
                if evs is None:
                    evs = []
                if x != lv[1]:
                    evs.append((ABS_MT_POSITION_X, x))
                    lv[1] = x
                if y != lv[2]:
                    evs.append((ABS_MT_POSITION_Y, y))
                    lv[2] = y
                if pr != lv[3]:
                    evs.append((ABS_MT_PRESSURE, pr))
                    lv[3] = pr
            if evs:
                if s != cur_slot:
                    append(ts + et(EV_ABS, ABS_MT_SLOT, s))
                    cur_slot = s
                    count += 1
                for code, val in evs:
                    append(ts + et(EV_ABS, code, val))
                count += len(evs)
        # --- single-touch emulation (input_mt_report_pointer_emulation) -----
        down = 1 if land_order else 0
        if down != st_touch:
            append(ts + et(EV_KEY, BTN_TOUCH, down))
            st_touch = down
            count += 1
        if land_order:
            lv = last[land_order[0]]
            for k, code in ((0, ABS_X), (1, ABS_Y), (2, ABS_PRESSURE)):
                if lv[k + 1] != st[k]:
                    append(ts + et(EV_ABS, code, lv[k + 1]))
                    st[k] = lv[k + 1]
                    count += 1
        elif st[2] != 0:
            append(ts + et(EV_ABS, ABS_PRESSURE, 0))
            st[2] = 0
            count += 1
        if len(buf) == nbuf:
            continue  # the input core drops empty frames
        append(ts + et(EV_SYN, SYN_REPORT, 0))
        count += 1
        if len(buf) >= chunk_lines:
            write("".join(buf))
            buf.clear()
    if buf:
        write("".join(buf))
    return count, profile_count


def main():
    ap = argparse.ArgumentParser(
        description="Write a synthetic evemu 1.2 recording of a pressure "
                    "touchscreen (multi-touch protocol B).",
        epilog="Profiles: " + ", ".join("%s %d%%" % pw for pw in PROFILES))
    ap.add_argument("--contacts", type=int, default=10,
                    help="number of fingers/slots in use (default 10)")
    ap.add_argument("--rate", type=float, default=1000.0,
                    help="frames per second (default 1000)")
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="length of the recording (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--no-comments", action="store_true",
                    help="E: lines without the `# EV_ABS / …` comment evemu-record "
                         "adds (half the size: 28 bytes an event)")
    ap.add_argument("-o", "--output", default="-",
                    help="output file (default stdout)")
    a = ap.parse_args()
    if a.contacts < 1 or a.rate <= 0 or a.seconds <= 0:
        ap.error("--contacts, --rate and --seconds must be positive")

    t0 = time.monotonic()
    if a.output == "-":
        count, mix = generate(sys.stdout, a.contacts, a.rate, a.seconds, a.seed,
                              comments=not a.no_comments)
        sys.stdout.flush()
    else:
        with open(a.output, "w", buffering=1 << 20) as fp:
            count, mix = generate(fp, a.contacts, a.rate, a.seconds, a.seed,
                                  comments=not a.no_comments)
    dt = time.monotonic() - t0
    print("events=%d touches=%d (%s) seconds=%.1f" % (
        count, sum(mix.values()),
        " ".join("%s=%d" % kv for kv in mix.items()), dt), file=sys.stderr)


if __name__ == "__main__":
    main()
