"""Gestures and force changes as vmtest compares them, on the host (prepare.py) and in the guest alike: per
contact, in order of first appearance, the list of gesture types (time stamps differ through the kernel,
contact numbers may too), and the device's force changes (`device changed`: what learning, a setting or a
reset made of its force capability)."""
import json
import subprocess

GESTURES = ("peek", "pop", "dismiss", "quickActions", "longPress")


def sequences(events, device=None):
    """Per contact (in order of first appearance) the list of gesture types; only `device`'s if given."""
    order, seqs = [], {}
    for e in events:
        if e.get("type") in GESTURES and (device is None or e.get("device") == device):
            k = (e.get("device"), e["contact"])
            if k not in seqs:
                order.append(k)
                seqs[k] = []
            seqs[k].append(e["type"])
    return [seqs[k] for k in order]


def force_changes(events, device=None):
    """The `device changed` events (of `device`'s id if given) as `available 4.0118` or
    `unavailable (learning) 0.0000`: what both a client and `pressurectl replay` get (a client gets them
    whatever it subscribed to; replay prints the device's, and no `added`)."""
    out = []
    for e in events:
        if e.get("type") == "device" and e.get("change") == "changed":
            d = e["device"]
            if device is None or d["id"] == device:
                why = f" ({d['forceUnavailable']})" if "forceUnavailable" in d else ""
                out.append(f"{d['forceCapability']}{why} {d['maximumPossibleForce']:.4f}")
    return out


def fmt(seqs):
    return " ".join("[" + ",".join(s) + "]" for s in seqs) or "(no gestures)"


def fmt_force(changes):
    return ", ".join(changes) or "(no force change)"


def fmt_outcome(seqs, force):
    """Gestures and force changes, as the scenarios show them."""
    return f"{fmt(seqs)}; force: {fmt_force(force)}"


def replay_events(pressurectl, capture, desc=None, config=None):
    """`pressurectl replay`'s events for a capture (from fresh, or with the configuration file `config`), and
    its complaint (None when it read it)."""
    args = [pressurectl, "replay"] + (["--desc", desc] if desc else []) + (["--config", config] if config else [])
    r = subprocess.run(args + [capture], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return [json.loads(l) for l in r.stdout.splitlines() if l.strip()], None


def replayed(pressurectl, capture, desc=None, config=None):
    """`pressurectl replay`'s gestures for a capture as sequences, and its complaint (None when it read it)."""
    events, refused = replay_events(pressurectl, capture, desc, config)
    return (None, refused) if events is None else (sequences(events), None)
