"""A client for pressured, the Linux force-touch daemon (standard library only, Python 3.7+).

    from pressured_client import PressuredClient

    with PressuredClient() as client:            # connects and reads the daemon's `hello`
        print(client.hello["devices"])
        client.subscribe(events=["gestures", "devices"])
        for event in client.events():            # dicts, one per JSON line (docs/protocol.md)
            if event["type"] == "peek":
                ...

Requests wait for their reply; events that arrive meanwhile are kept and come out of `events()` in order.
Unknown keys are ignored by design: the protocol may grow.
"""
import json
import os
import socket

DEFAULT_SOCKET = os.environ.get("PRESSURED_SOCKET", "/run/pressured/pressured.sock")
PROTOCOL_VERSION = 1


class PressuredError(Exception):
    """An `error` answer from the daemon (`code` is the wire code, e.g. "not-permitted")."""

    def __init__(self, code, message, fatal=False):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = fatal


class PressuredClient:
    def __init__(self, path=DEFAULT_SOCKET, timeout=None):
        self.path = path
        self.timeout = timeout
        self.hello = None
        self._sock = None
        self._buffer = b""
        self._queued = []
        self._next_id = 1

    def __enter__(self):
        self.connect()
        return self

    def __exit__(self, *exc):
        self.close()

    def connect(self):
        """Connects and returns the daemon's `hello` (devices and settings)."""
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(self.timeout)
        self._sock.connect(self.path)
        self.hello = self._read_message()
        if self.hello.get("type") == "error":  # turned away (too-many-clients): the daemon says why, then closes
            first, self.hello = self.hello, None
            raise PressuredError(first.get("error"), first.get("message", ""), first.get("fatal", False))
        if self.hello.get("type") != "hello":
            raise PressuredError("protocol", f"expected hello, got {self.hello.get('type')}")
        if self.hello.get("protocol") != PROTOCOL_VERSION:
            raise PressuredError("protocol", f"daemon speaks protocol {self.hello.get('protocol')}")
        return self.hello

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    # Requests -----------------------------------------------------------------------------------

    def request(self, name, **fields):
        """Sends one request and returns its `reply`; raises PressuredError on an `error` answer."""
        request_id = self._next_id
        self._next_id += 1
        message = {"request": name, "id": request_id}
        message.update({k: v for k, v in fields.items() if v is not None})
        self._sock.sendall(json.dumps(message).encode() + b"\n")
        while True:
            answer = self._read_message()
            if answer.get("id") == request_id and answer.get("type") in ("reply", "error"):
                if answer["type"] == "error":
                    raise PressuredError(answer.get("error"), answer.get("message", ""), answer.get("fatal", False))
                return answer
            self._queued.append(answer)

    def subscribe(self, events=("gestures",), devices=None, app=None):
        """Starts events: kinds from "gestures", "touches", "devices"; devices: ids, or None for all.
        `app` names this connection's app (its quick actions, and the actions chosen for it)."""
        return self.request("subscribe", events=list(events), devices=list(devices) if devices else None, app=app)

    def set_region(self, region, x, y, width, height, z=None, wants=None, app=None, items=None, haptics=None):
        """Registers (or replaces) a screen region; touches that begin in it are this connection's.
        wants: from "previews", "quickActions", "longPress"; items: [{"id", "title", "subtitle"?, "icon"?}];
        haptics=False: the daemon plays no haptic effect for its touches (the app plays its own)."""
        return self.request("setRegion", region=region, x=x, y=y, width=width, height=height, z=z,
                            wants=list(wants) if wants is not None else None, app=app, items=items,
                            haptics=haptics)

    def remove_region(self, region):
        return self.request("removeRegion", region=region)

    def set_quick_actions(self, items):
        """This app's dynamic quick actions (after subscribe(app=...)); the reply says what was cut."""
        return self.request("setQuickActions", items=items)

    def choose_action(self, app, action):
        """The user picked a quick action: the daemon delivers it to the app (now, or when it connects)."""
        return self.request("chooseAction", app=app, action=action)

    def devices(self):
        return self.request("devices")["devices"]

    def ping(self):
        return self.request("ping")["time"]

    def status(self):
        """What the daemon holds now: devices, clients, subscribers, contacts, regions, ... (a dict of counts)."""
        return self.request("status")["status"]

    def set(self, force_touch=None, sensitivity=None, haptics=None):
        """Control request (root, the daemon's user or the configuration's ControlGroup only): force touch
        on/off, light|medium|firm, the daemon's haptic effects on/off for everyone."""
        return self.request("set", forceTouch=force_touch, sensitivity=sensitivity, haptics=haptics)["settings"]

    # Events -------------------------------------------------------------------------------------

    def events(self):
        """Yields event dicts until the daemon says `bye` or closes the connection."""
        while True:
            if self._queued:
                event = self._queued.pop(0)
            else:
                try:
                    event = self._read_message()
                except EOFError:
                    return
            yield event
            if event.get("type") == "bye":
                return

    def _read_message(self):
        while b"\n" not in self._buffer:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise EOFError("pressured closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)
