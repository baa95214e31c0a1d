#!/usr/bin/env python3
"""An example kiosk app: prints what a kiosk would do with pressured's gestures.

    python3 clients/python/examples/kiosk_example.py [--socket PATH]

With the package installed (`pip install ./clients/python`, or Debian's python3-pressured); tools/demo runs
it from the checkout with PYTHONPATH=clients/python. The socket defaults to $PRESSURED_SOCKET, else
/run/pressured/pressured.sock.

A real kiosk would show a preview on `peek`, open the item on `pop`, close the preview on `dismiss`, show
an item's actions on `quickActions`, and offer the same through `longPress` where force is unavailable. A
daemon killed mid-peek ends nothing itself: the client then makes the `dismiss` (`"synthesized": True`),
so the preview closes all the same, and says `disconnected` with the reason "lost".
"""
import argparse

import pressured

ACTIONS = {
    "peek": "show a preview",
    "pop": "open the item",
    "dismiss": "close the preview",
    "quickActions": "show the item's quick actions",
    "longPress": "show the item's menu (touch and hold)",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=pressured.default_socket())
    args = parser.parse_args()
    with pressured.Client(args.socket) as client:
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
                      f"at ({event['x']}, {event['y']}), force {event['force']:.2f} -> {ACTIONS[kind]}"
                      + (" (pressured is gone)" if event.get("synthesized") else ""), flush=True)
            elif kind == "device":
                d = event["device"]
                if force.get(d["id"]) != d["forceCapability"]:
                    hint = "force gestures on" if d["forceCapability"] == "available" else "use long press instead"
                    print(f"device {d['id']} {event['change']}: force {d['forceCapability']}: {hint}", flush=True)
                force[d["id"]] = d["forceCapability"]
            elif kind == "bye":
                print("pressured stopped", flush=True)
            elif kind == "disconnected" and event["reason"] != "bye":
                print(f"lost pressured ({event['reason']}): no bye", flush=True)


if __name__ == "__main__":
    main()
