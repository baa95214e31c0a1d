"""The shapes of pressured's messages (docs/protocol.md), as TypedDicts.

Messages stay the dicts `json.loads` makes, so these are for type checkers and readers only: nothing is
checked or converted at run time. Every message may carry keys not listed here (the protocol grows without
a version change; clients ignore what they do not know), and codes such as `forceUnavailable` or `change`
may take values not listed, so those are typed as `str`. Keys a message does not always carry are in a
`total=False` part of its type.
"""
from typing import Any, Dict, List, Literal, TypedDict, Union


class Axis(TypedDict):
    """A position axis of a device, in device units."""

    min: int
    max: int


class Screen(TypedDict):
    """Where a device's touches land: normalised coordinates through `matrix`, `rotation`, then pixels."""

    width: float
    height: float
    rotation: int
    matrix: List[float]


class _DeviceRequired(TypedDict):
    id: int
    name: str
    node: str
    kind: str  # "touchscreen" or "touchpad"
    forceCapability: str  # "available" or "unavailable"
    maximumPossibleForce: float
    x: Axis
    y: Axis
    screen: Screen


class Device(_DeviceRequired, total=False):
    """A device the daemon serves (`hello`, `devices`, `device` events)."""

    forceUnavailable: str  # where force is unavailable: "learning", "off", "no-pressure", ...
    width: float  # millimetres, where the axes have a resolution
    height: float
    assumed: List[str]


class Settings(TypedDict, total=False):
    """The daemon's public settings (`haptics` is absent from a daemon that predates haptics)."""

    forceTouch: bool
    sensitivity: str  # "light", "medium" or "firm"
    haptics: bool


class Hello(TypedDict):
    """The daemon's first line."""

    type: Literal["hello"]
    protocol: int
    version: str
    devices: List[Device]
    settings: Settings


class _ItemRequired(TypedDict):
    id: str
    title: str


class Item(_ItemRequired, total=False):
    """A quick action: `{"id", "title", "subtitle"?, "icon"?}`."""

    subtitle: str
    icon: str


class _PointRequired(TypedDict):
    time: float
    device: int
    contact: int
    x: int
    y: int
    screenX: float
    screenY: float
    force: float
    maximumPossibleForce: float


class _GestureRequired(_PointRequired):
    type: Literal["peek", "pop", "dismiss", "quickActions", "longPress"]


class Gesture(_GestureRequired, total=False):
    """`peek`, `pop`, `dismiss`, `quickActions` or `longPress`; `region` (and for an icon `app` and
    `items`) where the touch began in a region this connection registered. `synthesized`: a `dismiss` the
    client made for a peek still open when the connection ended (never on the wire)."""

    region: str
    app: str
    items: List[Item]
    synthesized: bool


class _TouchRequired(_PointRequired):
    type: Literal["touch"]
    phase: str  # "began", "moved", "ended" or "cancelled"


class Touch(_TouchRequired, total=False):
    """A touch event (subscribe with "touches"); `progress` towards the next threshold, 0...1. Touches never
    carry `region`, even in a region this connection registered: only gestures are tagged.
    `synthesized`: a `cancelled` the client made for a contact still open when the connection ended
    (never on the wire)."""

    progress: float
    synthesized: bool


class DeviceChange(TypedDict):
    """A device was `added`, `removed` or `changed` (its force capability)."""

    type: Literal["device"]
    change: str
    device: Device


class SettingsChange(TypedDict):
    """The settings changed (`set`, a reload)."""

    type: Literal["settings"]
    settings: Settings


class Action(TypedDict):
    """A quick action the user chose for this connection's app."""

    type: Literal["action"]
    app: str
    action: str


class _DroppedRequired(TypedDict):
    type: Literal["dropped"]
    touches: int
    contacts: List[Dict[str, Any]]


class Dropped(_DroppedRequired, total=False):
    """Touch `moved` events this client's full queue left out since the last notice."""

    truncated: bool


class Bye(TypedDict):
    """The daemon is stopping; the connection closes after it."""

    type: Literal["bye"]
    reason: str


class _ErrorRequired(TypedDict):
    type: Literal["error"]
    error: str
    message: str


class ErrorMessage(_ErrorRequired, total=False):
    """An `error` line. Those answering a request raise PressuredError instead; one without an id (a
    fatal error before the daemon closes the connection) comes out of `events()`."""

    id: Any
    fatal: bool


class _DisconnectedRequired(TypedDict):
    type: Literal["disconnected"]
    reason: str  # "bye", "fatal" or "lost"
    synthesized: bool


class Disconnected(_DisconnectedRequired, total=False):
    """The last event of a connection, made by the client, never a line of the protocol: how it ended,
    "bye" (a clean stop, after the `bye` event), "fatal" (the daemon let this client go: `error` is its
    fatal `error` line) or "lost" (neither: the daemon was killed or the socket reset; the peeks and
    contacts it left open were ended by synthesized events just before)."""

    error: ErrorMessage


CLIENT_MADE = ("disconnected",)
"""Event types the client makes itself, never a line the daemon sends."""

Event = Union[Gesture, Touch, DeviceChange, SettingsChange, Action, Dropped, Bye, ErrorMessage, Disconnected]
"""What `events()` yields: tell them apart by `type` (and accept types not listed: the protocol grows)."""

Message = Dict[str, Any]
"""Any line from the daemon, as decoded."""

Reply = Dict[str, Any]
"""A `reply` line: `{"type": "reply", "id", "request", ...}` with the request's own fields."""


class _ReplyBase(TypedDict):
    type: Literal["reply"]
    id: Any
    request: str


class SubscribeReply(_ReplyBase):
    """The subscription now in force; `devices` is "all" or a list of ids."""

    events: List[str]
    devices: Union[str, List[int]]


class RegionReply(_ReplyBase):
    """The region registered, the ids of its items kept and of those `cut`."""

    region: str
    items: List[str]
    cut: List[str]


class QuickActionsReply(_ReplyBase):
    """The ids of the app's icon's items as shown (static first) and of the dynamic ones `cut`."""

    app: str
    items: List[str]
    cut: List[str]


class ChooseActionReply(_ReplyBase):
    """`delivered`: false when the app is not connected (the choice waits for it)."""

    app: str
    action: str
    delivered: bool
