"""What tools/load-daemon's Python clients read, and the check of it: one client's stream as
docs/protocol.md promises it. (The Swift tests and fuzz targets check the same, and more, with
Tests/WireInvariants/ClientStreamChecker.swift.)"""

import fcntl
import json
import socket
import struct
import termios

SUBSCRIBE_ID = 1
SUBSCRIBE = b'{"request":"subscribe","id":%d,"events":["gestures","touches"]}\n' % SUBSCRIBE_ID


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def read_line(s, limit=1 << 20):
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk or len(buf) > limit:
            raise OSError("connection closed before a line")
        buf += chunk
    return buf


def readable(s):
    """Bytes waiting to be read on s (FIONREAD)."""
    return struct.unpack("i", fcntl.ioctl(s, termios.FIONREAD, b"\0\0\0\0"))[0]


class ContactCheck:
    """One client's stream, under a full queue too: whole JSON lines, every contact it saw begin ends once
    (`ended` or `cancelled`) and nothing of it follows that end, a `pop` or `dismiss` only for a peek it
    was sent, nothing after a fatal error or `bye`. It also counts the answers (`reply`, `error`) to each
    request id that came before `bye`, and remembers how the stream ended."""

    def __init__(self):
        self.buf, self.open, self.began, self.problems, self.fatal = b"", set(), 0, [], None
        self.ended, self.peeks = set(), set()
        self.answers, self.bye, self.last = {}, False, None

    def feed(self, data):
        lines = (self.buf + data).split(b"\n")
        self.buf = lines.pop()
        for raw in lines:
            self.line(raw)

    def line(self, raw):
        try:
            o = json.loads(raw)
        except ValueError:
            self.problems.append("not JSON: %r" % raw[:80])
            return
        if self.fatal:
            self.problems.append("a line after the fatal error %s" % self.fatal)
        if self.bye:
            self.problems.append("a line after bye: %r" % raw[:80])
        kind = self.last = o.get("type")
        if o.get("fatal"):
            self.fatal = o.get("error")
        if kind == "bye":
            self.bye = True
        elif kind in ("reply", "error") and "id" in o:
            self.answers[o["id"]] = self.answers.get(o["id"], 0) + 1
        if kind not in ("touch", "peek", "pop", "dismiss", "quickActions", "longPress"):
            return
        key, phase = (o.get("device"), o.get("contact")), o.get("phase")
        if key in self.ended:
            self.problems.append("%s %s of contact %s after its end" % (kind, phase or "", key))
        if kind == "peek":
            self.peeks.add(key)
        elif kind in ("pop", "dismiss"):
            if key not in self.peeks:
                self.problems.append("%s of contact %s, whose peek it was not sent" % (kind, key))
            self.peeks.discard(key)
        if kind != "touch":
            return
        if phase == "began":
            self.began += 1
            if key in self.open:
                self.problems.append("contact %s began twice" % (key,))
            self.open.add(key)
        elif key not in self.open:
            self.problems.append("%s of contact %s, which it did not see begin" % (phase, key))
        elif phase in ("ended", "cancelled"):
            self.open.discard(key)
            self.ended.add(key)

    def read_to_close(self, s, timeout=15):
        """Reads and checks the rest of the stream, to the daemon's close; returns how it ended: "closed"
        (end of file), "reset" (the daemon closed with something of ours unread; the bytes it had written
        still came first) or "timeout"."""
        try:
            s.setblocking(True)
            s.settimeout(timeout)
            while True:
                data = s.recv(65536)
                if not data:
                    return "closed"
                self.feed(data)
        except socket.timeout:
            return "timeout"
        except OSError:
            return "reset"

    def end(self, whole=True):
        """The stream has ended: it must end at a line boundary, and, if `whole` (the daemon ended it with
        `bye`, a fatal error, or after the client's end of file), every contact and peek it saw begin has
        ended. Returns whether it ended inside a line (torn)."""
        torn = bool(self.buf)
        if torn:
            self.problems.append("the stream ended inside a line: %r" % self.buf[:80])
        if whole:
            for key in sorted(self.open, key=str):
                self.problems.append("contact %s began and never ended" % (key,))
            for key in sorted(self.peeks, key=str):
                self.problems.append("the peek of contact %s never ended" % (key,))
        return torn

    def finish(self, s, timeout=15):
        """Ends the client's side (`shutdown(SHUT_WR)`: the daemon answers, ends the contacts still open
        for it with `cancelled` and closes) and reads the rest, to the daemon's close. Returns whether the
        daemon had disconnected it for being too slow."""
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the daemon hung up already: what it wrote is still there to read
        how = self.read_to_close(s, timeout)
        if how != "closed":
            self.problems.append("the daemon did not close the connection after the client's end of file (%s)" % how)
        self.end()
        return self.fatal == "too-slow"
