"""The requests the clients' methods make, written once: each function turns a method's arguments into
the request's name and fields (the wire's names; None is left out) and says what of the reply the
method returns. `Client` and `AsyncClient` only send them (docs/protocol.md, "Requests")."""
from dataclasses import dataclass
from typing import Any, Callable, Dict, Generic, Iterable, List, Optional, TypeVar

from .types import (ChooseActionReply, Device, Item, QuickActionsReply, RegionReply, Reply, Settings,
                    SubscribeReply)

T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    """A request to send and what the method makes of its reply."""

    request: str
    fields: Dict[str, Any]
    result: Callable[[Reply], T]


def _whole(reply: Reply) -> Any:
    """The reply itself, for the requests whose method returns it all."""
    return reply


def _listed(values: Optional[Iterable[Any]]) -> Optional[List[Any]]:
    return list(values) if values is not None else None


def subscribe(events: Iterable[str], devices: Optional[Iterable[int]], app: Optional[str]) -> "Call[SubscribeReply]":
    # An empty `devices` means all of them, as None does: the wire has no "none".
    return Call("subscribe", {"events": list(events), "devices": list(devices) if devices else None, "app": app},
                _whole)


def set_region(region: str, x: float, y: float, width: float, height: float, z: Optional[int],
               wants: Optional[Iterable[str]], app: Optional[str], items: Optional[Iterable[Item]],
               haptics: Optional[bool]) -> "Call[RegionReply]":
    return Call("setRegion", {"region": region, "x": x, "y": y, "width": width, "height": height, "z": z,
                              "wants": _listed(wants), "app": app, "items": _listed(items), "haptics": haptics}, _whole)


def remove_region(region: str) -> "Call[Reply]":
    return Call("removeRegion", {"region": region}, _whole)


def set_quick_actions(items: Iterable[Item]) -> "Call[QuickActionsReply]":
    return Call("setQuickActions", {"items": list(items)}, _whole)


def choose_action(app: str, action: str) -> "Call[ChooseActionReply]":
    return Call("chooseAction", {"app": app, "action": action}, _whole)


def devices() -> "Call[List[Device]]":
    return Call("devices", {}, lambda reply: reply["devices"])


def ping() -> "Call[float]":
    return Call("ping", {}, lambda reply: float(reply["time"]))


def status() -> "Call[Dict[str, Any]]":
    return Call("status", {}, lambda reply: reply["status"])


def set_settings(force_touch: Optional[bool], sensitivity: Optional[str], haptics: Optional[bool]) -> "Call[Settings]":
    return Call("set", {"forceTouch": force_touch, "sensitivity": sensitivity, "haptics": haptics},
                lambda reply: reply["settings"])


def reload() -> "Call[Settings]":
    return Call("reload", {}, lambda reply: reply["settings"])


def reset_learning(device: Optional[int]) -> "Call[List[int]]":
    return Call("resetLearning", {"device": device}, lambda reply: reply["devices"])
