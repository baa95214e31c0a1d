"""HID report descriptors read as the kernel's hid-core reads them (HID 1.11, section 6.2.2), standard library
only: the reports a device sends and accepts, each field with its usages, ranges, units and where its bits
sit, so that reports can be built from a descriptor (hid_touch.py) and read back (tests).

    d = Descriptor.parse(bytes.fromhex("05 0d 09 04 a1 01 ..."))
    d.reports[("input", 1)].fields      # in order; each knows its application and logical collection

Usages are 32-bit (page << 16 | id). As in hid-core since Linux 5.3, a usage given without its page takes the
usage page in force when its main item closes. A field whose report count exceeds its usages repeats the
last usage (hid-core does the same); arrays (not Variable) keep their usage list as declared.
"""
from dataclasses import dataclass, field as dc_field

MAIN_INPUT, MAIN_OUTPUT, MAIN_FEATURE, MAIN_COLLECTION, MAIN_END = 0x8, 0x9, 0xB, 0xA, 0xC
KINDS = {MAIN_INPUT: "input", MAIN_OUTPUT: "output", MAIN_FEATURE: "feature"}
COLLECTION_APPLICATION, COLLECTION_LOGICAL = 1, 2
FLAG_CONSTANT, FLAG_VARIABLE = 0x1, 0x2


class DescriptorError(ValueError):
    """A descriptor that cannot be read: says at which byte."""


@dataclass
class Field:
    """One main item: `count` values of `size` bits from bit `offset` of its report (the report ID byte not
    counted). `usages[i]` is the usage of value i (Variable fields)."""
    kind: str
    report_id: int
    offset: int
    size: int
    count: int
    flags: int
    usages: list
    logical_min: int
    logical_max: int
    physical_min: int
    physical_max: int
    unit: int
    unit_exponent: int
    application: int
    logical: int  # usage of the innermost logical collection (0: none)
    collection: int  # index of the innermost collection, telling collections of the same usage apart

    @property
    def variable(self):
        return bool(self.flags & FLAG_VARIABLE) and not self.flags & FLAG_CONSTANT

    def usage(self, i):
        return self.usages[min(i, len(self.usages) - 1)] if self.usages else 0


@dataclass
class Report:
    kind: str
    report_id: int
    fields: list = dc_field(default_factory=list)
    bits: int = 0

    @property
    def length(self):
        """Bytes on the wire, the report ID byte included where the descriptor numbers its reports."""
        return (self.bits + 7) // 8 + (1 if self.report_id else 0)

    @property
    def application(self):
        return self.fields[0].application if self.fields else 0


def _signed(value, nbytes):
    bits = 8 * nbytes
    return value - (1 << bits) if nbytes and value & (1 << (bits - 1)) else value


@dataclass
class _Globals:
    usage_page: int = 0
    logical_min: int = 0
    logical_max: int = 0
    physical_min: int = 0
    physical_max: int = 0
    unit_exponent: int = 0
    unit: int = 0
    report_size: int = 0
    report_id: int = 0
    report_count: int = 0


class Descriptor:
    def __init__(self, data):
        self.data = bytes(data)
        self.reports = {}  # (kind, report id) -> Report, in the order first declared
        self.collections = []  # (type, usage, parent index) per collection, in order

    @classmethod
    def parse(cls, data):
        d = cls(data)
        d._parse()
        return d

    def reports_of(self, kind):
        return [r for (k, _), r in self.reports.items() if k == kind]

    def _items(self):
        data, i = self.data, 0
        while i < len(data):
            prefix = data[i]
            if prefix == 0xFE:  # long item: skipped (none is defined)
                if i + 2 >= len(data):
                    raise DescriptorError(f"byte {i}: long item cut off")
                i += 3 + data[i + 1]
                continue
            n = (0, 1, 2, 4)[prefix & 3]
            if i + 1 + n > len(data):
                raise DescriptorError(f"byte {i}: item 0x{prefix:02x} needs {n} data bytes, {len(data) - i - 1} left")
            yield i, (prefix >> 2) & 3, prefix >> 4, int.from_bytes(data[i + 1:i + 1 + n], "little"), n
            i += 1 + n

    def _parse(self):
        g, stack = _Globals(), []
        usages, usage_min, collections = [], None, []  # collections: open ones, as indexes into self.collections
        for at, typ, tag, value, n in self._items():
            if typ == 0:  # main
                if tag in KINDS:
                    self._add_field(at, KINDS[tag], g, usages, collections, value)
                elif tag == MAIN_COLLECTION:
                    usage = self._complete(usages[0] if usages else (0, 0), g)
                    parent = collections[-1] if collections else -1
                    self.collections.append((value, usage, parent))
                    collections.append(len(self.collections) - 1)
                elif tag == MAIN_END:
                    if not collections:
                        raise DescriptorError(f"byte {at}: End Collection without a collection")
                    collections.pop()
                usages, usage_min = [], None
            elif typ == 1:  # global
                if tag == 0:
                    g.usage_page = value
                elif tag == 1:
                    g.logical_min = _signed(value, n)
                elif tag == 2:  # hid-core: a maximum is signed only when the minimum in force is negative
                    g.logical_max = _signed(value, n) if g.logical_min < 0 else value
                elif tag == 3:
                    g.physical_min = _signed(value, n)
                elif tag == 4:
                    g.physical_max = _signed(value, n) if g.physical_min < 0 else value
                elif tag == 5:  # a 4-bit two's complement nibble where it fits one, as hid-core reads it
                    g.unit_exponent = _signed(value, 1) if value > 0xF else (value - 16 if value & 8 else value)
                elif tag == 6:
                    g.unit = value
                elif tag == 7:
                    g.report_size = value
                elif tag == 8:
                    if value == 0:
                        raise DescriptorError(f"byte {at}: Report ID 0")
                    g.report_id = value
                elif tag == 9:
                    g.report_count = value
                elif tag == 10:
                    stack.append(_Globals(**vars(g)))
                elif tag == 11:
                    if not stack:
                        raise DescriptorError(f"byte {at}: Pop without Push")
                    g = stack.pop()
            elif typ == 2:  # local
                if tag == 0:
                    usages.append((value, n))
                elif tag == 1:
                    usage_min = (value, n)
                elif tag == 2 and usage_min is not None:
                    lo, hi = usage_min[0], value
                    if hi - lo > 0xFFFF or hi < lo:
                        raise DescriptorError(f"byte {at}: usage range {lo:#x}..{hi:#x}")
                    usages.extend((u, max(usage_min[1], n)) for u in range(lo, hi + 1))
                    usage_min = None
        if collections:
            raise DescriptorError(f"{len(collections)} collection(s) not closed")

    @staticmethod
    def _complete(usage, g):
        value, n = usage
        return value if n == 4 else (g.usage_page << 16) | value

    def _add_field(self, at, kind, g, usages, collections, flags):
        key = (kind, g.report_id)
        report = self.reports.setdefault(key, Report(kind, g.report_id))
        application = logical = 0
        for c in collections:
            ctype, cusage, _ = self.collections[c]
            if ctype == COLLECTION_APPLICATION and not application:
                application = cusage
            if ctype == COLLECTION_LOGICAL:
                logical = cusage
        f = Field(kind=kind, report_id=g.report_id, offset=report.bits, size=g.report_size, count=g.report_count,
                  flags=flags, usages=[self._complete(u, g) for u in usages],
                  logical_min=g.logical_min, logical_max=g.logical_max,
                  physical_min=g.physical_min, physical_max=g.physical_max,
                  unit=g.unit, unit_exponent=g.unit_exponent, application=application, logical=logical,
                  collection=collections[-1] if collections else -1)
        if f.size > 32:
            raise DescriptorError(f"byte {at}: report size {f.size} bits")
        report.fields.append(f)
        report.bits += f.size * f.count


def put_bits(buf, offset, size, value):
    """Writes `value` (two's complement where negative) as `size` bits from bit `offset`, LSB first."""
    value &= (1 << size) - 1
    for b in range(size):
        if value >> b & 1:
            buf[(offset + b) // 8] |= 1 << ((offset + b) % 8)
        else:
            buf[(offset + b) // 8] &= ~(1 << ((offset + b) % 8)) & 0xFF


def get_bits(buf, offset, size, signed=False):
    value = 0
    for b in range(size):
        value |= (buf[(offset + b) // 8] >> ((offset + b) % 8) & 1) << b
    return value - (1 << size) if signed and size and value >> (size - 1) & 1 else value
