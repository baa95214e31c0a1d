#!/usr/bin/env python3
"""A launcher-and-app pair using regions and quick actions (run both with --demo, or each on its own).

The launcher draws app icons: it registers a region per icon that stands for the app. A firm press on an
icon makes pressured send the launcher a `quickActions` event with the app's items (static ones from the
configuration, then the ones the app registered); the launcher "draws" the menu, the user "picks" the
first item, and the launcher reports the choice. pressured delivers it to the app, holding it until the
app connects if the launcher had to start it.

    python3 clients/python/examples/launcher_example.py --socket PATH launcher
    python3 clients/python/examples/launcher_example.py --socket PATH app org.example.mail
"""
import argparse
import os
import subprocess
import sys

import pressured

# Icons in screen pixels (the demo screen is the demo panel's own units, 0..4095).
ICONS = [
    ("org.example.mail", 1000, 1800, 400, 400),
    ("org.example.camera", 2300, 2000, 400, 400),
]


def launcher(socket_path, start_apps):
    started = {}
    with pressured.Client(socket_path) as client:
        # Icons first, then subscribe: a replay starts at the first subscription, and no touch may miss them.
        for app, x, y, w, h in ICONS:
            client.set_region(f"icon:{app}", x, y, w, h, wants=["quickActions", "longPress"], app=app)
            print(f"launcher: icon {app} at ({x}, {y}) {w}x{h}", flush=True)
        client.subscribe(events=["gestures"])
        for event in client.events():
            if event["type"] == "quickActions" and "items" in event:
                app = event["app"]
                titles = ", ".join(item["title"] for item in event["items"]) or "(none)"
                print(f"launcher: menu for {app} at ({event['screenX']:.0f}, {event['screenY']:.0f}): {titles}",
                      flush=True)
                if event["items"]:
                    choice = event["items"][0]["id"]
                    answer = client.choose_action(app, choice)
                    print(f"launcher: chose {choice} for {app} (delivered now: {answer['delivered']})", flush=True)
                    if not answer["delivered"] and start_apps and app not in started:
                        print(f"launcher: starting {app}", flush=True)
                        started[app] = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                                         "--socket", socket_path, "app", app])
            elif event["type"] == "longPress" and "region" in event:
                print(f"launcher: long press on {event['region']}: jiggle the icons", flush=True)
            elif event["type"] == "bye":
                break
    for p in started.values():
        p.wait(timeout=10)


def app(socket_path, app_id):
    with pressured.Client(socket_path) as client:
        client.subscribe(events=["gestures"], app=app_id)
        answer = client.set_quick_actions([{"id": "recent", "title": "Recent", "subtitle": "last opened"}])
        print(f"{app_id}: quick actions on my icon: {', '.join(answer['items'])}", flush=True)
        for event in client.events():
            if event["type"] == "action":
                print(f"{app_id}: opening straight into '{event['action']}'", flush=True)
                return


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=pressured.default_socket())
    parser.add_argument("--no-start", action="store_true", help="launcher: do not start apps for choices")
    parser.add_argument("role", choices=["launcher", "app"])
    parser.add_argument("app_id", nargs="?", default="org.example.mail")
    args = parser.parse_args()
    if args.role == "launcher":
        launcher(args.socket, start_apps=not args.no_start)
    else:
        app(args.socket, args.app_id)


if __name__ == "__main__":
    main()
