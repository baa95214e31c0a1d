"""End-to-end tests of the blocking client (`pressured.Client`) against a real `pressured --replay`; run by
tools/test-python against the installed package, after `swift build`."""
import json
import tempfile
import unittest

import pressured
from running_daemon import FIXTURE, Daemon, expected_ends, held_peek_capture, replay_lines, served


class ClientTests(unittest.TestCase):
    def test_receives_exactly_what_pressurectl_replay_prints(self):
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        try:
            with pressured.Client(daemon.socket, timeout=10) as client:
                self.assertEqual(client.hello["protocol"], pressured.PROTOCOL_VERSION)
                self.assertEqual(client.hello["version"], pressured.__version__)
                # A device nobody calibrated learns its average touch first.
                self.assertEqual(client.hello["devices"][0]["forceCapability"], "unavailable")
                self.assertEqual(client.hello["devices"][0]["forceUnavailable"], "learning")
                reply = client.subscribe(events=["gestures", "touches"])
                self.assertEqual(reply["events"], ["gestures", "touches"])
                got = [e for e in client.events() if served(e)]
            self.assertEqual(got, expected)
        finally:
            daemon.stop()

    def test_events_that_come_while_a_request_waits_are_kept_in_order(self):
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0")  # it stays up: every ping is answered
        try:
            with pressured.Client(daemon.socket, timeout=10) as client:
                client.subscribe(events=["gestures", "touches"])
                got = []
                for event in client.events():
                    if served(event):
                        got.append(event)
                        if len(got) == len(expected):
                            break
                        if len(got) % 3 == 1:
                            self.assertIsInstance(client.ping(), float)  # events pile up behind its reply
            self.assertEqual(got, expected)
        finally:
            daemon.stop()

    def test_requests_and_errors(self):
        daemon = Daemon("--replay", FIXTURE, calibrated=True)
        try:
            with pressured.Client(daemon.socket, timeout=10) as client:
                self.assertIsInstance(client.ping(), float)
                self.assertEqual(client.devices()[0]["id"], 1)
                status = client.status()
                self.assertEqual((status["devices"], status["clients"], status["contacts"]), (1, 1, 0))
                with self.assertRaises(pressured.PressuredError) as caught:
                    client.request("subscribe", events=["nonsense"])
                self.assertEqual(caught.exception.code, "invalid-argument")
                self.assertFalse(caught.exception.fatal)
                with self.assertRaises(pressured.PressuredError) as caught:
                    client.remove_region("never-set")
                self.assertEqual(caught.exception.code, "invalid-argument")
                settings = client.set(force_touch=False)  # the tests run as root: allowed
                self.assertEqual(settings["forceTouch"], False)
                self.assertEqual(client.set(haptics=False)["haptics"], False)
                kinds = set()
                for event in client.events():
                    kinds.add(event["type"])
                    if kinds >= {"device", "settings"}:
                        break
                self.assertEqual(kinds, {"device", "settings"})
                self.assertEqual(client.reload()["forceTouch"], True)  # the configuration's again
                self.assertEqual(client.reset_learning(), [])  # a configured average has nothing to forget
        finally:
            daemon.stop()

    def test_regions_and_quick_actions(self):
        daemon = Daemon("--replay", FIXTURE, calibrated=True)
        try:
            with pressured.Client(daemon.socket, timeout=10) as app, pressured.Client(daemon.socket) as other:
                self.assertEqual(app.subscribe(app="org.example.mail")["events"], ["gestures"])
                items = [{"id": f"a{n}", "title": f"A{n}"} for n in range(5)]
                answer = app.set_quick_actions(items)
                self.assertEqual((answer["items"], answer["cut"]), (["a0", "a1", "a2", "a3"], ["a4"]))
                region = other.set_region("icon:mail", 0, 0, 10, 10, wants=["quickActions"], app="org.example.mail")
                self.assertEqual((region["region"], region["cut"]), ("icon:mail", []))
                self.assertEqual(other.status()["regions"], 1)
                other.remove_region("icon:mail")
                self.assertTrue(other.choose_action("org.example.mail", "a1")["delivered"])
                action = next(e for e in app.events() if e["type"] == "action")
                self.assertEqual((action["app"], action["action"]), ("org.example.mail", "a1"))
        finally:
            daemon.stop()

    def test_bye_ends_the_events_and_a_request_after_it_says_the_connection_closed(self):
        daemon = Daemon("--replay", FIXTURE)
        try:
            with pressured.Client(daemon.socket, timeout=10) as client:
                client.subscribe(events=["devices"])
                daemon.terminate()
                events = list(client.events())
                self.assertEqual(events[-2:], [{"type": "bye", "reason": "shutdown"},
                                               {"type": "disconnected", "reason": "bye", "synthesized": True}])
                self.assertEqual(list(client.events()), [])  # its end of file: nothing more
                with self.assertRaises(pressured.ConnectionClosed) as caught:
                    client.ping()
                self.assertEqual(caught.exception.reason, "bye")
        finally:
            daemon.stop()

    def test_a_daemon_killed_mid_peek_leaves_nothing_open(self):
        with tempfile.TemporaryDirectory() as directory:
            daemon = Daemon("--replay", held_peek_capture(directory), "--speed", "10", calibrated=True)
            try:
                with pressured.Client(daemon.socket, timeout=10) as client:
                    client.subscribe(events=["gestures", "touches"])
                    events = client.events()
                    before = []
                    for event in events:
                        before.append(event)
                        if event["type"] == "peek":
                            break
                    daemon.kill()
                    after = list(events)
                    with self.assertRaises(pressured.ConnectionClosed) as caught:
                        client.ping()
                self.assertEqual(caught.exception.reason, "lost")
                self.assertIn("lost", str(caught.exception))
                self.assertEqual(after[-3:], expected_ends(before + after[:-3]))
                self.assertEqual([e for e in after[:-3] if e.get("phase") != "moved"], [])  # the peek's frame
            finally:
                daemon.stop()

    def test_a_client_past_max_clients_is_told_why(self):
        daemon = Daemon("--replay", FIXTURE, config="[pressured]\nMaxClients = 1\n")
        try:
            with pressured.Client(daemon.socket, timeout=10) as first:
                second = pressured.Client(daemon.socket, timeout=10)
                with self.assertRaises(pressured.PressuredError) as caught:
                    second.connect()
                second.close()
                self.assertEqual(caught.exception.code, "too-many-clients")
                self.assertTrue(caught.exception.fatal)
                self.assertIn("MaxClients = 1", caught.exception.message)
                self.assertIsNone(second.hello)
                self.assertEqual(first.status()["clients"], 1)  # the one connected goes on
        finally:
            daemon.stop()

    def test_nothing_serving_the_socket_is_an_os_error(self):
        with self.assertRaises(FileNotFoundError):
            pressured.Client("/nonexistent/pressured.sock").connect()


if __name__ == "__main__":
    unittest.main()
