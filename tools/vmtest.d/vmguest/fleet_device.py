"""One device of the fleet (scenario 20): made through uhid from its real report descriptor, bound by
hid-multitouch, found by pressured through udev, then touched by a script of frames built from the
descriptor, with pressured's events checked after each part and the kernel's own stream kept beside them
(evdev_node.kernel_contacts) to say who a difference comes from."""
import time

from . import evdev_node as ev
from .hid_descriptor import Descriptor
from .hid_touch import Contact, Q_TOUCH_SIZE_SCALING, TouchDigitizer, quirk_names
from .harness import Failure, NodeRecorder, PressuredClient, udev_properties, wait_until
from .uhid import BUS, Pacer, UhidDevice

GENERIC_USB = (0x03, 0x0001, 0x0002)  # what the kernel's tests give a device they name no identity for
FRAME = 0.010  # seconds between reports while a finger is down: 100 Hz, as the Windows 8 specification asks
ORDINARY = 0.40  # an ordinary touch's pressure, as a fraction of the range
LEARNING_PEAKS = (0.40, 0.45, 0.35, 0.42, 0.38, 0.44, 0.36, 0.41)
LEARNING_MS = (50, 70, 40, 60, 80, 45, 65, 55)
MT_TOOL_DIAL = 10
PALM_MM = 25.0  # pressured's default PalmSizeMm
PEN_KEYS = {0x140, 0x141, 0x14B, 0x14C}  # BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_STYLUS, BTN_STYLUS2: a pen's node


class KernelDiffers(Failure):
    """The kernel itself did not deliver what the device sent: not pressured's doing."""


def is_touch(props):
    return props.get("ID_INPUT_TOUCHSCREEN") == "1" or props.get("ID_INPUT_TOUCHPAD") == "1"


def is_dial(node):
    """A totem's knob (System Multi-Axis Controller): MT_TOOL_DIAL its only tool, or hid-input's name for it."""
    tool = node.axis(ev.ABS_MT_TOOL_TYPE)
    return bool(tool) and tool["min"] == tool["max"] == MT_TOOL_DIAL or node.name.endswith(" System Multi Axis")


def identity(entry):
    if entry["bus"] is None or entry["vendor"] is None:
        return GENERIC_USB
    return BUS[entry["bus"]], int(entry["vendor"], 16), int(entry["product"], 16)


class FleetDevice:
    def __init__(self, entry, client, udev_env, sock):
        self.entry, self.client, self.env, self.sock = entry, client, udev_env, sock
        self.bus, self.vendor, self.product = identity(entry)
        self.digitizer = TouchDigitizer(Descriptor.parse(bytes.fromhex(entry["rdesc"])), entry["max_contacts"],
                                        pressure_pad=(entry.get("ptp_type") or "clickpad").replace(" ", "").lower()
                                        != "clickpad")
        self.notes, self.checks = [], []
        self.uhid = self.recorder = self.touch = self.dev = None
        self.pacer = Pacer()
        self.force = {}  # the device line once it learned (`device changed`)
        self.t = 0.0

    # -- arrival ----------------------------------------------------------------------------------------

    def plug(self):
        e = self.entry
        self.uhid = UhidDevice(e["name"], bytes.fromhex(e["rdesc"]), self.bus, self.vendor, self.product,
                               self.digitizer.feature)
        self.uhid.wait_started(20)
        hid = wait_until(lambda: ev.hid_device(e["name"]), 10, "the HID device in sysfs")
        wait_until(lambda: ev.driver_of(hid) and ev.nodes_of(hid), 20, "hid-multitouch's input nodes")
        self.driver = ev.driver_of(hid)
        if self.driver != "hid-multitouch":
            raise KernelDiffers(f"bound by {self.driver}, not hid-multitouch")
        self.digitizer.quirks = int(ev.read(hid + "/quirks", "0"))
        self.nodes = ev.nodes_of(hid)
        self.touch_nodes = [n for n in self.nodes if n.multitouch and ev.ABS_MT_TRACKING_ID in n.abs and
                            not n.keys & PEN_KEYS and not is_dial(n)]
        if not self.touch_nodes:
            raise KernelDiffers("no multi-touch node: " + ", ".join(f'"{n.name}"' for n in self.nodes))
        self.touch = max(self.touch_nodes, key=self.likeness)
        self.recorder = NodeRecorder(self.touch.node)
        self.x, self.y = self.touch.axis(ev.ABS_MT_POSITION_X), self.touch.axis(ev.ABS_MT_POSITION_Y)
        self.p = self.touch.axis(ev.ABS_MT_PRESSURE)
        self.major = self.touch.axis(ev.ABS_MT_TOUCH_MAJOR)
        self.dev = self.client.wait_for(self.added(self.touch), 30, f"pressured to find {self.touch.node}")["device"]
        quirks = quirk_names(self.digitizer.quirks)
        given = self.entry["quirks"]
        if given and not set(given) <= set(quirks):
            self.notes.append(f"kernel quirks {quirks}, the kernel's test expects {given}")

    def likeness(self, node):
        """How well a node's axes fit the report the script drives (a device may have several touch nodes)."""
        d, score = self.digitizer, 0
        for role, code in (("x", ev.ABS_MT_POSITION_X), ("y", ev.ABS_MT_POSITION_Y), ("p", ev.ABS_MT_PRESSURE),
                           ("w", ev.ABS_MT_TOUCH_MAJOR)):
            axis = node.axis(code)
            if d.has(role) and axis and (axis["min"], axis["max"]) == d.range_of(role):
                score += 2
            elif d.has(role) == bool(axis):
                score += 1
        return score

    @staticmethod
    def added(node):
        return lambda m: m.get("type") == "device" and m.get("change") == "added" and m["device"]["node"] == node.node

    def check(self, what, ok, differs):
        self.checks.append(what)
        if not ok:
            raise Failure(f"{what}: {differs}")

    def check_udev(self):
        """The rules tag every touchscreen and every touchpad with pressure, nothing else; pressured serves
        what udev calls a touchscreen or touchpad (TouchDeviceFilter) but a dial, and nothing else (pens,
        mice, keyboards)."""
        self.udev = {n.node: udev_properties(n.node, self.env) for n in self.nodes}
        for n in self.nodes:
            props = self.udev[n.node]
            screen, pad = props.get("ID_INPUT_TOUCHSCREEN") == "1", props.get("ID_INPUT_TOUCHPAD") == "1"
            pressure = bool(n.abs & {ev.ABS_PRESSURE, ev.ABS_MT_PRESSURE})
            want = (screen or (pad and pressure)) and not is_dial(n)
            tagged = props.get("PRESSURED_DEVICE") == "1" and "pressured.service" in props.get("SYSTEMD_WANTS", "")
            self.check("udev", tagged == want, f'{n.node} "{n.name}": PRESSURED_DEVICE='
                       f"{props.get('PRESSURED_DEVICE')} SYSTEMD_WANTS={props.get('SYSTEMD_WANTS')} on "
                       f"{'a touchscreen' if screen else 'a touchpad' if pad else 'no touch device'}"
                       f"{' with' if pressure else ' without'} pressure{', a dial' if is_dial(n) else ''}")
        if any(is_dial(n) for n in self.nodes):
            self.notes.append("its totem's dial node (MT_TOOL_DIAL) is not served")
        touch = [n for n in self.nodes if is_touch(self.udev[n.node]) and not is_dial(n)]
        for n in touch:
            self.client.wait_for(self.added(n), 30, f"pressured to find {n.node} \"{n.name}\"")
        served = {m["device"]["node"] for m in self.client.snapshot() if m.get("type") == "device" and
                  m.get("change") == "added"}
        self.check("what pressured serves", served == {n.node for n in touch},
                   f"pressured serves {sorted(served)}, udev's touch devices are {sorted(n.node for n in touch)}")
        if len(touch) > 1:
            self.notes.append(f"{len(touch)} touch nodes, all served: " + ", ".join(f'"{n.name}"' for n in touch))

    def check_device_line(self):
        d = self.dev
        kind = "touchpad" if ev.INPUT_PROP_DIRECT not in self.touch.props else "touchscreen"
        self.check("kind", d["kind"] == kind, f"pressured says {d['kind']}, the kernel's node is a {kind}")
        for name, axis in (("x", self.x), ("y", self.y)):
            self.check(f"{name} axis", d[name] == {"min": axis["min"], "max": axis["max"]},
                       f"pressured {d[name]}, kernel {axis}")
        if self.x["resolution"] > 0 and self.y["resolution"] > 0:
            w = (self.x["max"] - self.x["min"]) / self.x["resolution"]
            h = (self.y["max"] - self.y["min"]) / self.y["resolution"]
            self.check("size", abs(d.get("width", -1) - w) < 0.05 and abs(d.get("height", -1) - h) < 0.05,
                       f"pressured {d.get('width')}x{d.get('height')} mm, kernel {w:.1f}x{h:.1f} mm")
        else:
            self.check("size", "width" not in d, f"pressured gives {d.get('width')} mm without a resolution")
        why = d.get("forceUnavailable")
        if self.p is None or self.p["max"] <= self.p["min"]:
            self.check("force", (d["forceCapability"], why) == ("unavailable", "no-pressure"),
                       f"no pressure axis, pressured says {d['forceCapability']} ({why})")
        else:
            self.check("force", d["forceCapability"] == "unavailable" and why in ("learning", "too-few-levels"),
                       f"a fresh device with pressure {self.p['min']}..{self.p['max']}: pressured says "
                       f"{d['forceCapability']} ({why})")

    # -- playing ----------------------------------------------------------------------------------------

    def pos(self, fx, fy):
        return (round(self.x["min"] + fx * (self.x["max"] - self.x["min"])),
                round(self.y["min"] + fy * (self.y["max"] - self.y["min"])))

    def pressure(self, frac):
        return round(self.p["min"] + frac * (self.p["max"] - self.p["min"])) if self.p else 0

    def size_units(self, mm):
        """A contact `mm` across, in the HID Width field's units (the kernel reports Width as the touch major)."""
        d = self.digitizer
        if not d.has("w"):
            return 0
        lo, hi = d.range_of("w")
        res = self.major["resolution"] if self.major else 0
        units = mm * res if res > 0 else 0.05 * (hi - lo) * mm / 8
        if d.quirks & Q_TOUCH_SIZE_SCALING:
            units *= 2  # the kernel halves it
        return max(lo, min(d.largest(d.fields["w"]), round(units)))

    def finger(self, slot, fx, fy, pressure=ORDINARY, **kw):
        x, y = self.pos(fx, fy)
        size = self.size_units(8)
        kw.setdefault("width", size)
        kw.setdefault("height", size)
        return Contact(slot, x, y, pressure=self.pressure(pressure), **kw)

    def play(self, frames, gap=FRAME):
        """Sends frames (lists of Contacts) `gap` apart; returns the guest time the first went out."""
        t0 = None
        for contacts in frames:
            self.pacer.wait_until(self.t)
            t0 = t0 or time.monotonic()
            for report in self.digitizer.frame(contacts):
                self.uhid.send(report)
            self.t += gap
        self.t += 0.05
        return t0

    def lift(self, contacts):
        return [Contact(**{**c.__dict__, "lifting": True}) for c in contacts]

    def stroke(self, path, pressure=ORDINARY, slot=0, **kw):
        """One finger along `path` (fractions), then lifted where it ended."""
        frames = [[self.finger(slot, fx, fy, pressure, **kw)] for fx, fy in path]
        return frames + [self.lift(frames[-1])]

    # -- reading pressured's side -----------------------------------------------------------------------

    def touches(self, after):
        return [m for m in self.client.snapshot()[after:] if m.get("type") == "touch" and
                m["device"] == self.dev["id"]]

    def ended(self, after, n):
        """Waits until `n` contacts began after `after` have ended; returns their touches by contact."""
        def done():
            by = self.by_contact(self.touches(after))
            return len(by) >= n and all(t[-1]["phase"] in ("ended", "cancelled") for t in by.values())
        try:
            wait_until(done, 20, f"{n} contact(s) to end")
        except Failure:
            pass  # told below, with what did arrive
        return self.by_contact(self.touches(after))

    @staticmethod
    def by_contact(touches):
        out = {}
        for t in touches:
            out.setdefault(t["contact"], []).append(t)
        return out

    def kernel_view(self, since):
        return ev.kernel_contacts(bytes(self.recorder.data), since)

    def blame(self, what, since, want):
        """After a difference in pressured's events: the kernel's contacts since `since`, and a KernelDiffers
        when they already differ from `want` (a list of (first, last) positions, None for no contact)."""
        kc = [c for c in self.kernel_view(since) if c["touch"]]
        got = [(tuple(c["first"]), tuple(c["last"])) for c in kc]
        if got != want:
            raise KernelDiffers(f"{what}: the kernel delivered {got or 'no touching contact'}, the device sent {want}")
        return f"the kernel delivered {got}"

    def expect_contacts(self, what, since_mark, since_time, want, gestures=None, kernel=None):
        """pressured's contacts after a mark: each (first, last) position as `want` says, ended, and with
        `gestures` (the gesture types per contact) where given. `kernel`: the touching contacts the kernel
        delivers, where they differ from pressured's (a palm by size is the kernel's touch)."""
        by = self.ended(since_mark, len(want))
        got = [((t[0]["x"], t[0]["y"]), (t[-1]["x"], t[-1]["y"])) for t in by.values()]
        ends = [t[-1]["phase"] for t in by.values()]
        if sorted(got) != sorted(want) or any(e != "ended" for e in ends):
            kernel = self.blame(what, since_time, sorted(want if kernel is None else kernel))
            raise Failure(f"{what}: pressured gave contacts {got} ending {ends}, wanted {want}; {kernel}")
        if gestures is not None:
            seqs = [self.gestures_of(c, since_mark) for c in by]
            if seqs != gestures:
                raise Failure(f"{what}: gestures {seqs}, wanted {gestures}")
        self.checks.append(what)
        return list(by)

    def gestures_of(self, contact, after):
        return [m["type"] for m in self.client.snapshot()[after:] if m.get("device") == self.dev["id"] and
                m.get("contact") == contact and m.get("type") in ("peek", "pop", "dismiss", "quickActions",
                                                                   "longPress")]

    def force_status(self):
        """The daemon's `status` force entry for this device: where its peek and pop sit (raw pressure)."""
        with PressuredClient(self.sock, timeout=30) as c:
            force = c.request("status").get("force", [])
        return next((f for f in force if f["device"] == self.dev["id"]), {})
