"""Protocol tests of pressured-web against Python's `websockets` client and raw sockets: every refusal
(Host, Origin, token: 403 and a log line), every close code, control requests, app identity, pings, and
backpressure toward a browser that stops reading. Run after `swift build`, with Debian's Python:

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import asyncio
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))  # the client package, from the checkout
import fixtures  # noqa: E402
import webtest  # noqa: E402
import pressured  # noqa: E402
from rawws import RawClient, Upgraded  # noqa: E402

import websockets  # noqa: E402  (Debian's python3-websockets)


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


def replay_gestures(capture, config):
    out = subprocess.check_output([os.path.join(webtest.BIN, "pressurectl"), "replay", "--config", config, capture],
                                  cwd=webtest.ROOT, text=True)
    return out.splitlines()


class Test(unittest.TestCase):
    def raw(self, port, **kw):
        c = RawClient(port, **kw)
        self.addCleanup(c.close)
        return c

    def page(self, bridge, **kw):
        p = Upgraded(bridge, **kw)
        self.addCleanup(p.c.close)
        return p


class HandshakeAndMessages(Test):
    @classmethod
    def setUpClass(cls):
        cls.setup = webtest.Setup(fixtures.one_press)
        cls.bridge = cls.setup.bridge

    @classmethod
    def tearDownClass(cls):
        cls.setup.stop()

    def host(self):
        return f"localhost:{self.bridge.port}"

    def test_a_page_gets_the_daemons_lines_unchanged(self):
        expected = replay_gestures(self.setup.capture, self.setup.config)
        self.assertEqual([json.loads(l)["type"] for l in expected], ["peek", "pop"])

        async def session():
            async with websockets.connect(self.bridge.url, origin=self.bridge.origin, subprotocols=["pressured.v1"]) as ws:
                self.assertEqual(ws.subprotocol, "pressured.v1")
                hello = json.loads(await ws.recv())
                self.assertEqual((hello["type"], hello["protocol"]), ("hello", 1))
                await ws.send(json.dumps({"request": "subscribe", "id": 1}))
                self.assertEqual(json.loads(await ws.recv())["request"], "subscribe")
                got = [await ws.recv() for _ in expected]
                # websockets pings and waits for the pong: the bridge answers.
                await asyncio.wait_for(await ws.ping(b"x"), 10)
                return got
        self.assertEqual(run(session()), expected)
        self.bridge.wait_for("page from http://localhost")

    def test_refused_host(self):
        c = self.raw(self.bridge.port)
        status, _, _ = c.handshake(host=f"evil.example:{self.bridge.port}", origin=self.bridge.origin)
        self.assertEqual(status, 403)
        self.bridge.wait_for(f"refused GET /pressured with 403: Host 'evil.example:{self.bridge.port}'")
        # Plain requests too: a rebinding page cannot read the files either.
        c = self.raw(self.bridge.port)
        status, _, _ = c.request(f"GET /pressured.js HTTP/1.1\r\nHost: evil.example:{self.bridge.port}\r\n\r\n")
        self.assertEqual(status, 403)

    def test_refused_origin(self):
        c = self.raw(self.bridge.port)
        status, _, _ = c.handshake(host=self.host(), origin="http://evil.example")
        self.assertEqual(status, 403)
        self.bridge.wait_for("with 403: Origin 'http://evil.example' is not allowed")
        c = self.raw(self.bridge.port)
        status, _, _ = c.handshake(host=self.host(), origin=None)
        self.assertEqual(status, 403)
        self.bridge.wait_for("with 403: no Origin (not a browser)")

    def test_bad_handshakes(self):
        c = self.raw(self.bridge.port)
        status, headers, _ = c.handshake(host=self.host(), origin=self.bridge.origin, version="8")
        self.assertEqual((status, headers.get("sec-websocket-version")), (426, "13"))
        c = self.raw(self.bridge.port)
        self.assertEqual(c.request("GET / HTTP/1.1\r\nHost a\r\n\r\n")[0], 400)
        c = self.raw(self.bridge.port)
        self.assertEqual(c.request(f"GET / HTTP/1.1\r\nHost: {self.host()}\r\nX: {'x' * 9000}\r\n\r\n")[0], 431)
        c = self.raw(self.bridge.port)
        self.assertEqual(c.handshake(host=self.host(), origin=self.bridge.origin, path="/other")[0], 404)

    def test_static_files(self):
        c = self.raw(self.bridge.port)
        status, headers, _ = c.request(f"GET /pressured.js HTTP/1.1\r\nHost: {self.host()}\r\n\r\n")
        self.assertEqual((status, headers["content-type"]), (200, "text/javascript; charset=utf-8"))
        body = c.read_body(int(headers["content-length"]))
        with open(os.path.join(webtest.WEB, "pressured.js"), "rb") as f:
            self.assertEqual(body, f.read())
        c = self.raw(self.bridge.port)
        status, headers, _ = c.request(f"GET / HTTP/1.1\r\nHost: {self.host()}\r\n\r\n")
        self.assertEqual((status, headers["content-type"]), (200, "text/html; charset=utf-8"))
        c = self.raw(self.bridge.port)
        self.assertEqual(c.request(f"GET /../../etc/passwd HTTP/1.1\r\nHost: {self.host()}\r\n\r\n")[0], 404)

    def close_code(self, *frames):
        page = self.page(self.bridge)
        for f in frames:
            page.c.send(f)
        _, code, _ = page.c.read_until_close()
        self.assertTrue(page.c.at_eof())
        return code

    def test_close_codes(self):
        F = RawClient.frame
        self.assertEqual(self.close_code(F(1, b'{"request":"ping"}', mask=False)), 1002)    # unmasked
        self.assertEqual(self.close_code(F(1, b"{}", rsv=4)), 1002)                        # RSV1 set
        self.assertEqual(self.close_code(F(3, b"")), 1002)                                 # unknown opcode
        self.assertEqual(self.close_code(F(9, b"", fin=False)), 1002)                      # fragmented ping
        self.assertEqual(self.close_code(F(9, b"x" * 126)), 1002)                          # control over 125
        self.assertEqual(self.close_code(F(1, b"{}", length_form=16)), 1002)               # non-minimal length
        self.assertEqual(self.close_code(F(0, b"{}")), 1002)                               # continuation first
        self.assertEqual(self.close_code(F(1, b"{", fin=False), F(1, b"}")), 1002)          # new message mid-way
        self.assertEqual(self.close_code(F(1, b'"\xc0\x80"')), 1007)                        # overlong UTF-8
        self.assertEqual(self.close_code(F(1, b'"\xe2\x82', fin=False), F(0, b'"')), 1007)  # ends mid-character
        self.assertEqual(self.close_code(F(8, b"\x03")), 1002)                             # one-byte close
        self.assertEqual(self.close_code(F(8, struct.pack("!H", 1005))), 1002)             # reserved close code
        self.assertEqual(self.close_code(F(1, b"x" * 70000)), 1009)                         # over 64 KiB
        self.assertEqual(self.close_code(F(2, b"{}")), 1003)                               # binary
        # A close from the page is echoed and the bridge closes the TCP connection.
        self.assertEqual(self.close_code(F(8, struct.pack("!H", 1000))), 1000)
        self.bridge.wait_for("protocol error: client frames must be masked")

    def test_fragments_with_control_frames_between(self):
        page = self.page(self.bridge)
        F = RawClient.frame
        text = '{"request":"ping","id":"€"}'.encode()
        cut = text.index(b"\xe2") + 1  # inside the euro sign
        page.c.send(F(1, text[:cut], fin=False) + F(9, b"p1") + F(0, text[cut:cut + 1], fin=False) + F(10, b"")
                    + F(9, b"p2") + F(0, text[cut + 1:]))
        self.assertEqual(page.c.read_frame(), (10, b"p1"))
        self.assertEqual(page.c.read_frame(), (10, b"p2"))
        opcode, payload = page.c.read_frame()
        reply = json.loads(payload)
        self.assertEqual((opcode, reply["type"], reply["id"]), (1, "reply", "€"))

    def test_control_requests_are_not_forwarded(self):
        page = self.page(self.bridge)
        for request in ({"request": "set", "id": 1, "forceTouch": False}, {"request": "reload", "id": 2}):
            answer = page.request(request)
            self.assertEqual((answer["type"], answer["error"]), ("error", "not-permitted"), answer)
        self.bridge.wait_for("refused from http://localhost")
        with pressured.Client(self.setup.daemon.socket, timeout=10) as direct:
            self.assertEqual(direct.hello["settings"]["forceTouch"], True)

    def test_regions_vanish_with_the_page(self):
        with pressured.Client(self.setup.daemon.socket, timeout=10) as direct:
            base = direct.status()["regions"]
            page = self.page(self.bridge)
            answer = page.request({"request": "setRegion", "region": "r", "x": 0, "y": 0, "width": 10, "height": 10})
            self.assertEqual(answer["type"], "reply")
            self.assertEqual(direct.status()["regions"], base + 1)
            page.c.send_frame(8, struct.pack("!H", 1001))
            page.c.read_until_close()
            deadline = time.monotonic() + 10
            while direct.status()["regions"] != base and time.monotonic() < deadline:
                time.sleep(0.02)  # polls the daemon's count; the bridge closes the link as it reads the close
            self.assertEqual(direct.status()["regions"], base)


class Configured(Test):
    """Bridges with a web.conf: a token, an Origin mapped to an app, control for one origin, fast pings."""

    def setUp(self):
        self.setups = []

    def tearDown(self):
        for s in self.setups:
            s.stop()

    def start(self, conf, **kw):
        s = webtest.Setup(fixtures.one_press, bridge_conf=conf, **kw)
        self.setups.append(s)
        return s.bridge

    def test_token(self):
        token = "0123456789abcdef0123"
        bridge = self.start(f"[web]\nToken = {token}\n")
        host = f"localhost:{bridge.port}"
        c = self.raw(bridge.port)
        self.assertEqual(c.handshake(host=host, origin=bridge.origin, protocols="pressured.v1")[0], 403)
        bridge.wait_for("with 403: no token offered")
        c = self.raw(bridge.port)
        self.assertEqual(c.handshake(host=host, origin=bridge.origin, protocols="pressured-token.wrongwrongwrong1234")[0], 403)
        bridge.wait_for("with 403: wrong token")
        c = self.raw(bridge.port)
        status, headers, head = c.handshake(host=host, origin=bridge.origin, protocols=f"pressured.v1, pressured-token.{token}")
        self.assertEqual((status, headers.get("sec-websocket-protocol")), (101, "pressured.v1"))
        self.assertNotIn(token, head)

    def test_origin_acts_as_its_app_only(self):
        bridge = self.start("[origin http://localhost:{port}]\nApp = org.example.kiosk\n")
        port = bridge.port
        s = self.setups[-1]
        page = self.page(s.bridge)
        self.assertEqual(page.request({"request": "subscribe", "id": 1})["type"], "reply")
        for bad in ({"request": "subscribe", "id": 2, "app": "org.example.mail"},
                    {"request": "chooseAction", "id": 3, "app": "org.example.mail", "action": "compose"},
                    {"request": "setRegion", "id": 4, "region": "i", "x": 0, "y": 0, "width": 5, "height": 5,
                     "app": "org.example.mail"}):
            answer = page.request(bad)
            self.assertEqual((answer["type"], answer.get("error")), ("error", "not-permitted"), bad)
            self.assertIn("only as 'org.example.kiosk'", answer["message"])
        # Its own app's action reaches it: the bridge filled in `app` when it subscribed.
        page.c.send_frame(1, json.dumps({"request": "chooseAction", "id": 5, "app": "org.example.kiosk",
                                         "action": "compose"}).encode())
        got = []
        while len(got) < 2:
            got.append(json.loads(page.c.read_frame()[1]))
        kinds = {m["type"]: m for m in got}
        self.assertEqual(kinds["reply"]["delivered"], True)
        self.assertEqual((kinds["action"]["app"], kinds["action"]["action"]), ("org.example.kiosk", "compose"))
        # Another origin is refused outright now that origins are configured.
        c = self.raw(s.bridge.port)
        self.assertEqual(c.handshake(host=f"127.0.0.1:{port}", origin=f"http://127.0.0.1:{port}")[0], 403)

    def test_control_is_per_origin(self):
        bridge = self.start("[origin http://localhost:{port}]\nControl = on\n[origin http://127.0.0.1:{port}]\n")
        page = self.page(bridge)
        answer = page.request({"request": "set", "id": 1, "sensitivity": "firm"})
        # Forwarded: the daemon decides by the bridge's identity, here the daemon's own user (allowed).
        self.assertEqual((answer["type"], answer["settings"]["sensitivity"]), ("reply", "firm"))
        bridge.wait_for("control forwarded")
        # The other origin's pages do not get it, though they reach the same daemon as the same user.
        other = Upgraded(bridge, origin=f"http://127.0.0.1:{bridge.port}")
        self.addCleanup(other.c.close)
        for request in ({"request": "reload", "id": 2}, {"request": "resetLearning", "id": 3}):
            answer = other.request(request)
            self.assertEqual((answer["type"], answer["error"], answer["id"]), ("error", "not-permitted", request["id"]))
            self.assertIn(f"not forwarded for pages from http://127.0.0.1:{bridge.port}", answer["message"])

    def test_a_page_that_does_not_answer_pings_is_closed(self):
        bridge = self.start("[web]\nPingInterval = 1\n")
        page = self.page(bridge)
        self.assertEqual(page.c.read_frame(), (9, b"pressured"))
        self.assertTrue(page.c.at_eof())
        bridge.wait_for("no pong for 1 s: disconnected")

    def test_no_daemon_is_503(self):
        with tempfile.TemporaryDirectory() as d:
            bridge = webtest.Bridge(d, os.path.join(d, "nobody.sock"))
            try:
                c = self.raw(bridge.port)
                self.assertEqual(c.handshake(host=f"localhost:{bridge.port}", origin=bridge.origin)[0], 503)
                bridge.wait_for("cannot reach pressured")
            finally:
                bridge.stop()


class Backpressure(Test):
    """A page that stops reading: a contact's moves coalesced and counted, its began and end and every
    gesture never lost silently."""

    def wait_replay_done(self, setup):
        with pressured.Client(setup.daemon.socket, timeout=10) as direct:
            deadline = time.monotonic() + 60
            while direct.status()["devices"] != 0:
                self.assertLess(time.monotonic(), deadline, "the replay did not finish")
                time.sleep(0.05)  # polls the daemon: the device goes when its replay has been served

    def test_touches_are_dropped_and_counted(self):
        # A queue that holds every contact's began and end (they must arrive: 400 contacts, about 180 KiB)
        # beyond its touch limit (half of it) but not their moves (40 frames each, 3.7 MB in all): unread
        # until the replay is over, they are coalesced and counted.
        setup = webtest.Setup(fixtures.light_touches, speed="0", bridge_conf="[web]\nQueueBytes = 1048576\n")
        try:
            expected = subprocess.check_output(
                [os.path.join(webtest.BIN, "pressurectl"), "replay", "--touches", "--config", setup.config, setup.capture],
                cwd=webtest.ROOT, text=True).count('"type":"touch"')
            page = self.page(setup.bridge, receive_buffer=4096)
            page.c.send_frame(1, b'{"request":"subscribe","id":1,"events":["touches","devices"]}')
            self.wait_replay_done(setup)
            touches, dropped, removed, replies = 0, 0, False, 0
            while replies < 2:
                opcode, payload = page.c.read_frame()
                self.assertEqual(opcode, 1, f"a text message, not {opcode} {payload!r}; bridge log:\n{setup.bridge.log()}\n"
                                 f"daemon log:\n{setup.daemon.log()}")
                message = json.loads(payload)
                kind = message["type"]
                touches += kind == "touch"
                dropped += message["touches"] if kind == "dropped" else 0
                removed |= kind == "device" and message["change"] == "removed"
                if removed and kind == "device":
                    page.c.send_frame(1, b'{"request":"ping","id":2}')
                if kind == "reply" and message.get("id") == 2:
                    replies += 1
                    if replies == 1:
                        page.c.send_frame(1, b'{"request":"ping","id":2}')
            self.assertGreater(dropped, 0)
            self.assertEqual(touches + dropped, expected)
        finally:
            setup.stop()

    def test_a_page_that_stops_reading_is_closed_after_its_gestures(self):
        setup = webtest.Setup(fixtures.many_presses, speed="0", bridge_conf="[web]\nQueueBytes = 16384\n")
        try:
            page = self.page(setup.bridge, receive_buffer=4096)
            page.c.send_frame(1, b'{"request":"subscribe","id":1}')
            setup.bridge.wait_for("browser too slow", timeout=60)
            texts, code, reason = page.c.read_until_close()
            self.assertEqual((code, reason), (1008, "too slow"))
            last = json.loads(texts[-1])
            self.assertEqual((last["type"], last["error"], last["fatal"]), ("error", "too-slow", True))
            gestures = [json.loads(t)["type"] for t in texts[1:-1]]
            self.assertTrue(set(gestures) <= {"peek", "pop"} and len(gestures) > 10, gestures[:5])
            # Gestures arrive whole and in order up to the cut: peek, pop, peek, pop...
            self.assertEqual(gestures[:len(gestures) // 2 * 2], ["peek", "pop"] * (len(gestures) // 2))
        finally:
            setup.stop()


if __name__ == "__main__":
    unittest.main()
