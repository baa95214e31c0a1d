#!/usr/bin/env python3
"""An example kiosk app: prints what a kiosk would do with pressured's gestures.

    python3 tools/python/kiosk_example.py [--socket PATH]

A real kiosk would show a preview on `peek`, open the item on `pop`, close the preview on `dismiss`, show
an item's actions on `quickActions`, and offer the same through `longPress` where force is unavailable.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pressured_client import DEFAULT_SOCKET, PressuredClient  # noqa: E402

ACTIONS = {
    "peek": "show a preview",
    "pop": "open the item",
    "dismiss": "close the preview",
    "quickActions": "show the item's quick actions",
    "longPress": "show the item's menu (touch and hold)",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=DEFAULT_SOCKET)
    args = parser.parse_args()
    with PressuredClient(args.socket) as client:
        force = {d["id"]: d["forceCapability"] for d in client.hello["devices"]}
        for device in client.hello["devices"]:
            why = {"learning": " (learning the panel's average touch: long press until then)"}.get(
                device.get("forceUnavailable"), f" ({device['forceUnavailable']})" if "forceUnavailable" in device else "")
            print(f"device {device['id']}: {device['name']} ({device['kind']}), force {device['forceCapability']}{why}")
        client.subscribe(events=["gestures", "devices"])
        for event in client.events():
            kind = event["type"]
            if kind in ACTIONS:
                print(f"{event['time']:.6f} device {event['device']} contact {event['contact']}: {kind} "
                      f"at ({event['x']}, {event['y']}), force {event['force']:.2f} -> {ACTIONS[kind]}", flush=True)
            elif kind == "device":
                d = event["device"]
                if force.get(d["id"]) != d["forceCapability"]:
                    hint = "force gestures on" if d["forceCapability"] == "available" else "use long press instead"
                    print(f"device {d['id']} {event['change']}: force {d['forceCapability']}: {hint}", flush=True)
                force[d["id"]] = d["forceCapability"]
            elif kind == "bye":
                print("pressured stopped", flush=True)


if __name__ == "__main__":
    main()
