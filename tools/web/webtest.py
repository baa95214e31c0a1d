"""What the web bridge's tests share: the built binaries, a `pressured --replay` daemon and a
`pressured-web` bridge on their own socket and port, each with its log kept for assertions.

Run the tests with Debian's Python (python3-websockets, python3-selenium serve /usr/bin/python3 only):

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WEB = os.path.join(ROOT, "web")
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import pressured_process  # noqa: E402  (the one way pressured is started and waited for)

BIN = pressured_process.bin_dir()
# How long a daemon or bridge may take to serve (several start at once on a loaded 2-core machine).
START_SECONDS = 20


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A child whose stderr is read line by line into `lines`, so a test can wait for one, started through
    pressured_process: it waits while the child runs until `serves` (a path) exists, or, given `ready_line`,
    until a log line holds that; the child is stopped if it does not get there."""

    def __init__(self, args, name, serves, ready_line=None):
        self.proc = subprocess.Popen(args, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.lines = []
        self._new = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        ready = (lambda: any(ready_line in line for line in self.lines)) if ready_line else None
        try:
            pressured_process.wait_until_serving(self.proc, serves, START_SECONDS, ready=ready, name=name)
        except pressured_process.DidNotStart as e:
            self.stop()
            raise AssertionError(f"{e}; log:\n{self.log()}") from None

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))
            self._new.put(True)
        self._done = True
        self._new.put(False)

    _done = False

    def wait_for(self, fragment, timeout=20):
        """The first log line containing `fragment`, waiting for it to be written."""
        deadline = time.monotonic() + timeout
        checked = 0
        while True:
            while checked < len(self.lines):
                if fragment in self.lines[checked]:
                    return self.lines[checked]
                checked += 1
            if self._done or time.monotonic() > deadline:
                raise AssertionError(f"no log line with {fragment!r}; log:\n" + self.log())
            try:
                self._new.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pass

    def log(self):
        return "\n".join(self.lines)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        # The reader ends at the end of the stream; closing it under the reader would fail its read.
        self._reader.join(timeout=10)
        self.proc.stderr.close()


class Daemon(Process):
    """`pressured --replay CAPTURE` on its own socket and state directory in `folder`; `wrapper` runs it
    under another command (setpriv, say)."""

    def __init__(self, folder, capture, config, speed="1", extra=(), wrapper=()):
        self.socket = os.path.join(folder, "pressured.sock")
        args = ["--replay", capture, "--config", config, "--speed", speed, *extra]
        super().__init__(pressured_process.command(os.path.join(BIN, "pressured"), args, self.socket,
                                                   state_directory=os.path.join(folder, "state"), wrapper=wrapper),
                         "pressured", self.socket)


# What pressured-web logs once it listens and is about to serve.
READY_LINE = "pages connect to"


class Bridge(Process):
    """`pressured-web` on its own port with `conf` as its web.conf (`{port}` replaced by the port), in front
    of the daemon at `daemon_socket`; ready once it has said it listens."""

    def __init__(self, folder, daemon_socket, conf="", root=WEB, port=None, wrapper=()):
        self.port = port or free_port()
        self.conf = os.path.join(folder, "web.conf")
        with open(self.conf, "w") as f:
            f.write(conf.replace("{port}", str(self.port)))
        address = f"127.0.0.1:{self.port}"
        super().__init__([*wrapper, os.path.join(BIN, "pressured-web"), "--config", self.conf, "--socket", daemon_socket,
                          "--listen", address, "--root", root, "--verbose"],
                         "pressured-web", address, READY_LINE)
        self.origin = f"http://localhost:{self.port}"
        self.url = f"ws://localhost:{self.port}/pressured"


class Setup:
    """A temp folder with a daemon replaying `capture` and a bridge in front of it."""

    def __init__(self, capture_writer, speed="1", bridge_conf="", daemon_extra=(), config_extra="", root=WEB):
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-web-")
        import fixtures
        self.capture = capture_writer(os.path.join(self.dir.name, "capture.evemu"))
        self.config = fixtures.write_config(self.dir.name, config_extra)
        self.daemon = Daemon(self.dir.name, self.capture, self.config, speed=speed, extra=daemon_extra)
        self.bridge = Bridge(self.dir.name, self.daemon.socket, bridge_conf, root=root)

    def stop(self):
        self.bridge.stop()
        self.daemon.stop()
        self.dir.cleanup()


def play_touches(daemon, browser, bridge, dpr, origin, touch_count, log=None):
    """Waits for the page to subscribe (which starts the replay), then follows the daemon's touches and
    gives each to Chromium at its screen point less `origin` (CSS pixels, `dpr` device pixels each):
    down at `began`, up at `ended` or `cancelled`, until `touch_count` have ended. `log`, if given,
    gets `("began", contact, x, y)` for each touch given."""
    import pressured  # the Python client, found by the suites' own path set-up
    with pressured.Client(daemon.socket, timeout=20) as watcher:
        deadline = time.monotonic() + 20
        while watcher.status()["subscribers"] == 0:
            assert time.monotonic() < deadline, "the page never subscribed:\n" + bridge.log()
            time.sleep(0.01)
        watcher.subscribe(events=["touches"])
        ended = 0
        for event in watcher.events():
            if event.get("type") != "touch":
                continue
            x, y = event["screenX"] / dpr - origin["x"], event["screenY"] / dpr - origin["y"]
            if event["phase"] == "began":
                if log is not None:
                    log.append(("began", event["contact"], x, y))
                browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
                    "type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": event["contact"]}]})
            elif event["phase"] in ("ended", "cancelled"):
                browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
                ended += 1
                if ended == touch_count:
                    return
