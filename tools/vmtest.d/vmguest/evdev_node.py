"""What the kernel made of a HID device, read the way a touch stack reads it: its input nodes under sysfs,
their capabilities and axes (EVIOCGABS), and the contacts an evdev stream holds (multi-touch protocol B),
so that a difference can be told apart: the kernel delivered it so, or pressured read it wrong."""
import fcntl
import glob
import os
import struct

ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x2F, 0x30, 0x35, 0x36
ABS_MT_TOOL_TYPE, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE, ABS_MT_DISTANCE = 0x37, 0x39, 0x3A, 0x3B
ABS_PRESSURE = 0x18
INPUT_PROP_POINTER, INPUT_PROP_DIRECT, INPUT_PROP_BUTTONPAD = 0, 1, 2
EV_SYN, EV_ABS = 0, 3
MT_TOOL_PALM = 2


def bits(hexwords):
    """A sysfs capability bitmap (hex words, most significant first, 64 bits each) as a set of bit numbers."""
    out, words = set(), hexwords.split()
    for k, w in enumerate(reversed(words)):
        v = int(w, 16)
        out.update(64 * k + b for b in range(64) if v >> b & 1)
    return out


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


class Node:
    """One event node of a HID device: name, capabilities, and its axes as the kernel reports them."""

    def __init__(self, event_dir):
        self.event = os.path.basename(event_dir)
        self.node = "/dev/input/" + self.event
        sysdir = os.path.join(event_dir, "device")
        self.name = read(os.path.join(sysdir, "name"))
        self.abs = bits(read(os.path.join(sysdir, "capabilities/abs"), "0"))
        self.keys = bits(read(os.path.join(sysdir, "capabilities/key"), "0"))
        self.props = bits(read(os.path.join(sysdir, "properties"), "0"))
        self.axes = {}
        fd = os.open(self.node, os.O_RDONLY | os.O_NONBLOCK)
        try:
            for code in self.abs:
                buf = fcntl.ioctl(fd, (2 << 30) | (24 << 16) | (ord("E") << 8) | (0x40 + code), bytes(24))
                _, lo, hi, fuzz, _, res = struct.unpack("6i", buf)
                self.axes[code] = {"min": lo, "max": hi, "fuzz": fuzz, "resolution": res}
        finally:
            os.close(fd)

    @property
    def multitouch(self):
        return ABS_MT_POSITION_X in self.abs and ABS_MT_POSITION_Y in self.abs

    def axis(self, code):
        return self.axes.get(code)


def hid_device(name):
    """The sysfs directory of the HID device with this name (HID_NAME), or None."""
    for d in glob.glob("/sys/bus/hid/devices/*"):
        for line in read(os.path.join(d, "uevent")).splitlines():
            if line == "HID_NAME=" + name:
                return d
    return None


def driver_of(hid_dir):
    link = os.path.join(hid_dir, "driver")
    return os.path.basename(os.path.realpath(link)) if os.path.exists(link) else None


def nodes_of(hid_dir):
    return [Node(e) for e in sorted(glob.glob(os.path.join(hid_dir, "input", "input*", "event*")))]


def events(data):
    """(time, type, code, value) from raw struct input_event bytes (64-bit)."""
    return [(sec + usec / 1e6, t, c, v) for sec, usec, t, c, v in
            (struct.unpack_from("qqHHi", data, i) for i in range(0, len(data) - 23, 24))]


def kernel_contacts(data, since=0.0, until=float("inf")):
    """The contacts a protocol B stream holds that begin between two times: per tracking id its first and
    last position, whether it was ever a palm (MT_TOOL_PALM), hovering (distance > 0) or touching at a frame's
    end, and its largest touch major. A slot keeps its values from one contact to the next, as evdev does."""
    slot, state, live, out = 0, {}, {}, []
    for t, typ, code, value in events(data):
        if typ == EV_SYN and code == 0:
            for s, c in live.items():
                v = state[s]
                if c["first"] is None:
                    c["first"] = [v.get("x"), v.get("y")]
                c["last"] = [v.get("x"), v.get("y")]
                c["major"] = max(c["major"], v.get("major", 0))
                if v.get("tool") == MT_TOOL_PALM:
                    c["palm"] = True
                elif v.get("dist", 0) > 0:
                    c["hover"] = True
                else:
                    c["touch"] = True
            continue
        if typ != EV_ABS:
            continue
        if code == ABS_MT_SLOT:
            slot = value
            continue
        v = state.setdefault(slot, {})
        if code == ABS_MT_TRACKING_ID:
            if value < 0:
                live.pop(slot, None)
            elif slot not in live or live[slot]["id"] != value:
                c = {"id": value, "t0": t, "first": None, "last": None, "palm": False, "hover": False,
                     "touch": False, "major": 0}
                live[slot] = c
                if since <= t <= until:
                    out.append(c)
            continue
        key = {ABS_MT_POSITION_X: "x", ABS_MT_POSITION_Y: "y", ABS_MT_TOOL_TYPE: "tool", ABS_MT_DISTANCE: "dist",
               ABS_MT_TOUCH_MAJOR: "major"}.get(code)
        if key:
            v[key] = value
    return out
