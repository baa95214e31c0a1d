"""One connection's protocol state, without I/O, for the blocking and the asyncio client alike.

The clients read bytes when they need a message and hand them to `received`; the session files each line
it completes: the first is the `hello`, an answer (`reply` or `error`) carrying the id of a request still
waited for is kept for that request, and everything else is an event, queued in the order it came. So a
request can wait for its answer while events pile up behind it, and `events()` then gives them in order.

When the connection ends, however it ends, the session ends for the app what the daemon left open (a
`dismiss` for each peek, then a `cancelled` for each contact, each with `"synthesized": True`) and queues
the disconnect notice last: `{"type": "disconnected", "reason": "bye"|"fatal"|"lost", "synthesized": True}`
(docs/protocol.md, "When the connection ends"). Requests waiting then raise ConnectionClosed with the same
reason.
"""
import collections
from typing import Any, Deque, Dict, Optional, Set, Tuple, cast

from . import _lines
from ._open_touches import OpenTouches
from .errors import ConnectionClosed, PressuredError
from .types import Disconnected, ErrorMessage, Event, Hello, Message, Reply

PROTOCOL_VERSION = 1
"""The protocol this client speaks: a daemon that says another in its `hello` is refused."""

_ANSWERS = ("reply", "error")


class Session:
    """What one connection has received and still waits for. Not thread-safe (a client is used from one
    thread, or from one event loop)."""

    def __init__(self) -> None:
        self._decoder = _lines.LineDecoder()
        self._greeting: Optional[Message] = None
        self._greeted = False
        self._next_id = 1
        self._waiting: Set[int] = set()
        self._abandoned: Set[int] = set()  # given up (a cancelled asyncio request): their answers are dropped
        self._answers: Dict[int, Message] = {}
        self._events: Deque[Message] = collections.deque()
        self._open = OpenTouches()
        self.ended = False
        """The daemon closed the connection: nothing more will be received."""
        self._notice_taken = False
        self._bye = False
        self.fatal: Optional[ErrorMessage] = None
        """The last fatal `error` line received (the daemon closes the connection after it)."""

    # What the client sends ----------------------------------------------------------------------

    def request(self, name: str, fields: Dict[str, Any]) -> Tuple[int, bytes]:
        """A request line with a fresh id, the fields that are None left out; its answer is waited for
        from now on (`answer`). ConnectionClosed once the connection ended: nothing can answer."""
        if self.ended:
            raise self.closed()
        request_id = self._next_id
        self._next_id += 1
        message: Dict[str, Any] = {"request": name, "id": request_id}
        message.update((key, value) for key, value in fields.items() if value is not None)
        self._waiting.add(request_id)
        return request_id, _lines.encode(message)

    # What the client reads ----------------------------------------------------------------------

    def received(self, data: bytes) -> None:
        """Bytes read from the socket; `b""` is its end of file (or a reset: the same to a client). An
        unfinished last line is not a line: it is dropped with the connection."""
        if not data:
            if not self.ended:
                self.ended = True
                self._events.extend(self._open.end_all())
                notice: Disconnected = {"type": "disconnected", "reason": self.reason(), "synthesized": True}
                if self.fatal is not None:
                    notice["error"] = self.fatal
                self._events.append(notice)
            return
        for message in self._decoder.feed(data):
            self._file(message)

    def reason(self) -> str:
        """How the connection ended, or would have if it ended now: "bye" (a clean stop), "fatal" (the
        daemon let this client go) or "lost" (neither: the daemon was killed, the socket reset)."""
        return "fatal" if self.fatal is not None else "bye" if self._bye else "lost"

    def closed(self) -> ConnectionClosed:
        """The exception for a request the ended connection cannot answer."""
        return ConnectionClosed(self.fatal, reason=self.reason())

    def _file(self, message: Message) -> None:
        if not self._greeted:
            self._greeted = True
            self._greeting = message
        elif message.get("type") in _ANSWERS and message.get("id") in self._waiting:
            self._waiting.discard(message["id"])
            self._answers[message["id"]] = message
        elif message.get("type") in _ANSWERS and message.get("id") in self._abandoned:
            self._abandoned.discard(message["id"])
        else:
            self._open.saw(message)
            self._events.append(message)
        self._bye = self._bye or message.get("type") == "bye"
        if message.get("type") == "error" and message.get("fatal"):
            self.fatal = cast(ErrorMessage, message)

    # What the client asks for -------------------------------------------------------------------

    def hello(self) -> Optional[Hello]:
        """The daemon's `hello` once it came, None before. Raises PressuredError where the daemon turned
        the client away (`too-many-clients`: its first line is that error) or sent something else, and
        ConnectionClosed where it closed the connection first."""
        greeting = self._greeting
        if greeting is None:
            if self.ended:
                raise self.closed()
            return None
        if greeting.get("type") == "error":
            raise PressuredError.from_message(greeting)
        if greeting.get("type") != "hello":
            raise PressuredError("protocol", f"expected hello, got {greeting.get('type')!r}")
        if greeting.get("protocol") != PROTOCOL_VERSION:
            raise PressuredError("protocol", f"the daemon speaks protocol {greeting.get('protocol')!r}, "
                                             f"this client {PROTOCOL_VERSION}")
        return cast(Hello, greeting)

    def answer(self, request_id: int) -> Optional[Reply]:
        """The request's `reply` once it came, None before; raises PressuredError for an `error` answer and
        ConnectionClosed where the connection ended first."""
        answer = self._answers.pop(request_id, None)
        if answer is None:
            if self.ended:
                self._waiting.discard(request_id)
                raise self.closed()
            return None
        if answer.get("type") == "error":
            raise PressuredError.from_message(answer)
        return answer

    def abandon(self, request_id: int) -> None:
        """No one waits for this request's answer any more: it is dropped when it comes."""
        if request_id in self._waiting:
            self._waiting.discard(request_id)
            self._abandoned.add(request_id)
        self._answers.pop(request_id, None)

    def has_answer(self, request_id: int) -> bool:
        """Whether the request's answer came (or nothing more can come): `answer` will not return None."""
        return request_id in self._answers or self.ended

    def has_event(self) -> bool:
        """Whether an event waits (or nothing more can come): `next_event` is worth calling."""
        return bool(self._events) or self.ended

    def next_event(self) -> Optional[Event]:
        """The oldest event not yet taken, or None: the client reads more (unless `events_over`)."""
        if not self._events:
            return None
        event = self._events.popleft()
        self._notice_taken = self._notice_taken or (self.ended and not self._events)
        return cast(Event, event)

    def events_over(self) -> bool:
        """Whether `events()` is done: the connection ended and its disconnect notice, the last event, was
        taken."""
        return self._notice_taken
