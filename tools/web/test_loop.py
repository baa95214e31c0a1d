"""The bridge's loop around its decisions: the sockets systemd passes (several, answered under their own
addresses), SIGHUP reading web.conf again without dropping a page, and pages told why the daemon went
(1001 when it said bye, 1011 when it just hung up). Run after `swift build`, with Debian's Python:

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import os
import signal
import socket
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402
import webtest  # noqa: E402
from rawws import RawClient, Upgraded  # noqa: E402

# What systemd does for a .socket unit with several ListenStream= lines: bind and listen each, then exec
# the service with them as fds 3, 4, ..., LISTEN_FDS=N and LISTEN_PID set to the service's own pid.
ACTIVATE = """
import os, socket, sys
count, argv = int(sys.argv[1]), sys.argv[2:]
sockets = [socket.socket() for _ in range(count)]
for s in sockets:
    s.bind(("127.0.0.1", 0)); s.listen(8)
# Out of the way first, so that placing one at 3 + i never closes another still to be placed.
high = [os.dup2(s.fileno(), 100 + i) for i, s in enumerate(sockets)]
for i, fd in enumerate(high):
    os.dup2(fd, 3 + i); os.set_inheritable(3 + i, True)
os.environ.update(LISTEN_FDS=str(count), LISTEN_PID=str(os.getpid()))
os.execv(argv[0], argv)
"""


class Test(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-loop-")
        self.addCleanup(self.dir.cleanup)

    def raw(self, port):
        c = RawClient(port)
        self.addCleanup(c.close)
        return c

    def page(self, bridge, origin=None):
        p = Upgraded(bridge, origin=origin)
        self.addCleanup(p.c.close)
        return p


class SystemdSockets(Test):
    def test_every_passed_socket_is_served_under_its_own_address(self):
        daemon = webtest.Daemon(self.dir.name, fixtures.one_press(os.path.join(self.dir.name, "c.evemu")),
                                fixtures.write_config(self.dir.name))
        self.addCleanup(daemon.stop)
        args = [sys.executable, "-c", ACTIVATE, "2", os.path.join(webtest.BIN, "pressured-web"),
                "--config", "/dev/null", "--socket", daemon.socket, "--root", webtest.WEB, "--verbose"]
        bridge = webtest.Process(args, "pressured-web", "the sockets passed", webtest.READY_LINE)
        self.addCleanup(bridge.stop)
        ports = [int(line.split(":")[-1].rstrip(")")) for line in bridge.lines if "from systemd (127.0.0.1:" in line]
        self.assertEqual(len(ports), 2, bridge.log())
        for port in ports:
            # No Listen in web.conf: the Host values answered are the passed sockets' own.
            c = self.raw(port)
            status, _, _ = c.request(f"GET /pressured.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
            self.assertEqual(status, 200, bridge.log())
            c = self.raw(port)
            self.assertEqual(c.handshake(host=f"localhost:{port}", origin=f"http://localhost:{port}")[0], 101)
            self.assertEqual(c.read_frame()[0], 1)  # the daemon's hello, through this socket
        c = self.raw(ports[0])
        self.assertEqual(c.request(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n\r\n")[0], 403,
                         "the default port is not one of the passed sockets'")


class Reload(Test):
    def test_sighup_reads_web_conf_again_and_keeps_the_pages(self):
        setup = webtest.Setup(fixtures.one_press, bridge_conf="[origin http://localhost:{port}]\n")
        self.addCleanup(setup.stop)
        bridge = setup.bridge
        other = f"http://127.0.0.1:{bridge.port}"
        before = self.page(bridge)
        self.assertEqual(self.raw(bridge.port).handshake(host=f"localhost:{bridge.port}", origin=other)[0], 403)
        with open(bridge.conf, "a") as f:
            f.write(f"[origin {other}]\nApp = org.example.other\n")
        bridge.proc.send_signal(signal.SIGHUP)
        bridge.wait_for("configuration reloaded: ")
        after = self.page(bridge, origin=other)
        self.assertEqual(after.request({"request": "ping", "id": 1})["type"], "reply")
        self.assertEqual(before.request({"request": "ping", "id": 2})["type"], "reply", "the page from before stays")


class DaemonGone(Test):
    def test_a_daemon_that_says_bye_is_going_away(self):
        setup = webtest.Setup(fixtures.one_press)
        self.addCleanup(setup.stop)
        page = self.page(setup.bridge)
        setup.daemon.stop()
        texts, code, reason = page.c.read_until_close()
        self.assertEqual((code, reason), (1001, "pressured stopped"))
        self.assertIn('"type":"bye"', texts[-1], "the daemon's bye reaches the page before the close")

    def test_a_daemon_that_hangs_up_failed(self):
        path = os.path.join(self.dir.name, "standin.sock")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(path)
        listener.listen(1)
        self.addCleanup(listener.close)

        def hang_up():
            conn, _ = listener.accept()  # a daemon that closes before its hello
            conn.close()
        threading.Thread(target=hang_up, daemon=True).start()
        bridge = webtest.Bridge(self.dir.name, path)
        self.addCleanup(bridge.stop)
        c = self.raw(bridge.port)
        self.assertEqual(c.handshake(host=f"localhost:{bridge.port}", origin=bridge.origin)[0], 101)
        self.assertEqual(c.read_until_close()[1:], (1011, "pressured failed"))
        bridge.wait_for("pressured closed the page's connection")


if __name__ == "__main__":
    unittest.main()
