"""The shared "start pressured and wait for its socket" (pressured_process.py), against stand-in processes
so each way a start can end is seen without the daemon:

    python3 -m unittest discover -s tools/python -v    (tools/test-python runs it)
"""
import os
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pressured_process  # noqa: E402
from pressured_process import DidNotStart  # noqa: E402

# A stand-in for pressured: binds the socket after `delay` seconds (if not negative), then stays or exits.
STAND_IN = """
import os, socket, sys, time
path, delay, then = sys.argv[sys.argv.index("--socket") + 1], float(sys.argv[-2]), sys.argv[-1]
with open(path + ".pid", "w") as f:
    f.write(str(os.getpid()))
if delay >= 0:
    time.sleep(delay)
    s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1)
if then == "exit":
    sys.exit(3)
time.sleep(600)
"""


class StartTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="pressured-start-")
        self.socket = os.path.join(self.dir.name, "s.sock")

    def tearDown(self):
        self.dir.cleanup()

    def start(self, delay, then, timeout=10, ready=None):
        return pressured_process.start("stand-in", [str(delay), then], self.socket, timeout, ready=ready,
                                       wrapper=[sys.executable, "-c", STAND_IN])

    def test_command_puts_the_socket_and_state_before_the_arguments(self):
        self.assertEqual(pressured_process.command("/bin/pressured", ["--replay", "a.evemu"], "/s", "/state", ["env"]),
                         ["env", "/bin/pressured", "--socket", "/s", "--state-directory", "/state", "--replay", "a.evemu"])
        self.assertEqual(pressured_process.command("p", [], "/s"), ["p", "--socket", "/s"])

    def test_returns_once_the_socket_is_there(self):
        proc = self.start(0.3, "stay")
        try:
            self.assertTrue(os.path.exists(self.socket))
            self.assertIsNone(proc.poll())
        finally:
            proc.kill()
            proc.wait()

    def test_an_exit_before_the_socket_is_did_not_start(self):
        with self.assertRaisesRegex(DidNotStart, r"exited \(status 3\) before serving"):
            self.start(-1, "exit")

    def test_an_exit_right_after_the_socket_is_did_not_start(self):
        with self.assertRaisesRegex(DidNotStart, r"exited \(status 3\) right after"):
            self.start(0, "exit", ready=lambda: os.path.exists(self.socket) and time.sleep(0.5) is None)

    def test_no_socket_in_time_is_did_not_start_and_the_process_is_gone(self):
        # On a thread: a start that left its process running would wait for it (600 s) instead of failing.
        outcome = []

        def attempt():
            try:
                self.start(-1, "stay", timeout=0.5)
            except DidNotStart as e:
                outcome.append(str(e))
        t = threading.Thread(target=attempt, daemon=True)
        t.start()
        t.join(30)
        self.assertFalse(t.is_alive(), "start() is still waiting for a process it should have killed")
        self.assertEqual(len(outcome), 1)
        self.assertRegex(outcome[0], r"did not serve .* within 0.5 s")
        with open(self.socket + ".pid") as f:
            pid = int(f.read())
        with self.assertRaises(ProcessLookupError, msg="killed and reaped"):
            os.kill(pid, 0)

    def test_a_condition_of_the_callers_own(self):
        marker = os.path.join(self.dir.name, "ready")
        proc = self.start(0, "stay", ready=lambda: os.path.exists(marker) or open(marker, "w").close())
        try:
            self.assertTrue(os.path.exists(marker))
        finally:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    unittest.main()
