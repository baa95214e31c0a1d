#!/usr/bin/env python3
"""The kiosk example with asyncio: a gesture's preview is drawn by a task of its own while the events go on.

    python3 clients/python/examples/async_kiosk_example.py [--socket PATH]

A real app would start an animation on `peek` and end it on `pop` or `dismiss`; here each preview is a
task that waits for the end of its press, and the loop that reads events never waits for it.
"""
import argparse
import asyncio

import pressured


async def preview(contact, ended):
    """Shows a preview until the press that opened it ends, then says how."""
    how = await ended
    print(f"contact {contact}: preview closed ({how})", flush=True)


async def main(socket_path):
    async with pressured.AsyncClient(socket_path) as client:
        for device in client.hello["devices"]:
            print(f"device {device['id']}: {device['name']}, force {device['forceCapability']}", flush=True)
        await client.subscribe(events=["gestures"])
        open_previews = {}  # contact -> the future its preview task waits for
        tasks = []
        async for event in client.events():
            kind = event["type"]
            if kind in ("peek", "pop", "dismiss", "longPress", "quickActions"):
                print(f"{event['time']:.6f} contact {event['contact']}: {kind} at ({event['x']}, {event['y']})",
                      flush=True)
            if kind == "peek":
                open_previews[event["contact"]] = asyncio.get_running_loop().create_future()
                tasks.append(asyncio.ensure_future(preview(event["contact"], open_previews[event["contact"]])))
            elif kind in ("pop", "dismiss") and event["contact"] in open_previews:
                open_previews.pop(event["contact"]).set_result("opened" if kind == "pop" else "dismissed")
            elif kind == "bye":
                print("pressured stopped", flush=True)
        await asyncio.gather(*tasks)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=pressured.default_socket())
    asyncio.run(main(parser.parse_args().socket))
