"""One VM at a time on the machine: tools/vmtest's boots, other checkouts' and the benchmarks' VMs
(tools/bench-live, tools/bench-filter) all take the same lock file (flock(2))."""
import fcntl
import os


class VMLock:
    """One VM at a time on the machine: the lock file shared with other checkouts' runs and the benchmarks'
    VMs, held already when tools/vmtest runs under `flock LOCK` (an inherited descriptor)."""

    def __init__(self, path, say):
        self.path = path
        self.say = say
        self.file = None

    def __enter__(self):
        if inherited(self.path):
            return self
        self.file = open(self.path, "a")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.say(f"waiting for another VM to finish ({self.path})")
            fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *_):
        if self.file:
            self.file.close()  # (closing the only descriptor releases the lock)
            self.file = None


def inherited(path):
    fds = "/proc/self/fd"
    for fd in os.listdir(fds):
        try:
            if os.readlink(os.path.join(fds, fd)) == os.path.abspath(path):
                return True
        except OSError:
            pass
    return False
