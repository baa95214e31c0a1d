"""pressured-web at its descriptor limit (started under `prlimit --nofile=N:N`), with more browsers than
descriptors: the pages it has keep being served, a browser refused gets HTTP 503 with a short body
(before any upgrade: on the reserve descriptor, or when the page's connection to the daemon cannot be
opened), the loop does not spin (its count of accept4 calls, logged at exit, stays within a few per
connection), and a new page is served once another leaves. Run after `swift build`, with Debian's Python:

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402
import webtest  # noqa: E402
from rawws import RawClient  # noqa: E402

# Descriptors the bridge keeps whatever it serves (stdio, epoll, timerfd, signalfd, the listener, the
# reserve) are 8; each page takes two (the browser and its daemon connection): room for three pages and
# a browser accepted with no descriptor left for its daemon connection.
LIMIT = 15
# Browsers sent at the bridge while it is full.
FLOOD = 40
REFUSAL = "no file descriptor left"


@unittest.skipUnless(shutil.which("prlimit"), "prlimit (util-linux) runs the bridge under a low RLIMIT_NOFILE")
class AtTheDescriptorLimit(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-web-limits-")
        self.addCleanup(self.dir.cleanup)
        capture = fixtures.many_presses(os.path.join(self.dir.name, "capture.evemu"))
        config = fixtures.write_config(self.dir.name)
        self.daemon = webtest.Daemon(self.dir.name, capture, config)
        self.addCleanup(self.daemon.stop)
        self.bridge = webtest.Bridge(self.dir.name, self.daemon.socket, wrapper=("prlimit", f"--nofile={LIMIT}:{LIMIT}", "--"))
        self.addCleanup(self.bridge.stop)

    def upgrade(self):
        """A handshake on a new connection: (status, body, the client)."""
        c = RawClient(self.bridge.port)
        self.addCleanup(c.close)
        status, headers, _ = c.handshake(host=f"localhost:{self.bridge.port}", origin=self.bridge.origin)
        body = c.read_body(int(headers.get("content-length", "0"))).decode() if status != 101 else ""
        return status, body, c

    @staticmethod
    def status(c):
        """Asks the daemon for its status through page `c`; the first reply or error (events skipped)."""
        c.send_frame(1, json.dumps({"request": "status", "id": 7}).encode())
        while True:
            message = json.loads(c.read_frame()[1])
            if message["type"] in ("reply", "error"):
                return message

    def test_pages_kept_refused_answered_no_spin_room_again(self):
        pages = []
        refused = 0
        # Pages until the first refusal: every one before it is served.
        for _ in range(LIMIT):
            status, body, c = self.upgrade()
            if status != 101:
                self.assertEqual(status, 503, body)
                self.assertIn(REFUSAL, body)
                refused += 1
                c.close()
                break
            c.read_frame()  # hello
            pages.append(c)
        self.assertGreaterEqual(len(pages), 1, self.bridge.log())
        self.assertEqual(refused, 1, f"{len(pages)} pages and no refusal under RLIMIT_NOFILE {LIMIT}")
        # A browser that says nothing holds the last descriptor (till its request deadline): the flood
        # then meets accept4's EMFILE and is answered on the reserve descriptor.
        idle = RawClient(self.bridge.port)
        self.addCleanup(idle.close)
        self.bridge.wait_for(f"connected (connection {len(pages) + 2})")
        # A flood while full: each is answered 503 and closed, none waits unanswered.
        for _ in range(FLOOD):
            status, body, c = self.upgrade()
            self.assertEqual(status, 503, body)
            self.assertIn(REFUSAL, body)
            self.assertTrue(c.at_eof())
            c.close()
        self.bridge.wait_for(REFUSAL)
        warnings = [line for line in self.bridge.lines if REFUSAL in line]
        self.assertEqual(len(warnings), 1, "one warning for the spell:\n" + "\n".join(warnings))
        # The pages it has are still served: each gets a reply from the daemon.
        for c in pages:
            self.assertEqual(self.status(c)["type"], "reply")
        # One leaves (and the silent browser): a new page is served, and the spell is summed up.
        idle.close()
        pages.pop().close()
        self.bridge.wait_for("disconnected")
        status, body, c = self.upgrade()
        self.assertEqual(status, 101, body)
        self.bridge.wait_for("file descriptors free again")
        self.bridge.stop()
        figures = next(line for line in self.bridge.lines if "pressured-web stopped" in line)
        attempts = int(re.search(r"accept4 called (\d+) times", figures).group(1))
        answered = int(re.search(r"(\d+) answered 503", figures).group(1))
        failed = int(re.search(r"(\d+) failed", figures).group(1))
        connections = len(pages) + 1 + 1 + 1 + FLOOD + 1
        self.assertEqual(answered, FLOOD + 1, figures)
        # The flood meets EMFILE at accept4 and is answered on the reserve; the call that ends each wake
        # fails so too (Linux's accept4 wants a descriptor before it looks for a connection).
        self.assertGreaterEqual(failed, FLOOD, f"the flood is refused at accept4 (EMFILE), on the reserve: {figures}")
        self.assertLessEqual(failed, 2 * FLOOD + 2, figures)
        # A refused browser's wake costs four accept4 calls at most (the failure, the one on the reserve's
        # number, and the two that find nobody: EMFILE, then on the reserve), a served one two: a
        # spinning loop would make thousands.
        self.assertLessEqual(attempts, 4 * connections + 4, figures)


if __name__ == "__main__":
    unittest.main()
