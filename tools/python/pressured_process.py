"""Starting pressured and waiting until it serves, for everything that runs one: the Python client package's
tests (clients/python/tests/running_daemon.py), the web bridge's tests (tools/web/webtest.py, which starts
pressured-web the same way), tools/load-daemon, tools/bench-daemon and the vmtest guest
(tools/vmtest.d/vmguest/harness.py, which finds this folder on sys.path beside clients/python). `bin_dir()`
says where the built binaries are.

Ready means the socket exists by default (pressured binds it before it serves); a caller that needs more
(the capture loaded, say) gives its own `ready`. Whatever stops the wait -- the process exiting, the time
running out -- is a DidNotStart, which each caller turns into its own kind of failure with its own log.
Standard library only: the guest has nothing else.
"""
import os
import subprocess
import time

# How often the condition is looked at while waiting.
POLL_SECONDS = 0.02


def bin_dir():
    """Where the built binaries are: $PRESSURED_BIN_DIR, else `swift build --show-bin-path` (the debug build)."""
    if os.environ.get("PRESSURED_BIN_DIR"):
        return os.environ["PRESSURED_BIN_DIR"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=root, text=True).strip()


class DidNotStart(Exception):
    """pressured exited, or was not ready in time; the message says which (the caller adds its log)."""


def command(binary, args, socket, state_directory=None, wrapper=()):
    """`[*wrapper, binary, --socket SOCKET (, --state-directory DIR), *args]`."""
    state = ["--state-directory", state_directory] if state_directory else []
    return [*wrapper, binary, "--socket", socket, *state, *args]


def wait_until_serving(proc, socket, timeout, ready=None, name="pressured"):
    """Returns once `ready()` holds (default: `socket` exists) while `proc` (a Popen) still runs; raises
    DidNotStart when it exits first or `timeout` seconds pass. `socket` is what it serves (a path, an
    address) and `name` what it is, for the messages."""
    ready = ready or (lambda: os.path.exists(socket))
    deadline = time.monotonic() + timeout
    while True:
        if ready():
            if proc.poll() is None:
                return
            raise DidNotStart(f"{name} exited (status {proc.returncode}) right after making {socket}")
        if proc.poll() is not None:
            raise DidNotStart(f"{name} exited (status {proc.returncode}) before serving {socket}")
        if time.monotonic() > deadline:
            raise DidNotStart(f"{name} did not serve {socket} within {timeout} s")
        time.sleep(POLL_SECONDS)


def start(binary, args, socket, timeout, state_directory=None, wrapper=(), ready=None, **popen):
    """Runs `command(...)` with `subprocess.Popen(**popen)` and waits until it serves; returns the Popen. On
    DidNotStart the process is killed (and reaped) before the exception goes on."""
    proc = subprocess.Popen(command(binary, args, socket, state_directory, wrapper), **popen)
    try:
        wait_until_serving(proc, socket, timeout, ready)
    except DidNotStart:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        raise
    return proc
