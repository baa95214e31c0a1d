"""The blocking client: a socket, one request at a time, events from a generator."""
import socket
from types import TracebackType
from typing import Any, Dict, Iterable, Iterator, List, Optional, Type, TypeVar

from . import _calls
from ._session import Session
from ._socket_path import default_socket
from .types import (ChooseActionReply, Device, Event, Hello, Item, QuickActionsReply, RegionReply, Reply,
                    Settings, SubscribeReply)

T = TypeVar("T")

# What one read asks the kernel for: a hello with many devices takes a few reads, an event fits in one.
READ_SIZE = 65536


class Client:
    """A connection to pressured (docs/protocol.md), used from one thread.

        with pressured.Client() as client:          # connects and reads the daemon's `hello`
            print(client.hello["devices"])
            client.subscribe(events=["gestures", "devices"])
            for event in client.events():           # dicts, one a JSON line, until `bye`
                if event["type"] == "peek":
                    ...

    Each request waits for its own answer (by id); events that come meanwhile are kept and come out of
    `events()` in order, so requests may be made from inside the `for` loop. Messages are dicts: keys this
    client does not know are kept as they came, and the shapes in `pressured.types` list those it does.

    `path`: the socket, default $PRESSURED_SOCKET, else /run/pressured/pressured.sock. `timeout`: seconds
    a read or write may block before `socket.timeout` (TimeoutError) is raised; None waits for ever.
    """

    def __init__(self, path: Optional[str] = None, timeout: Optional[float] = None) -> None:
        self.path = path if path is not None else default_socket()
        self.timeout = timeout
        self.hello: Optional[Hello] = None
        """The daemon's `hello` (devices and settings), once connected."""
        self._sock: Optional[socket.socket] = None
        self._session = Session()

    def __enter__(self) -> "Client":
        self.connect()
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()

    def connect(self) -> Hello:
        """Connects and returns the daemon's `hello`. Raises PressuredError where the daemon turns the
        client away (`too-many-clients`, fatal) and OSError where nothing serves the socket."""
        self.close()
        self._session = Session()
        self.hello = None
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.settimeout(self.timeout)
            self._sock.connect(self.path)
            hello = self._session.hello()
            while hello is None:
                self._receive()
                hello = self._session.hello()
        except BaseException:
            self.close()
            raise
        self.hello = hello
        return hello

    def close(self) -> None:
        """Closes the connection (the daemon forgets this client's regions and subscription)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _connected(self) -> socket.socket:
        if self._sock is None:
            raise RuntimeError("the client is not connected: call connect() or use it in a `with`")
        return self._sock

    def _receive(self) -> None:
        sock = self._connected()
        try:
            data = sock.recv(READ_SIZE)
        except ConnectionResetError:  # the daemon closed with our request unread: an end all the same
            data = b""
        self._session.received(data)

    # Requests -----------------------------------------------------------------------------------

    def request(self, name: str, **fields: Any) -> Reply:
        """Sends one request (fields that are None left out) and returns its `reply`. Raises PressuredError
        for an `error` answer, ConnectionClosed where the daemon closed the connection first."""
        request_id, line = self._session.request(name, fields)
        try:
            try:
                self._connected().sendall(line)
            except (BrokenPipeError, ConnectionResetError):
                # The daemon has gone; what it sent before going stays readable for events().
                raise self._session.closed() from None
            answer = self._session.answer(request_id)
            while answer is None:
                self._receive()
                answer = self._session.answer(request_id)
            return answer
        finally:
            self._session.abandon(request_id)  # nothing once answered; after a timeout, the late answer goes

    def call(self, call: "_calls.Call[T]") -> T:
        """Sends a request the methods below build, and returns what the method returns."""
        return call.result(self.request(call.request, **call.fields))

    def subscribe(self, events: Iterable[str] = ("gestures",), devices: Optional[Iterable[int]] = None,
                  app: Optional[str] = None) -> SubscribeReply:
        """Starts (or replaces) the subscription: `events` from "gestures", "touches", "devices"; `devices`
        their ids, None for all (and those that come later); `app` names this connection's app (its
        quick actions, the actions chosen for it)."""
        return self.call(_calls.subscribe(events, devices, app))

    def set_region(self, region: str, x: float, y: float, width: float, height: float, z: Optional[int] = None,
                   wants: Optional[Iterable[str]] = None, app: Optional[str] = None,
                   items: Optional[Iterable[Item]] = None, haptics: Optional[bool] = None) -> RegionReply:
        """Registers (or replaces) a screen region, in pixels; touches that begin in it are this
        connection's. `wants` from "previews", "quickActions", "longPress"; `app`: the region is that
        app's icon; `items`: its own quick actions; `haptics=False`: the daemon plays no effect for its
        touches (the app plays its own)."""
        return self.call(_calls.set_region(region, x, y, width, height, z, wants, app, items, haptics))

    def remove_region(self, region: str) -> Reply:
        """Removes one of this connection's regions (PressuredError `invalid-argument` for an unknown id)."""
        return self.call(_calls.remove_region(region))

    def set_quick_actions(self, items: Iterable[Item]) -> QuickActionsReply:
        """This app's dynamic quick actions (after `subscribe(app=...)`); the reply says what was cut."""
        return self.call(_calls.set_quick_actions(items))

    def choose_action(self, app: str, action: str) -> ChooseActionReply:
        """The user chose a quick action: the daemon delivers it to the app, now (`delivered`) or when it
        connects."""
        return self.call(_calls.choose_action(app, action))

    def devices(self) -> List[Device]:
        """The devices the daemon serves."""
        return self.call(_calls.devices())

    def ping(self) -> float:
        """The daemon's CLOCK_MONOTONIC in seconds, the clock of live devices' event `time`."""
        return self.call(_calls.ping())

    def status(self) -> Dict[str, Any]:
        """Counts of what the daemon holds now: devices, clients, subscribers, contacts, regions, ..."""
        return self.call(_calls.status())

    def set(self, force_touch: Optional[bool] = None, sensitivity: Optional[str] = None,
            haptics: Optional[bool] = None) -> Settings:
        """Control: force touch on or off, "light"|"medium"|"firm", the daemon's haptic effects on or off
        for everyone; returns the settings now in force (root, the daemon's user, ControlGroup only)."""
        return self.call(_calls.set_settings(force_touch, sensitivity, haptics))

    def reload(self) -> Settings:
        """Control: reads the configuration again, as SIGHUP does; returns the settings now in force."""
        return self.call(_calls.reload())

    def reset_learning(self, device: Optional[int] = None) -> List[int]:
        """Control: the device (default every one) forgets its learned average touch; returns the ids reset."""
        return self.call(_calls.reset_learning(device))

    # Events -------------------------------------------------------------------------------------

    def events(self) -> Iterator[Event]:
        """Yields events, those kept while requests waited first, until the connection ends: then the ends of
        the peeks and contacts the daemon left open (`"synthesized": True`), and last the disconnect
        notice, `{"type": "disconnected", "reason": "bye"|"fatal"|"lost", "synthesized": True}`
        (docs/protocol.md, "When the connection ends"). After a `bye` it reads on to the daemon's end of
        file, which follows at once."""
        while not self._session.events_over():
            event = self._session.next_event()
            if event is None:
                self._receive()
            else:
                yield event


PressuredClient = Client
"""The name the client had as tools/python/pressured_client.py."""
