"""Gestures as vmtest compares them, on the host (prepare.py) and in the guest alike: per contact, in order
of first appearance, the list of gesture types (time stamps differ through the kernel, contact numbers may
too)."""
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


def fmt(seqs):
    return " ".join("[" + ",".join(s) + "]" for s in seqs) or "(no gestures)"


def replayed(pressurectl, capture, desc=None):
    """`pressurectl replay`'s gestures for a capture as sequences, and its complaint (None when it read it)."""
    args = [pressurectl, "replay"] + (["--desc", desc] if desc else []) + [capture]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return sequences(json.loads(l) for l in r.stdout.splitlines() if l.strip()), None
