#!/usr/bin/env python3
"""make-seeds.py: writes evemu captures as programs for the evdev-stream fuzz target.

    Fuzz/make-seeds.py OUT_DIR CAPTURE.evemu...

The evdev-stream target reads its input as a small program (see the comment at the top of
Fuzz/evdev-stream.swift), not as raw events, so the fixtures have to be translated to give libFuzzer
realistic starting points: whole touches with peeks, pops, drops and long presses. tools/fuzz runs this.
"""
import os
import struct
import sys

INTERESTING = [0x2F, 0x39, 0x35, 0x36, 0x3A, 0x00, 0x01, 0x18, 0x30, 0x37]  # mirrors interestingAbs


def program(path):
    absinfo, events = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            p = line.split("#")[0].split()
            if not p:
                continue
            if p[0] == "A:" and len(p) >= 4:
                absinfo[int(p[1], 16)] = (int(p[2]), int(p[3]))
            elif p[0] == "E:" and len(p) >= 5:
                sec, _, us = p[1].partition(".")
                events.append((int(sec) * 1000000 + int(us.ljust(6, "0")[:6]), int(p[2], 16), int(p[3], 16), int(p[4])))
    if 0x2F in absinfo:
        kind = 0 if 0x3A in absinfo else 1
    elif 0x35 in absinfo:
        kind = 3
    else:
        kind = 2
    pmin, pmax = absinfo.get(0x3A, absinfo.get(0x18, (0, 1023)))
    clamp16 = lambda v: max(-32768, min(32767, v))
    out = bytearray([kind, absinfo.get(0x2F, (0, 9))[1] % 64])
    out += struct.pack("<hh", clamp16(pmin), clamp16(pmax))
    out += bytes([16, 0])  # resolution 16 units/mm; flags 0: force on, medium, touches reported
    last = events[0][0] if events else 0
    for t, ty, code, value in events:
        dt = (t - last) // 1000
        last = t
        if dt > 7 or dt < 0:
            out += bytes([21]) + struct.pack("<h", clamp16(dt))
            dt = 0
        step = dt << 5
        if ty == 3 and code in INTERESTING:
            if -32768 <= value <= 32767:
                out += bytes([step | 22, INTERESTING.index(code)]) + struct.pack("<h", value)
            else:
                out += bytes([step | 27, INTERESTING.index(code)]) + struct.pack("<i", value)
        elif ty == 0 and code in (0, 2, 3):
            out += bytes([step | {0: 10, 3: 13, 2: 14}[code]])
        elif ty == 1 and code in (0x14A, 0x145):
            out += bytes([step | 15, 0 if code == 0x14A else 1, value % 3])
        else:
            out += bytes([step | 16, ty & 0xFF]) + struct.pack("<Hi", code & 0xFFFF, max(-2**31, min(2**31 - 1, value)))
    return bytes(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    for path in sys.argv[2:]:
        name = os.path.basename(path) + ".prog"
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(program(path))


if __name__ == "__main__":
    main()
