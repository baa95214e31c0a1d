"""The peeks and contacts still open for a connection, so that a connection that ends without the daemon
ending them (it was killed: no `bye`) still ends each for the app (docs/protocol.md, "When the connection
ends"): a `dismiss` for each open peek, then a `cancelled` for each open contact, marked as synthesized."""
from typing import Any, Dict, List, Optional, Tuple

from .types import Message

# What a synthesized end copies from the last event of its contact, in the daemon's order.
_POINT = ("time", "device", "contact", "x", "y", "screenX", "screenY", "force", "maximumPossibleForce")

_Key = Tuple[Any, Any]


class OpenTouches:
    """Follows the events the client files: a peek is open from its `peek` to its `pop` or `dismiss`, a
    contact from its `began` to its `ended` or `cancelled`; each keeps the last event of its contact."""

    def __init__(self) -> None:
        self._peeks: Dict[_Key, Optional[str]] = {}  # the peek's `region`, in the order the peeks came
        self._contacts: Dict[_Key, None] = {}  # in the order the contacts began
        self._last: Dict[_Key, Message] = {}

    def saw(self, event: Message) -> None:
        """An event the daemon sent, in the order it came."""
        if "contact" not in event or "device" not in event:
            return
        key = (event["device"], event["contact"])
        kind = event.get("type")
        if kind == "peek":
            self._peeks[key] = event.get("region")
        elif kind in ("pop", "dismiss"):
            self._peeks.pop(key, None)
        elif kind == "touch" and event.get("phase") == "began":
            self._contacts[key] = None
        elif kind == "touch" and event.get("phase") in ("ended", "cancelled"):
            self._contacts.pop(key, None)
        if key in self._peeks or key in self._contacts:
            self._last[key] = event
        else:
            self._last.pop(key, None)

    def end_all(self) -> List[Message]:
        """The synthesized ends of everything still open, dismisses first; nothing is open afterwards."""
        ends: List[Message] = []
        for key, region in self._peeks.items():
            dismiss: Message = {"type": "dismiss", **self._point(key)}
            if region is not None:
                dismiss["region"] = region
            ends.append(dict(dismiss, synthesized=True))
        for key in self._contacts:
            ends.append({"type": "touch", "phase": "cancelled", **self._point(key), "synthesized": True})
        self._peeks.clear()
        self._contacts.clear()
        self._last.clear()
        return ends

    def _point(self, key: _Key) -> Message:
        last = self._last.get(key, {})
        return {name: last[name] for name in _POINT if name in last}
