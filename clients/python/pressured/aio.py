"""The asyncio client: the blocking client's requests and events, awaited."""
import asyncio
from types import TracebackType
from typing import Any, AsyncIterator, Callable, Dict, Iterable, List, Optional, Type, TypeVar

from . import _calls
from ._session import Session
from ._socket_path import default_socket
from .client import READ_SIZE
from .types import (ChooseActionReply, Device, Event, Hello, Item, QuickActionsReply, RegionReply, Reply,
                    Settings, SubscribeReply)

T = TypeVar("T")


class AsyncClient:
    """A connection to pressured for asyncio programs, with the semantics of `pressured.Client`.

        async with pressured.AsyncClient() as client:
            await client.subscribe(events=["gestures"])
            async for event in client.events():
                if event["type"] == "pop":
                    ...

    Each request awaits its own answer (by id) while the events that come meanwhile are kept in order for
    `events()`. Several tasks may share one client (one iterating `events()`, others making requests):
    one of them reads at a time, and files every line it reads for whoever waits for it. A request
    cancelled while it waits (`asyncio.wait_for`, `asyncio.timeout`) drops its answer when it comes.
    The methods are those of `Client`: see their documentation there.
    """

    def __init__(self, path: Optional[str] = None) -> None:
        self.path = path if path is not None else default_socket()
        self.hello: Optional[Hello] = None
        """The daemon's `hello` (devices and settings), once connected."""
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._session = Session()
        self._reading: Optional[asyncio.Lock] = None  # made in connect(): on the loop that uses it
        self._writing: Optional[asyncio.Lock] = None  # drain() may not be awaited twice at once (3.9)

    async def __aenter__(self) -> "AsyncClient":
        await self.connect()
        return self

    async def __aexit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                        traceback: Optional[TracebackType]) -> None:
        await self.close()

    async def connect(self) -> Hello:
        """Connects and returns the daemon's `hello`; raises as `Client.connect` does."""
        await self.close()
        self._session = Session()
        self.hello = None
        self._reading, self._writing = asyncio.Lock(), asyncio.Lock()
        self._reader, self._writer = await asyncio.open_unix_connection(self.path)
        try:
            hello = self._session.hello()
            while hello is None:
                await self._receive(lambda: False)
                hello = self._session.hello()
        except BaseException:
            await self.close()
            raise
        self.hello = hello
        return hello

    async def close(self) -> None:
        """Closes the connection (the daemon forgets this client's regions and subscription)."""
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:  # the daemon went first (a reset): closed all the same
                pass

    async def _receive(self, done: Callable[[], bool]) -> None:
        """Reads once, unless `done()` holds by the time this task's turn to read comes (another task's read
        may have brought what it waits for)."""
        reader, reading = self._reader, self._reading
        if reader is None or reading is None:
            raise RuntimeError("the client is not connected: await connect() or use it in an `async with`")
        async with reading:
            if not done() and not self._session.ended:
                try:
                    data = await reader.read(READ_SIZE)
                except ConnectionResetError:  # the daemon closed with our request unread: an end all the same
                    data = b""
                self._session.received(data)

    # Requests -----------------------------------------------------------------------------------

    async def request(self, name: str, **fields: Any) -> Reply:
        """Sends one request and returns its `reply`; raises as `Client.request` does."""
        if self._writer is None or self._writing is None:
            raise RuntimeError("the client is not connected: await connect() or use it in an `async with`")
        request_id, line = self._session.request(name, fields)
        try:
            async with self._writing:
                try:
                    self._writer.write(line)
                    await self._writer.drain()
                except (BrokenPipeError, ConnectionResetError):
                    # The daemon has gone; what it sent before going stays readable for events().
                    raise self._session.closed() from None
            answer = self._session.answer(request_id)
            while answer is None:
                await self._receive(lambda: self._session.has_answer(request_id))
                answer = self._session.answer(request_id)
            return answer
        finally:
            self._session.abandon(request_id)  # nothing once answered; if cancelled, the late answer goes

    async def call(self, call: "_calls.Call[T]") -> T:
        """Sends a request the methods below build, and returns what the method returns."""
        return call.result(await self.request(call.request, **call.fields))

    async def subscribe(self, events: Iterable[str] = ("gestures",), devices: Optional[Iterable[int]] = None,
                        app: Optional[str] = None) -> SubscribeReply:
        """As `Client.subscribe`."""
        return await self.call(_calls.subscribe(events, devices, app))

    async def set_region(self, region: str, x: float, y: float, width: float, height: float,
                         z: Optional[int] = None, wants: Optional[Iterable[str]] = None, app: Optional[str] = None,
                         items: Optional[Iterable[Item]] = None, haptics: Optional[bool] = None) -> RegionReply:
        """As `Client.set_region`."""
        return await self.call(_calls.set_region(region, x, y, width, height, z, wants, app, items, haptics))

    async def remove_region(self, region: str) -> Reply:
        """As `Client.remove_region`."""
        return await self.call(_calls.remove_region(region))

    async def set_quick_actions(self, items: Iterable[Item]) -> QuickActionsReply:
        """As `Client.set_quick_actions`."""
        return await self.call(_calls.set_quick_actions(items))

    async def choose_action(self, app: str, action: str) -> ChooseActionReply:
        """As `Client.choose_action`."""
        return await self.call(_calls.choose_action(app, action))

    async def devices(self) -> List[Device]:
        """As `Client.devices`."""
        return await self.call(_calls.devices())

    async def ping(self) -> float:
        """As `Client.ping`."""
        return await self.call(_calls.ping())

    async def status(self) -> Dict[str, Any]:
        """As `Client.status`."""
        return await self.call(_calls.status())

    async def set(self, force_touch: Optional[bool] = None, sensitivity: Optional[str] = None,
                  haptics: Optional[bool] = None) -> Settings:
        """As `Client.set` (control)."""
        return await self.call(_calls.set_settings(force_touch, sensitivity, haptics))

    async def reload(self) -> Settings:
        """As `Client.reload` (control)."""
        return await self.call(_calls.reload())

    async def reset_learning(self, device: Optional[int] = None) -> List[int]:
        """As `Client.reset_learning` (control)."""
        return await self.call(_calls.reset_learning(device))

    # Events -------------------------------------------------------------------------------------

    async def events(self) -> AsyncIterator[Event]:
        """Yields events as `Client.events` does, to the disconnect notice."""
        while not self._session.events_over():
            event = self._session.next_event()
            if event is None:
                await self._receive(self._session.has_event)
            else:
                yield event
