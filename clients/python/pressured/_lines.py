"""JSON lines, both ways (docs/protocol.md: one object a line, UTF-8, `\\n`-terminated). No I/O: the clients
read the bytes and hand them in, and write the bytes this makes."""
import json
from typing import Any, Dict, List

from .errors import PressuredError
from .types import Message


def encode(message: Dict[str, Any]) -> bytes:
    """One line: compact JSON and its newline."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class LineDecoder:
    """Cuts the bytes read into lines and decodes each; a line that is not a JSON object is a protocol
    error (the daemon never sends one), a blank line is passed over."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._scanned = 0  # bytes of `_buffer` known to hold no newline: a long line is scanned once

    def feed(self, data: bytes) -> List[Message]:
        """Takes `data` and returns the messages whose line it completed, in order."""
        self._buffer += data
        lines: List[bytes] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", max(start, self._scanned))
            if end < 0:
                break
            lines.append(bytes(self._buffer[start:end]))
            start = end + 1
        del self._buffer[:start]
        self._scanned = len(self._buffer)
        return [self._decode(line) for line in lines if line.strip()]

    @staticmethod
    def _decode(line: bytes) -> Message:
        try:
            message = json.loads(line)
        except ValueError as e:  # json.JSONDecodeError and UnicodeDecodeError alike
            raise PressuredError("protocol", f"the daemon sent a line that is not JSON ({e}): {line[:80]!r}") from None
        if not isinstance(message, dict):
            raise PressuredError("protocol", f"the daemon sent a line that is not an object: {line[:80]!r}")
        return message
