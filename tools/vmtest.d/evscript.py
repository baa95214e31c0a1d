"""The building blocks of prepare.py's scenario scripts: evemu text, one `E:` line an event, and
`# vmtest: gate` lines at which evplay stops until SIGUSR1."""
import os
import re


def header_of(path):
    with open(path, errors="replace") as f:
        return [l.rstrip("\n") for l in f if re.match(r"^[NIPBA]: ", l)]


class Script:
    def __init__(self, header_lines):
        self.lines = list(header_lines)

    def frame(self, t, *events):
        for typ, code, value in events + ((0, 0, 0),):
            self.lines.append(f"E: {t:.6f} {typ:04x} {code:04x} {value:04d}")

    def gate(self):
        self.lines.append("# vmtest: gate")

    def write(self, folder, name):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            f.write("\n".join(self.lines) + "\n")
        return path


SLOT, TID, X, Y, P = ((3, c) for c in (0x2F, 0x39, 0x35, 0x36, 0x3A))
BTN_TOUCH = (1, 0x14A)


def ev(code, value):
    return code + (value,)
