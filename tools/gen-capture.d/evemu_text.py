"""The evemu 1.2 text of tools/gen-capture.py's synthetic touchscreen: its event codes, the device's
header as `evemu-record` prints it (comment block, N/I/P/B/A lines, banner) and the events' text."""

# --- event codes ------------------------------------------------------------
EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT, SYN_CONFIG, SYN_DROPPED = 0, 1, 3
BTN_TOUCH = 0x14A
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x2F, 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A

ABS_NAMES = {
    ABS_X: "ABS_X", ABS_Y: "ABS_Y", ABS_PRESSURE: "ABS_PRESSURE",
    ABS_MT_SLOT: "ABS_MT_SLOT", ABS_MT_POSITION_X: "ABS_MT_POSITION_X",
    ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
    ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID", ABS_MT_PRESSURE: "ABS_MT_PRESSURE",
}

POS_MAX = 4095
POS_RES = 16           # units per mm
P_MAX = 1023
TRKID_MAX = 65535

# bitmask sizes (bytes) evemu prints per event type: (type, max code)
BITS_TYPES = [(0x00, 0x1F), (0x01, 0x2FF), (0x02, 0x0F), (0x03, 0x3F),
              (0x04, 0x07), (0x05, 0x10), (0x11, 0x0F), (0x12, 0x07),
              (0x15, 0x7F)]


def c_alt_hex(v):
    """printf("%#04x", v) as C does it (no 0x prefix for zero)."""
    return "0000" if v == 0 else "0x%02x" % v


def header(name, n_slots):
    absinfo = [  # code, min, max, fuzz, flat, res
        (ABS_X, 0, POS_MAX, 0, 0, POS_RES),
        (ABS_Y, 0, POS_MAX, 0, 0, POS_RES),
        (ABS_PRESSURE, 0, P_MAX, 0, 0, 0),
        (ABS_MT_SLOT, 0, n_slots - 1, 0, 0, 0),
        (ABS_MT_POSITION_X, 0, POS_MAX, 0, 0, POS_RES),
        (ABS_MT_POSITION_Y, 0, POS_MAX, 0, 0, POS_RES),
        (ABS_MT_TRACKING_ID, 0, TRKID_MAX, 0, 0, 0),
        (ABS_MT_PRESSURE, 0, P_MAX, 0, 0, 0),
    ]
    bus, vendor, product, version = 0x06, 0x0000, 0x0000, 0x0001  # BUS_VIRTUAL
    out = ["# EVEMU 1.2",
           '# Input device name: "%s"' % name,
           "# Input device ID: bus %s vendor %s product %s version %s"
           % tuple(c_alt_hex(v) for v in (bus, vendor, product, version)),
           "# Supported events:",
           "#   Event type 0 (EV_SYN)",
           "#     Event code 0 (SYN_REPORT)",
           "#     Event code 1 (SYN_CONFIG)",
           "#     Event code 3 (SYN_DROPPED)",
           "#   Event type 1 (EV_KEY)",
           "#     Event code 330 (BTN_TOUCH)",
           "#   Event type 3 (EV_ABS)"]
    for code, mn, mx, fz, fl, res in absinfo:
        out += ["#     Event code %d (%s)" % (code, ABS_NAMES[code]),
                "#       Value %6d" % 0,
                "#       Min   %6d" % mn,
                "#       Max   %6d" % mx,
                "#       Fuzz  %6d" % fz,
                "#       Flat  %6d" % fl,
                "#       Resolution %d" % res]
    out += ["# Properties:",
            "#   Property  type 1 (INPUT_PROP_DIRECT)",
            "N: %s" % name,
            "I: %04x %04x %04x %04x" % (bus, vendor, product, version),
            "P: 02 00 00 00 00 00 00 00"]
    codes = {0x00: [SYN_REPORT, SYN_CONFIG, SYN_DROPPED], 0x01: [BTN_TOUCH],
             0x03: [c[0] for c in absinfo]}
    for typ, maxcode in BITS_TYPES:
        nbytes = (maxcode + 8) // 8
        nbytes = (nbytes + 7) // 8 * 8
        mask = bytearray(nbytes)
        for c in codes.get(typ, []):
            mask[c // 8] |= 1 << (c % 8)
        for i in range(0, nbytes, 8):
            out.append("B: %02x %s" % (typ, " ".join("%02x" % b for b in mask[i:i + 8])))
    for code, mn, mx, fz, fl, res in absinfo:
        out.append("A: %02x %d %d %d %d %d" % (code, mn, mx, fz, fl, res))
    out += ["################################",
            "#      Waiting for events      #",
            "################################"]
    return "\n".join(out) + "\n"


class EventText:
    """Caches the '<type> <code> <value>\\t# comment' part of E: lines."""

    def __init__(self, comments=True):
        self.cache = {}
        self.comments = comments

    def __call__(self, typ, code, value):
        key = (typ << 16 | code) << 20 | (value & 0xFFFFF)
        s = self.cache.get(key)
        if s is None:
            if typ == EV_SYN:
                names = {SYN_REPORT: "SYN_REPORT", SYN_CONFIG: "SYN_CONFIG",
                         SYN_DROPPED: "SYN_DROPPED"}
                cm = "------------ %s (%d) ----------" % (names[code], value)
            elif typ == EV_KEY:
                cm = "EV_KEY / %-20s %d" % ("BTN_TOUCH", value)
            else:
                cm = "EV_ABS / %-20s %d" % (ABS_NAMES[code], value)
            s = ("%04x %04x %04d\t# %s\n" % (typ, code, value, cm) if self.comments
                 else "%04x %04x %04d\n" % (typ, code, value))
            self.cache[key] = s
        return s
