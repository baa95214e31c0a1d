"""What the clients raise: the daemon's `error` answers, and the connection's end."""
from typing import Optional

from .types import ErrorMessage, Message


class PressuredError(Exception):
    """An `error` from the daemon: `code` is the wire code ("not-permitted", "too-many-clients", ...; codes
    this client does not know may come), `message` the daemon's words, `fatal` whether it closes the
    connection after it. The client's own findings (no `hello`, a line that is not JSON) use "protocol"."""

    def __init__(self, code: str, message: str, fatal: bool = False) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = fatal

    @classmethod
    def from_message(cls, error: Message) -> "PressuredError":
        """The exception for an `error` line (`{"type": "error", "error", "message", "fatal"?}`)."""
        return cls(str(error.get("error", "")), str(error.get("message", "")), bool(error.get("fatal", False)))


class ConnectionClosed(EOFError):
    """The connection ended before the answer (or the `hello`) came. `reason` says how, as the disconnect
    notice does (docs/protocol.md, "When the connection ends"): "bye" (the daemon stopped cleanly),
    "fatal" (it let the client go: `error` is the fatal `error` line it sent last, say `too-slow`) or
    "lost" (neither: the daemon was killed or the socket reset; whether it acted on the request first
    cannot be known)."""

    def __init__(self, error: Optional[ErrorMessage] = None, reason: Optional[str] = None) -> None:
        self.reason = reason if reason is not None else "fatal" if error else "lost"
        if error:
            why = f"pressured closed the connection after a fatal {error.get('error')}: {error.get('message', '')}"
        elif self.reason == "bye":
            why = "pressured stopped (it said bye) and closed the connection"
        else:
            why = ("the connection to pressured was lost without a bye (the daemon was killed or crashed, or "
                   "the socket reset): no answer will come, and whether the daemon acted on the request is "
                   "unknown")
        super().__init__(why)
        self.error = error
