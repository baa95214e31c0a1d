"""A touch digitizer played from its HID report descriptor: input reports built for the contacts a script
puts down, and the feature reports the kernel asks for while probing, as the device's firmware would send
them. Standard library only (hid_descriptor.py reads the descriptor).

Which report carries touches, and which of its fields make up one contact, follows hid-multitouch
(drivers/hid/hid-multitouch.c): the first input report of a Touch Screen or Touch Pad application with a
Contact Identifier; its fields are walked in order and a usage met again starts the next contact. A frame
with more contacts than one report holds goes out as several reports, the first with the frame's Contact
Count and the others with 0 (the specification's hybrid mode).

How a firmware reports a contact that lifts, and which contact identifiers it uses, differs between panels;
the kernel's quirks for the device (its `quirks` attribute in sysfs) are the description of that firmware, so
frames are built from them: a lifting contact is reported once with Tip Switch off and still In Range and
Confident where the driver decides validity by those (VALID_IS_INRANGE, VALID_IS_CONFIDENCE), out of range
where In Range means hovering (HOVERING); identifiers count from 1 where the slot is the identifier minus one.
"""
from dataclasses import dataclass

from .hid_descriptor import get_bits, put_bits

TOUCH_SCREEN, TOUCH_PAD = 0x000D0004, 0x000D0005
TIP, IN_RANGE, CONFIDENCE, CONTACT_ID = 0x000D0042, 0x000D0032, 0x000D0047, 0x000D0051
WIDTH, HEIGHT, PRESSURE, AZIMUTH = 0x000D0048, 0x000D0049, 0x000D0030, 0x000D003F
CONTACT_COUNT, SCAN_TIME, CONTACT_MAX, BUTTON_TYPE = 0x000D0054, 0x000D0056, 0x000D0055, 0x000D0059
X, Y = 0x00010030, 0x00010031
FINGER = 0x000D0022
MEASURES = ("x", "y", "w", "h", "p")  # kept within their logical range; identifiers and counts are not
ROLES = {TIP: "tip", IN_RANGE: "inrange", CONFIDENCE: "confidence", CONTACT_ID: "id", X: "x", Y: "y",
         WIDTH: "w", HEIGHT: "h", PRESSURE: "p", AZIMUTH: "a"}

# hid-multitouch's quirk bits (MT_QUIRK_*), as its sysfs `quirks` attribute shows them
Q_NOT_SEEN_MEANS_UP, Q_SLOT_IS_CONTACTID, Q_CYPRESS, Q_SLOT_IS_CONTACTNUMBER = 1 << 0, 1 << 1, 1 << 2, 1 << 3
Q_ALWAYS_VALID, Q_VALID_IS_INRANGE, Q_VALID_IS_CONFIDENCE, Q_CONFIDENCE = 1 << 4, 1 << 5, 1 << 6, 1 << 7
Q_SLOT_IS_CONTACTID_MINUS_ONE, Q_NO_AREA, Q_HOVERING, Q_TOUCH_SIZE_SCALING = 1 << 8, 1 << 9, 1 << 11, 1 << 15
QUIRK_NAMES = {Q_NOT_SEEN_MEANS_UP: "NOT_SEEN_MEANS_UP", Q_SLOT_IS_CONTACTID: "SLOT_IS_CONTACTID",
               Q_CYPRESS: "CYPRESS", Q_SLOT_IS_CONTACTNUMBER: "SLOT_IS_CONTACTNUMBER", Q_ALWAYS_VALID: "ALWAYS_VALID",
               Q_VALID_IS_INRANGE: "VALID_IS_INRANGE", Q_VALID_IS_CONFIDENCE: "VALID_IS_CONFIDENCE",
               Q_CONFIDENCE: "CONFIDENCE", Q_SLOT_IS_CONTACTID_MINUS_ONE: "SLOT_IS_CONTACTID_MINUS_ONE",
               Q_NO_AREA: "NO_AREA", 1 << 10: "IGNORE_DUPLICATES", Q_HOVERING: "HOVERING",
               1 << 12: "CONTACT_CNT_ACCURATE", 1 << 13: "FORCE_GET_FEATURE", 1 << 14: "FIX_CONST_CONTACT_ID",
               Q_TOUCH_SIZE_SCALING: "TOUCH_SIZE_SCALING", 1 << 16: "STICKY_FINGERS", 1 << 17: "ASUS_CUSTOM_UP",
               1 << 18: "WIN8_PTP_BUTTONS", 1 << 19: "SEPARATE_APP_REPORT", 1 << 20: "FORCE_MULTI_INPUT"}


def quirk_names(bits):
    return [name for bit, name in QUIRK_NAMES.items() if bits & bit]


class NotATouchDigitizer(ValueError):
    pass


@dataclass
class Contact:
    """One contact in a frame, in the device's logical units. `tip`: touching; `inrange`: near enough to be
    seen (hovering when not touching); `confident`: a finger (not a palm), as the firmware judges it;
    `lifting`: reported this once with its tip off, as firmware reports a lift."""
    slot: int
    x: int
    y: int
    tip: bool = True
    inrange: bool = True
    confident: bool = True
    width: int = 0
    height: int = 0
    pressure: int = 0
    lifting: bool = False


class TouchDigitizer:
    def __init__(self, descriptor, max_contacts=None, pressure_pad=False):
        self.descriptor = descriptor
        touch = [r for r in descriptor.reports_of("input") if r.application in (TOUCH_SCREEN, TOUCH_PAD)
                 and any(f.variable and CONTACT_ID in f.usages for f in r.fields)]
        if not touch:
            raise NotATouchDigitizer("no input report of a touch screen or touch pad with a contact identifier")
        # Where several reports could carry touches (SMART's 0b8c:0092 has three), the firmware's is the one
        # that groups each contact in a Finger collection, as the specification has it.
        self.report = max(touch, key=lambda r: any(f.logical == FINGER for f in r.fields))
        self.groups, self.count_at, self.scan_at = self._walk(self.report)
        self.fields = {role: f for g in self.groups for role, (f, _) in g.items()}
        self.max_contacts = max_contacts or self._declared_max() or len(self.groups)
        self.pressure_pad = pressure_pad
        self.quirks = 0
        self.scan_time = 0

    @staticmethod
    def _walk(report):
        """Per contact, its role -> (field, value index); and where Contact Count and Scan Time sit."""
        groups, current, count_at, scan_at = [], {}, None, None
        for f in report.fields:
            if not f.variable:
                continue
            for i in range(f.count):
                u = f.usage(i)
                if u == CONTACT_COUNT:
                    count_at = (f, i)
                elif u == SCAN_TIME:
                    scan_at = (f, i)
                role = ROLES.get(u)
                if role is None:
                    continue
                if role in ("x", "y") and i and f.usage(i - 1) == u:
                    continue  # a second X (Y) in a row is the tool's position, ABS_MT_TOOL_X
                if role in current:
                    if not all(k in current for k in ("id", "x", "y")):
                        continue  # hid-multitouch ignores a duplicate in an incomplete contact
                    groups.append(current)
                    current = {}
                current[role] = (f, i)
        if current:
            groups.append(current)
        return [g for g in groups if "x" in g and "y" in g], count_at, scan_at

    def _declared_max(self):
        for r in self.descriptor.reports_of("feature"):
            for f in r.fields:
                if CONTACT_MAX in f.usages:
                    return f.logical_max
        return None

    @property
    def per_report(self):
        return len(self.groups)

    def has(self, role):
        return role in self.fields

    def range_of(self, role):
        f = self.fields[role]
        return f.logical_min, f.logical_max

    @staticmethod
    def largest(f):
        """The largest value a field can carry: its logical maximum, unless its bits cannot hold that
        (Sitronix 1403:5001 declares Width 0..848 in 8 bits)."""
        bits = (1 << (f.size - 1)) - 1 if f.logical_min < 0 else (1 << f.size) - 1
        return min(f.logical_max, bits)

    def contact_id(self, slot):
        """Slots are the identifiers where the driver says so; elsewhere any distinct ones do, and firmware
        counts from the field's minimum (Synaptics' 06cb:1d10 from 1)."""
        if self.quirks & Q_SLOT_IS_CONTACTID:
            return slot
        if self.quirks & Q_SLOT_IS_CONTACTID_MINUS_ONE:
            return slot + 1
        return max(0, self.fields["id"].logical_min) + slot

    def frame(self, contacts):
        """The input reports for one frame (a list of bytes objects)."""
        self.scan_time = (self.scan_time + 100) % (self.fields_max(self.scan_at) + 1)  # 10 ms in 100 us units
        n = max(1, self.per_report)
        chunks = [contacts[i:i + n] for i in range(0, len(contacts), n)] or [[]]
        if self.count_at is None:
            chunks = chunks[:1] if not contacts else chunks
        out = []
        for k, chunk in enumerate(chunks):
            out.append(self._report(chunk, len(contacts) if k == 0 else 0, contacts))
        return out

    @staticmethod
    def fields_max(at):
        return at[0].logical_max if at else 0xFFFF

    def _report(self, chunk, count, everyone):
        r = self.report
        buf = bytearray(r.length)
        base = 0
        if r.report_id:
            buf[0] = r.report_id
            base = 8
        used = {self.contact_id(c.slot) for c in everyone}
        spare = next(i for i in range(self.max_contacts - 1, -1000, -1) if self.contact_id(i) not in used)
        for k, g in enumerate(self.groups):
            c = chunk[k] if k < len(chunk) else None
            for role, (f, i) in g.items():
                self._put(buf, base, f, i, self._value(role, c, spare), clamp=role in MEASURES)
        if self.count_at:
            self._put(buf, base, *self.count_at, count)
        if self.scan_at:
            self._put(buf, base, *self.scan_at, self.scan_time)
        return bytes(buf)

    def _value(self, role, c, spare):
        if c is None:  # an unused contact: nothing valid, an identifier no live contact has
            return self.contact_id(spare) if role == "id" else 0
        lifting_in_range = not self.quirks & Q_HOVERING
        return {"tip": c.tip and not c.lifting,
                "inrange": (c.inrange and not c.lifting) or (c.lifting and lifting_in_range),
                "confidence": c.confident, "id": self.contact_id(c.slot), "x": c.x, "y": c.y,
                "w": c.width, "h": c.height, "p": c.pressure, "a": 0}[role]

    @staticmethod
    def _put(buf, base, f, i, value, clamp=False):
        """Values go out as the firmware sends them, whatever the field's logical range says: hid-multitouch
        reads its fields' raw values, and real descriptors declare ranges their firmware exceeds (Sitronix
        1403:5001's Contact Count and Identifier are 0..0, Focaltech 10c4:81b9's Identifier 0..1)."""
        if clamp and f.logical_max > f.logical_min:
            value = max(f.logical_min, min(TouchDigitizer.largest(f), value))
        put_bits(buf, base + f.offset + i * f.size, f.size, int(value))

    def read(self, data):
        """A report read back: per contact group, role -> value (for tests)."""
        base = 8 if self.report.report_id else 0
        return [{role: get_bits(data, base + f.offset + i * f.size, f.size, f.logical_min < 0)
                 for role, (f, i) in g.items()} for g in self.groups]

    def feature(self, report_id):
        """The feature report `report_id` as the device answers GET_REPORT (the ID byte first), or None when
        the descriptor has no such report: Contact Count Maximum is the device's maximum, Button Type says
        click pad (0) or pressure pad (1), everything else reads 0 (the kernel only needs those two)."""
        r = self.descriptor.reports.get(("feature", report_id))
        if r is None:
            return None
        buf = bytearray(r.length)
        base = 0
        if r.report_id:
            buf[0] = r.report_id
            base = 8
        for f in r.fields:
            if not f.variable:
                continue
            for i in range(f.count):
                if f.usage(i) == CONTACT_MAX:
                    self._put(buf, base, f, i, self.max_contacts)
                elif f.usage(i) == BUTTON_TYPE:
                    self._put(buf, base, f, i, 1 if self.pressure_pad else 0)
        return bytes(buf)
