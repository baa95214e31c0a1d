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
    """The daemon closed the connection before the answer (or the `hello`) came. `error` is the fatal
    `error` line it sent last, if any (say `too-slow`): why it let the client go."""

    def __init__(self, error: Optional[ErrorMessage] = None) -> None:
        why = f" after a fatal {error.get('error')}: {error.get('message', '')}" if error else ""
        super().__init__(f"pressured closed the connection{why}")
        self.error = error
