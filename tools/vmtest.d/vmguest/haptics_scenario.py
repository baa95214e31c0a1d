"""Scenario 21: haptic feedback through the kernel's force-feedback API. Two uinput vibrators (one that
refuses rumble, as a driver taking only some effect kinds does) beside a uinput touchscreen playing the
peek-pop fixture: each gesture that plays an effect plays it, in order, on both; the latency from the
frame that crossed the threshold to the play event, by kernel time stamps, printed as p50/p99; a region
that opted out (`"haptics":false`) plays none."""
import os

from .ff_vibrator import FF_PERIODIC, FF_RUMBLE, Vibrator
from .harness import CFG, RUN, Client, Daemon, Player, check, device_removed

HAPTIC_GESTURES = ("peek", "pop", "quickActions", "longPress")
# The haptics section: the vibrators by node (no udevd here), the default effects (peek 12 ms, pop 20 ms,
# quick actions and long press 15 ms), so an uploaded effect's length says whose it is.
EFFECT_MS = {12: "peek", 20: "pop", 15: "quickActions or longPress"}
RUNS = 6


def expected_plays(gestures):
    """What a run's gestures play: every haptic gesture, the peek of a frame that also popped left out."""
    out = []
    for g in gestures:
        if g["type"] not in HAPTIC_GESTURES:
            continue
        if g["type"] == "pop" and out and out[-1]["type"] == "peek" and out[-1]["time"] == g["time"] and \
                out[-1]["contact"] == g["contact"]:
            out[-1] = g
        else:
            out.append(g)
    return out


def name(v, effect_id):
    kind, length = v.uploads.get(effect_id, (None, None))
    return EFFECT_MS.get(length, f"effect {effect_id} ({length} ms)")


def matches(gesture, played):
    return played == gesture or (gesture in ("quickActions", "longPress") and played == "quickActions or longPress")


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def press(client, capture):
    """Plays the capture once on a fresh touchscreen; returns its device id and the gestures it gave."""
    start = client.mark()  # nodes are reused: only an arrival after this one counts
    player = Player("touch", capture)
    try:
        dev = client.wait_for(lambda e: e.get("type") == "device" and e.get("change") == "added" and
                              e["device"]["node"] == player.node, 30, "the touchscreen", after=start)["device"]["id"]
        mark = client.mark()
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        client.wait_for(device_removed(dev), 30, "the touchscreen's removal", after=mark)
        return [e for e in client.snapshot()[mark:] if e.get("device") == dev and "contact" in e and
                e.get("type") != "touch"]
    finally:
        player.stop()


def s21_haptics(details):
    vibrators = [Vibrator("vmtest vibrator"), Vibrator("vmtest picky vibrator", refuse=[FF_RUMBLE])]
    daemon = client = owner = None
    conf = os.path.join(RUN, "haptics.conf")
    with open(conf, "w") as f:
        f.write("[haptics]\nDevice = " + " ".join(v.node for v in vibrators) + "\n")
    try:
        daemon = Daemon("haptics", ["--config", conf], calibrated=True)
        client = Client(daemon.sock, ("gestures", "devices"))
        for v in vibrators:
            kinds = sorted({k for k, _ in v.uploads.values()})
            details.append(f"{v.node} \"{v.name}\": uploads {len(v.uploads)} effect(s) of type "
                           f"{', '.join(hex(k) for k in kinds)}; refused {', '.join(hex(k) for k in v.refused) or 'none'}")
        check(all(len(v.uploads) == 4 for v in vibrators), "not one effect per gesture uploaded")
        check({k for k, _ in vibrators[0].uploads.values()} == {FF_RUMBLE}, "the vibrator did not get rumble")
        check(vibrators[1].refused and {k for k, _ in vibrators[1].uploads.values()} == {FF_PERIODIC},
              "the picky vibrator did not fall back to periodic")
        fallback = [l for l in daemon.text().splitlines() if "haptics:" in l and "picky" in l]
        details.append("log: " + (fallback[0].split("haptics: ", 1)[-1] if fallback else "(no haptics line)"))
        latencies = []
        for run in range(RUNS):
            before = [len(v.played()) for v in vibrators]
            gestures = press(client, CFG["peek_pop"]["capture"])
            want = expected_plays(gestures)
            for v, b in zip(vibrators, before):
                got = v.played()[b:]
                check(len(got) == len(want) and all(matches(w["type"], name(v, i)) for w, (_, i) in zip(want, got)),
                      f"run {run + 1}, {v.name}: played {[name(v, i) for _, i in got]}, gestures "
                      f"{[w['type'] for w in want]}")
                latencies += [(t - w["time"]) * 1000 for w, (t, _) in zip(want, got)]
            if run == 0:
                details.append(f"a press: gestures {[g['type'] for g in gestures]}, plays on each vibrator "
                               f"{[name(vibrators[0], i) for _, i in vibrators[0].played()[before[0]:]]}")
        details.append(f"{len(latencies)} plays over {RUNS} runs, crossing frame to play event (kernel times): "
                       f"p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms, "
                       f"max {max(latencies):.2f} ms")
        # An app that plays its own: its region covers the screen and opts out.
        owner = Client(daemon.sock, ("gestures",), setup=lambda c: c.set_region(
            "everything", 0, 0, 5000, 5000, wants=["previews", "quickActions", "longPress"], haptics=False))
        before = [len(v.played()) for v in vibrators]
        press(client, CFG["peek_pop"]["capture"])
        owned = [e["type"] for e in owner.snapshot() if e.get("region") == "everything"]
        after = [len(v.played()) - b for v, b in zip(vibrators, before)]
        details.append(f"a region with \"haptics\":false: its owner got {owned}; plays {after}")
        check("pop" in owned and after == [0, 0], "the opted-out region played effects")
        check(daemon.p.poll() is None, "pressured exited")
    finally:
        for c in (owner, client):
            if c:
                c.close()
        if daemon:
            daemon.stop()
        for v in vibrators:
            v.close()
