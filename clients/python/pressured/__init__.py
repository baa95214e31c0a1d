"""A client for pressured, the Linux force touch daemon (docs/protocol.md): its gestures (peek, pop,
dismiss, quick actions, long press), touches and devices as events, regions and quick actions as requests.
Standard library only.

Blocking:

    import pressured

    with pressured.Client() as client:               # $PRESSURED_SOCKET, else /run/pressured/pressured.sock
        client.subscribe(events=["gestures"])
        for event in client.events():
            print(event["type"], event.get("x"), event.get("y"))

asyncio:

    async with pressured.AsyncClient() as client:
        await client.subscribe(events=["gestures"])
        async for event in client.events():
            ...

Messages are the dicts the JSON lines decode to; `pressured.types` describes them. Unknown keys are kept
and should be ignored: the protocol grows without a version change.
"""
from ._session import PROTOCOL_VERSION
from ._socket_path import DEFAULT_SOCKET, default_socket
from .aio import AsyncClient
from .client import Client, PressuredClient
from .errors import ConnectionClosed, PressuredError
from .types import Device, Event, Hello, Item, Settings

__version__ = "0.1.0"  # pyproject.toml's version, and the daemon's (pressuredVersion)

__all__ = [
    "AsyncClient", "Client", "ConnectionClosed", "DEFAULT_SOCKET", "Device", "Event", "Hello", "Item",
    "PROTOCOL_VERSION", "PressuredClient", "PressuredError", "Settings", "default_socket", "__version__",
]
