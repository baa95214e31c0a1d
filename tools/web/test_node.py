"""pressured.js under Debian's Node (the Electron main-process path: the daemon's Unix socket), the Electron
helper (electron-preload.cjs against a fake ipcRenderer, electron-main.js against the daemon), the
TypeScript declarations under Debian's tsc (`tsc --noEmit` on a small typed example), and both against
docs/protocol.md's table of names:

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import webtest  # noqa: E402


class NodeTests(unittest.TestCase):
    def run_node_test(self, name):
        """Runs the Node test file `name` against a daemon of its own (its replay starts with the first
        subscription); it must pass all 3 of its tests."""
        setup = webtest.Setup(__import__("fixtures").one_press)
        try:
            env = dict(os.environ, PRESSURED_SOCKET=setup.daemon.socket)
            out = subprocess.run(["node", "--test", os.path.join(HERE, "node", name)],
                                 capture_output=True, text=True, timeout=60, env=env)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("# pass 3", out.stdout)
            self.assertIn("# fail 0", out.stdout)
        finally:
            setup.stop()

    def test_node_client_against_the_unix_socket(self):
        self.run_node_test("connection.test.mjs")

    def test_electron_helper_against_a_fake_ipc_and_the_unix_socket(self):
        self.run_node_test("electron.test.mjs")

    def test_a_lost_connection_ends_what_was_open(self):
        """node/disconnect.test.mjs: a fake daemon hangs up mid-peek (no daemon needed)."""
        out = subprocess.run(["node", "--test", os.path.join(HERE, "node", "disconnect.test.mjs")],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("# pass 3", out.stdout)
        self.assertIn("# fail 0", out.stdout)

    def test_the_module_and_its_declarations_know_every_name_of_the_protocol(self):
        """node/vocabulary.test.mjs: docs/protocol.md's table of names against pressured.js, pressured-dom.js
        and pressured.d.ts (no daemon)."""
        out = subprocess.run(["node", "--test", os.path.join(HERE, "node", "vocabulary.test.mjs")],
                             capture_output=True, text=True, timeout=180)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("# fail 0", out.stdout)

    def test_typescript_declarations(self):
        out = subprocess.run(["tsc", "-p", os.path.join(HERE, "node")], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)


if __name__ == "__main__":
    unittest.main()
