"""The examples in clients/python/examples, run as a user runs them (with the installed package) against
a real `pressured --replay`."""
import os
import subprocess
import sys
import time
import unittest

from running_daemon import EXAMPLES, FIXTURE, Daemon


class ExampleTests(unittest.TestCase):
    def run_example(self, name):
        """The example against a full-speed replay of the fixture that ends with the capture; its output."""
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        try:
            out = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--socket", daemon.socket],
                                 capture_output=True, text=True, timeout=30)
        finally:
            daemon.stop()
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("pressured stopped", out.stdout)
        return out.stdout

    def test_kiosk_example_runs(self):
        out = self.run_example("kiosk_example.py")
        self.assertIn("peek at (1000, 1500)", out)
        self.assertIn("-> open the item", out)

    def test_async_kiosk_example_runs(self):
        out = self.run_example("async_kiosk_example.py")
        self.assertIn("contact 9: peek at (1000, 1500)", out)
        self.assertIn("contact 9: preview closed (opened)", out)
        self.assertIn("contact 10: preview closed (dismissed)", out)

    def test_launcher_and_app_pair(self):
        daemon = Daemon("--replay", "Tests/Fixtures/demo.evemu", "--speed", "4",
                        "--config", os.path.join(EXAMPLES, "launcher_example.conf"))
        try:
            launcher = subprocess.Popen([sys.executable, os.path.join(EXAMPLES, "launcher_example.py"),
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
            daemon.terminate()  # bye: the launcher ends
            launcher.communicate(timeout=10)
            text = "\n".join(lines)
            self.assertIn("launcher: menu for org.example.mail at (1200, 2000): New Message, Inbox", text)
            self.assertIn("launcher: chose compose for org.example.mail (delivered now: False)", text)
            self.assertIn("org.example.mail: opening straight into 'compose'", text)
        finally:
            daemon.stop()


if __name__ == "__main__":
    unittest.main()
