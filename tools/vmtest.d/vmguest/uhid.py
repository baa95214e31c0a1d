"""A HID device made through /dev/uhid (linux/uhid.h), standard library only: created with its report
descriptor and identity, it answers the kernel's GET_REPORT and SET_REPORT requests on a thread (unanswered,
each stalls the driver's probe for seconds) and sends input reports once the kernel has started it."""
import errno
import os
import select
import struct
import threading
import time

UHID_DESTROY, UHID_START, UHID_GET_REPORT, UHID_GET_REPORT_REPLY = 1, 2, 9, 10
UHID_CREATE2, UHID_INPUT2, UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 11, 12, 13, 14
UHID_FEATURE_REPORT = 0
EVENT_SIZE = 4 + 128 + 64 + 64 + 2 + 2 + 4 + 4 + 4 + 4 + 4096  # struct uhid_event: its largest member, create2
BUS = {"USB": 0x03, "I2C": 0x18}


class UhidError(RuntimeError):
    pass


class UhidDevice:
    def __init__(self, name, descriptor, bus, vendor, product, answer):
        """answer(report_id) -> bytes of the feature report (its ID byte first), or None for an error reply."""
        self.answer = answer
        self.started = threading.Event()
        self.gets = self.sets = 0
        self.fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC | os.O_NONBLOCK)
        self.closing = False
        create = struct.pack("<I128s64s64sHHIIII", UHID_CREATE2, name.encode()[:127], b"", b"", len(descriptor), bus,
                             vendor, product, 0, 0) + bytes(descriptor)
        self._write(create)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _write(self, event):
        event = event.ljust(EVENT_SIZE, b"\0")
        while True:
            try:
                os.write(self.fd, event)
                return
            except BlockingIOError:
                select.select([], [self.fd], [], 1)

    def _serve(self):
        while not self.closing:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if not r:
                continue
            try:
                ev = os.read(self.fd, EVENT_SIZE)
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EINTR):
                    continue
                return  # closed
            (kind,) = struct.unpack_from("<I", ev)
            if kind == UHID_START:
                self.started.set()
            elif kind == UHID_GET_REPORT:
                rid, rnum, rtype = struct.unpack_from("<IBB", ev, 4)
                self.gets += 1
                data = self.answer(rnum) if rtype == UHID_FEATURE_REPORT else None
                if data is None:
                    self._write(struct.pack("<IIHH", UHID_GET_REPORT_REPLY, rid, errno.EIO, 0))
                else:
                    self._write(struct.pack("<IIHH", UHID_GET_REPORT_REPLY, rid, 0, len(data)) + data)
            elif kind == UHID_SET_REPORT:
                (rid,) = struct.unpack_from("<I", ev, 4)
                self.sets += 1
                self._write(struct.pack("<IIH", UHID_SET_REPORT_REPLY, rid, 0))

    def wait_started(self, timeout):
        if not self.started.wait(timeout):
            raise UhidError(f"no UHID_START within {timeout} s")

    def send(self, report):
        self._write(struct.pack("<IH", UHID_INPUT2, len(report)) + report)

    def destroy(self):
        if self.closing:
            return
        self.closing = True
        try:
            self._write(struct.pack("<I", UHID_DESTROY))
        finally:
            self.thread.join(2)
            os.close(self.fd)


class Pacer:
    """Sends frames at their times (seconds from the first), polling the clock for the last 2 ms before each
    (waking from a sleep is slow in an emulated guest). A frame more than 20 ms late (the guest did not run
    us) shifts the rest by as much, rather than sending a burst; `stalls` counts such pauses."""

    def __init__(self):
        self.base = None
        self.stalls = 0
        self.late_max = 0.0

    def wait_until(self, t):
        now = time.monotonic()
        if self.base is None:
            self.base = now - t
        due = self.base + t
        while True:
            now = time.monotonic()
            left = due - now
            if left <= 0:
                break
            time.sleep(left - 0.002 if left > 0.003 else 0)
        late = now - due
        if late > 0.02:
            self.stalls += 1
            self.base += late
        else:
            self.late_max = max(self.late_max, late)
