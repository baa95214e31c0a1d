"""Who a page is to the daemon: the bridge's own user, whichever page it carries. With the bridge run as an
unprivileged user (`nobody`, through setpriv) in front of a daemon run as root, a page gets at most what
both allow: web.conf grants its Origin an app and control, and the daemon's configuration grants the
bridge's user closed apps and control. Needs root to run the bridge as another user; skipped otherwise.

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import os
import pwd
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))  # the client package, from the checkout
import fixtures  # noqa: E402
import webtest  # noqa: E402
import pressured  # noqa: E402
from rawws import Upgraded  # noqa: E402

USER, GROUP = "nobody", "nogroup"
SETPRIV = shutil.which("setpriv")
WHY_NOT = ("needs root, to run the bridge as another user than the daemon" if os.geteuid() != 0
           else "needs setpriv (util-linux)" if not SETPRIV else None)

# The daemon closes org.example.kiosk to the bridge's user and org.example.mail to someone else.
APPS = f"[app org.example.kiosk]\nUser = {USER}\n\n[app org.example.mail]\nUser = root\n"


@unittest.skipIf(WHY_NOT, WHY_NOT)
class TheDaemonDecidesByTheBridgesIdentity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory(prefix="pressured-identity-")
        folder = cls.dir.name
        os.chmod(folder, 0o755)  # the bridge's user reads web.conf and reaches the socket in here
        files = os.path.join(folder, "files")
        os.mkdir(files)
        cls.config = fixtures.write_config(folder, APPS)
        capture = fixtures.one_press(os.path.join(folder, "capture.evemu"))
        # The socket's group is the bridge's: it may connect, and nothing more follows from that.
        cls.daemon = webtest.Daemon(folder, capture, cls.config, extra=("--group", GROUP))
        cls.bridge = webtest.Bridge(
            folder, cls.daemon.socket,
            "[origin http://localhost:{port}]\nApp = org.example.kiosk\nControl = on\n\n"
            "[origin http://127.0.0.1:{port}]\nApp = org.example.mail\n",
            root=files, wrapper=(SETPRIV, f"--reuid={USER}", f"--regid={GROUP}", "--clear-groups"))
        cls.uid = pwd.getpwnam(USER).pw_uid

    @classmethod
    def tearDownClass(cls):
        cls.bridge.stop()
        cls.daemon.stop()
        cls.dir.cleanup()

    def page(self, host):
        p = Upgraded(self.bridge, origin=f"http://{host}:{self.bridge.port}")
        self.addCleanup(p.c.close)
        return p

    def assertRefused(self, answer, *fragments):
        self.assertEqual((answer["type"], answer.get("error")), ("error", "not-permitted"), answer)
        for f in fragments:
            self.assertIn(f, answer["message"])

    def test_the_bridge_says_whom_the_daemon_sees(self):
        self.bridge.wait_for(f"pressured sees every page as this process, uid {self.uid} gid ")

    def test_an_origins_app_is_the_bridges_user_where_the_daemon_allows_it(self):
        kiosk = self.page("localhost")
        self.assertEqual(kiosk.request({"request": "subscribe", "id": 1})["type"], "reply")
        # It is the app now (the bridge added the origin's app to its subscription): it may set its items.
        items = {"request": "setQuickActions", "id": 2, "items": [{"id": "compose", "title": "New"}]}
        answer = kiosk.request(items)
        self.assertEqual((answer["type"], answer.get("app")), ("reply", "org.example.kiosk"), answer)
        # web.conf maps this origin to mail, but the daemon closes mail to the bridge's user.
        mail = self.page("127.0.0.1")
        self.assertRefused(mail.request({"request": "subscribe", "id": 3}),
                           '"org.example.mail" is closed', f"this connection is uid {self.uid}")

    def test_control_needs_both_web_conf_and_the_daemon(self):
        kiosk, mail = self.page("localhost"), self.page("127.0.0.1")
        # Forwarded for the origin with Control = on; refused by the daemon: nobody is not in ControlGroup.
        self.assertRefused(kiosk.request({"request": "set", "id": 1, "sensitivity": "firm"}),
                           f"this connection is uid {self.uid}")
        self.bridge.wait_for("control forwarded")
        with open(self.config, "a") as f:
            f.write(f"\n[pressured]\nControlGroup = {GROUP}\n")
        try:
            with pressured.Client(self.daemon.socket, timeout=10) as root:
                root.request("reload")
            # Now the daemon lets the bridge's user control: the origin with Control = on may.
            answer = kiosk.request({"request": "set", "id": 2, "sensitivity": "firm"})
            self.assertEqual((answer["type"], answer["settings"]["sensitivity"]), ("reply", "firm"))
            # The other origin still may not: the bridge holds it, whatever its user may do.
            self.assertRefused(mail.request({"request": "set", "id": 3, "sensitivity": "light"}),
                               "not forwarded for pages from http://127.0.0.1")
        finally:
            with open(self.config) as f:
                text = f.read()
            with open(self.config, "w") as f:
                f.write(text[:text.index("\n[pressured]\nControlGroup")])
            with pressured.Client(self.daemon.socket, timeout=10) as root:
                root.request("reload")


if __name__ == "__main__":
    unittest.main()
