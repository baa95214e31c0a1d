"""End-to-end tests of the Python client against a real `pressured --replay` (run after `swift build`):

    python3 -m unittest discover -s tools/python -v

The daemon binary comes from $PRESSURED_BIN_DIR, else `swift build --show-bin-path`.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pressured_process  # noqa: E402
from pressured_client import PressuredClient, PressuredError  # noqa: E402


BIN = pressured_process.bin_dir()
FIXTURE = "Tests/Fixtures/peek-pop.evemu"


# Calibrates the fixtures' devices (an average touch of 252, as their warm-up taps teach), for tests about
# the protocol rather than learning: force is available from the first touch.
FIXTURE_CALIBRATION = "[pressured fixtures]\nMatchName = pressured fixture*\nPressureAverage = 252\n"


class Daemon:
    def __init__(self, *args, calibrated=False):
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-py-")
        self.socket = os.path.join(self.dir.name, "s.sock")
        if calibrated:
            conf = os.path.join(self.dir.name, "fixtures.conf")
            with open(conf, "w") as f:
                f.write(FIXTURE_CALIBRATION)
            args = ("--config", conf) + args
        log = os.path.join(self.dir.name, "stderr.log")
        self.log = open(log, "w")
        try:
            self.proc = pressured_process.start(os.path.join(BIN, "pressured"), args, self.socket, 10,
                                                state_directory=os.path.join(self.dir.name, "state"), cwd=ROOT,
                                                stderr=self.log)
        except pressured_process.DidNotStart as e:
            with open(log) as f:
                raise RuntimeError(f"{e}: {f.read()}") from None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)
        self.log.close()
        self.dir.cleanup()


def replay_lines(*args):
    out = subprocess.check_output([os.path.join(BIN, "pressurectl"), "replay", *args], cwd=ROOT, text=True)
    return out.splitlines()


class ClientTests(unittest.TestCase):
    def test_receives_exactly_what_pressurectl_replay_prints(self):
        import json
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        try:
            with PressuredClient(daemon.socket, timeout=10) as client:
                self.assertEqual(client.hello["protocol"], 1)
                # A device nobody calibrated learns its average touch first.
                self.assertEqual(client.hello["devices"][0]["forceCapability"], "unavailable")
                self.assertEqual(client.hello["devices"][0]["forceUnavailable"], "learning")
                reply = client.subscribe(events=["gestures", "touches"])
                self.assertEqual(reply["events"], ["gestures", "touches"])
                got = [e for e in client.events()
                       if "contact" in e or (e["type"] == "device" and e["change"] == "changed")]
            self.assertEqual(got, expected)
        finally:
            daemon.stop()

    def test_requests_and_errors(self):
        daemon = Daemon("--replay", FIXTURE, calibrated=True)
        try:
            with PressuredClient(daemon.socket, timeout=10) as client:
                self.assertIsInstance(client.ping(), float)
                self.assertEqual(client.devices()[0]["id"], 1)
                status = client.status()
                self.assertEqual((status["devices"], status["clients"], status["contacts"]), (1, 1, 0))
                with self.assertRaises(PressuredError) as caught:
                    client.request("subscribe", events=["nonsense"])
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
        finally:
            daemon.stop()

    def test_a_client_past_max_clients_is_told_why(self):
        conf = tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False)
        conf.write("[pressured]\nMaxClients = 1\n")
        conf.close()
        daemon = Daemon("--replay", FIXTURE, "--config", conf.name)
        try:
            with PressuredClient(daemon.socket, timeout=10) as first:
                second = PressuredClient(daemon.socket, timeout=10)
                with self.assertRaises(PressuredError) as caught:
                    second.connect()
                second.close()
                self.assertEqual(caught.exception.code, "too-many-clients")
                self.assertTrue(caught.exception.fatal)
                self.assertIn("MaxClients = 1", caught.exception.message)
                self.assertEqual(first.status()["clients"], 1)  # the one connected goes on
        finally:
            daemon.stop()
            os.unlink(conf.name)

    def test_kiosk_example_runs(self):
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        try:
            out = subprocess.run([sys.executable, os.path.join(HERE, "kiosk_example.py"), "--socket", daemon.socket],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("peek at (1000, 1500)", out.stdout)
            self.assertIn("-> open the item", out.stdout)
            self.assertIn("pressured stopped", out.stdout)
        finally:
            daemon.stop()

    def test_launcher_and_app_pair(self):
        daemon = Daemon("--replay", "Tests/Fixtures/demo.evemu", "--speed", "4",
                        "--config", "tools/python/launcher_example.conf")
        try:
            launcher = subprocess.Popen([sys.executable, os.path.join(HERE, "launcher_example.py"),
                                         "--socket", daemon.socket, "launcher"],
                                        stdout=subprocess.PIPE, text=True)
            lines = []
            deadline = time.time() + 30
            while time.time() < deadline:
                line = launcher.stdout.readline()
                if not line:
                    break
                lines.append(line.strip())
                if "opening straight into" in line:
                    break
            daemon.proc.send_signal(signal.SIGTERM)  # bye: the launcher ends
            launcher.communicate(timeout=10)
            text = "\n".join(lines)
            self.assertIn("launcher: menu for org.example.mail at (1200, 2000): New Message, Inbox", text)
            self.assertIn("launcher: chose compose for org.example.mail (delivered now: False)", text)
            self.assertIn("org.example.mail: opening straight into 'compose'", text)
        finally:
            daemon.stop()


if __name__ == "__main__":
    unittest.main()
