"""A force-feedback vibrator made through uinput: it advertises FF_RUMBLE, FF_PERIODIC and FF_SINE, answers
the kernel's upload and erase requests itself (UI_BEGIN_FF_UPLOAD / UI_END_FF_UPLOAD with the request id the
kernel gave; python3-evdev's begin_upload mis-fills it, so this is written against the ioctls), and records
every play event with its kernel time stamp. `refuse` names effect types it answers with -EINVAL, as a
driver that takes only some kinds does."""
import errno
import fcntl
import os
import select
import struct
import threading

EV_SYN, EV_FF, EV_UINPUT = 0x00, 0x15, 0x0101
UI_FF_UPLOAD, UI_FF_ERASE = 1, 2
FF_RUMBLE, FF_PERIODIC, FF_SINE, FF_GAIN = 0x50, 0x51, 0x5A, 0x60


def _ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (ord("U") << 8) | nr


UI_DEV_CREATE, UI_DEV_DESTROY = _ioc(0, 1, 0), _ioc(0, 2, 0)
UI_DEV_SETUP = _ioc(1, 3, 92)  # struct uinput_setup: input_id (8), name[80], ff_effects_max (4)
UI_SET_EVBIT, UI_SET_FFBIT = _ioc(1, 100, 4), _ioc(1, 107, 4)
EFFECT = 48  # sizeof(struct ff_effect) on x86_64: 16 bytes of header, a 32-byte union
UI_BEGIN_FF_UPLOAD, UI_END_FF_UPLOAD = _ioc(3, 200, 8 + 2 * EFFECT), _ioc(1, 201, 8 + 2 * EFFECT)
UI_BEGIN_FF_ERASE, UI_END_FF_ERASE = _ioc(3, 202, 12), _ioc(1, 203, 12)
EVENT = struct.Struct("qqHHi")  # struct input_event: timeval, type, code, value


class Vibrator:
    def __init__(self, name, refuse=(), slots=16):
        self.name, self.refuse = name, set(refuse)
        self.uploads = {}  # effect id -> (type, replay length in ms)
        self.refused = []  # types answered with -EINVAL
        self.plays = []  # (kernel time in s, effect id)
        self.lock = threading.Lock()
        self.fd = os.open("/dev/uinput", os.O_RDWR | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_FF)
        for bit in (FF_RUMBLE, FF_PERIODIC, FF_SINE, FF_GAIN):
            fcntl.ioctl(self.fd, UI_SET_FFBIT, bit)
        setup = struct.pack("HHHH80sI", 0x06, 0x1234, 0x5678, 1, name.encode(), slots)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        self.node = self._node()
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _node(self):
        sysname = bytearray(64)
        fcntl.ioctl(self.fd, _ioc(2, 44, 64), sysname)  # UI_GET_SYSNAME(64)
        base = "/sys/devices/virtual/input/" + sysname.split(b"\0")[0].decode()
        for _ in range(200):
            events = [e for e in os.listdir(base) if e.startswith("event")] if os.path.isdir(base) else []
            if events and os.path.exists("/dev/input/" + events[0]):
                return "/dev/input/" + events[0]
            select.select([], [], [], 0.01)
        raise RuntimeError(f"{self.name}: no event node under {base}")

    def _answer_upload(self, request_id):
        buf = bytearray(struct.pack("Ii", request_id, 0) + bytes(2 * EFFECT))
        fcntl.ioctl(self.fd, UI_BEGIN_FF_UPLOAD, buf)
        ftype, fid = struct.unpack_from("Hh", buf, 8)
        length = struct.unpack_from("H", buf, 8 + 10)[0]  # replay.length: after type, id, direction, trigger
        retval = 0
        with self.lock:
            if ftype in self.refuse:
                self.refused.append(ftype)
                retval = -errno.EINVAL
            else:
                self.uploads[fid] = (ftype, length)
        struct.pack_into("Ii", buf, 0, request_id, retval)
        fcntl.ioctl(self.fd, UI_END_FF_UPLOAD, buf)

    def _answer_erase(self, request_id):
        buf = bytearray(struct.pack("IiI", request_id, 0, 0))
        fcntl.ioctl(self.fd, UI_BEGIN_FF_ERASE, buf)
        struct.pack_into("Ii", buf, 0, request_id, 0)
        fcntl.ioctl(self.fd, UI_END_FF_ERASE, buf)

    def _run(self):
        while not self.stopping:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if not r:
                continue
            try:
                data = os.read(self.fd, EVENT.size * 64)
            except BlockingIOError:
                continue
            for off in range(0, len(data) - EVENT.size + 1, EVENT.size):
                sec, usec, etype, code, value = EVENT.unpack_from(data, off)
                if etype == EV_UINPUT and code == UI_FF_UPLOAD:
                    self._answer_upload(value)
                elif etype == EV_UINPUT and code == UI_FF_ERASE:
                    self._answer_erase(value)
                elif etype == EV_FF and value == 1:
                    with self.lock:
                        self.plays.append((sec + usec / 1e6, code))

    def played(self):
        with self.lock:
            return list(self.plays)

    def close(self):
        self.stopping = True
        self.thread.join(2)
        try:
            fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        finally:
            os.close(self.fd)
