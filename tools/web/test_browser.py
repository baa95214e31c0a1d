"""The JS module in a real browser: Debian's headless Chromium (selenium, chromium-driver) loads a test page
from pressured-web, the daemon replays a capture made for that page's layout, and the same touches are
injected into Chromium through the DevTools protocol (`Input.dispatchTouchEvent`) as the daemon reports them,
so the browser sees the finger as a compositor would show it. Asserts the DOM events each element got, their
order and detail, that an element that did not opt in got nothing, click suppression, link previews, the
compatibility layers, and that a quick action chosen in the page reaches the app.

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import json
import os
import shutil
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

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
# Skipped only where Chromium itself is absent (a machine set up without `tools/setup-debian --browser`);
# CI sets PRESSURED_REQUIRE_BROWSER=1, where its absence is a failure. With Chromium there, a missing
# driver or selenium fails as loudly as any other breakage.
ABSENT = None if os.path.exists(CHROMIUM) else (
    f"the browser tests need Chromium ({CHROMIUM}), which is not installed: tools/setup-debian --browser")
REQUIRED = os.environ.get("PRESSURED_REQUIRE_BROWSER") == "1"

APP = "org.example.webtest"
IDS = ["peekpop", "longpress", "plain", "quick", "compose", "link-dismiss", "link-pop", "compat"]


def chromium():
    """Headless Chromium through Debian's chromium-driver and python3-selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=800,600", "--window-position=0,0",
              "--force-device-scale-factor=1", "--disable-extensions", "--no-first-run"]:
        options.add_argument(a)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def served_root(folder):
    """The module and the test pages in one folder, as a kiosk would install its page beside the module."""
    root = os.path.join(folder, "root")
    os.makedirs(root)
    for name in os.listdir(webtest.WEB):
        shutil.copy(os.path.join(webtest.WEB, name), root)
    for name in os.listdir(os.path.join(HERE, "pages")):
        shutil.copy(os.path.join(HERE, "pages", name), root)
    return root


def script(layout, origin):
    """The capture: one touch after another at the centre of the named elements (screen pixels are the
    viewport's client coordinates plus the viewport's place on the screen)."""
    r = fixtures.Recorder(start=1.5)

    def at(name):
        box = layout[name]
        return fixtures.device_units(box["x"] + box["width"] / 2 + origin["x"], box["y"] + box["height"] / 2 + origin["y"])

    ramp, POP = fixtures.ramp, fixtures.POP
    peek_and_lift = ramp(60, 500, 10) + [500] * 10 + ramp(400, 60, 5)
    r.touch(*at("peekpop"), ramp(60, 500, 10) + ramp(500, POP, 10) + [POP] * 3 + ramp(900, 100, 5), gap=0.5)
    r.touch(*at("longpress"), [150] * 80, gap=0.5)
    r.touch(*at("plain"), [80] * 8, gap=0.5)
    r.touch(*at("plain"), peek_and_lift, gap=0.5)
    r.touch(*at("quick"), ramp(60, 500, 10) + [500] * 10 + ramp(400, 60, 5), gap=0.6)
    r.touch(*at("compose"), [80] * 8, gap=0.5)
    r.touch(*at("link-dismiss"), peek_and_lift, gap=0.5)
    r.touch(*at("link-pop"), ramp(60, 500, 10) + ramp(500, POP, 10) + [POP] * 3 + ramp(900, 100, 5), gap=0.5)
    r.touch(*at("compat"), peek_and_lift, gap=0.5)
    return r, 9


@unittest.skipIf(ABSENT and not REQUIRED, ABSENT)
class BrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if ABSENT:  # and required, or the class would be skipped
            raise AssertionError(ABSENT + " (required here: PRESSURED_REQUIRE_BROWSER=1)")
        from selenium.webdriver.support.ui import WebDriverWait
        cls.dir = tempfile.TemporaryDirectory(prefix="pressured-browser-")
        folder = cls.dir.name
        daemon_socket = os.path.join(folder, "pressured.sock")
        port = webtest.free_port()
        # The bridge first: the page loads and keeps reconnecting (503) until the daemon is there, which
        # starts only once the page's layout is known and the capture written for it.
        cls.bridge = webtest.Bridge(folder, daemon_socket, f"[origin http://localhost:{port}]\nApp = {APP}\n",
                                    root=served_root(folder), port=port)
        cls.browser = chromium()
        cls.daemon = None
        cls.browser.get(f"http://localhost:{port}/test.html")
        cls.geometry = cls.browser.execute_script(
            "return {screenX, screenY, outerWidth, outerHeight, innerWidth, innerHeight, dpr: devicePixelRatio}")
        cls.origin = cls.browser.execute_script("return page.viewportOrigin()")
        cls.layout = cls.browser.execute_script(
            "return Object.fromEntries(arguments[0].map((id) => { const r = document.getElementById(id)"
            ".getBoundingClientRect(); return [id, {x: r.left, y: r.top, width: r.width, height: r.height}]; }))", IDS)
        recorder, cls.touch_count = script(cls.layout, cls.origin)
        capture = recorder.write(os.path.join(folder, "page.evemu"))
        config = fixtures.write_config(folder)
        cls.daemon = webtest.Daemon(folder, capture, config, speed="1")
        cls.cdp_log = []
        try:
            cls.play()
            # The last touch's end as the page heard it (every layer hears it in the same dispatch).
            WebDriverWait(cls.browser, 20, poll_frequency=0.05).until(lambda d: d.execute_script(
                "return events.some((e) => e.target === 'compat' && e.type === 'pressured:forcechange' && e.detail.phase === 'ended')"))
        except Exception:
            cls.tearDownClass()
            raise
        cls.events = cls.browser.execute_script("return events")
        cls.regions = cls.browser.execute_script(
            "return Object.fromEntries([...page.watched.values()].map((e) => [e.element.id, e.screenRect]))")

    @classmethod
    def play(cls):
        """The daemon's touches, given to Chromium as it reports them (``webtest.play_touches``)."""
        webtest.play_touches(
            cls.daemon, cls.browser, cls.bridge, cls.geometry["dpr"], cls.origin, cls.touch_count, log=cls.cdp_log)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.bridge.stop()
        if cls.daemon:
            cls.daemon.stop()
        cls.dir.cleanup()

    def of(self, target):
        return [e for e in self.events if e["target"] == target]

    def types(self, target):
        return [e["type"] for e in self.of(target)]

    def test_the_first_touch_began_after_the_watcher_subscribed(self):
        # The replay started with the page's subscription; the watcher that drives Chromium must have seen
        # every touch from its start, or the page and the browser would disagree.
        self.assertEqual(len(self.cdp_log), self.touch_count)

    def test_regions_are_the_elements_in_screen_pixels(self):
        for name in ["peekpop", "longpress", "quick", "compat"]:
            box, region = self.layout[name], self.regions[name]
            self.assertAlmostEqual(region["x"], box["x"] + self.origin["x"], delta=0.01)
            self.assertAlmostEqual(region["y"], box["y"] + self.origin["y"], delta=0.01)
            self.assertAlmostEqual(region["width"], box["width"], delta=0.01)
        self.assertNotIn("plain", self.regions)

    def test_peek_and_pop(self):
        types = [t for t in self.types("peekpop") if not t.startswith("webkit")]
        self.assertEqual(types, ["pressured:forcechange", "pressured:forcechange", "pressured:peek", "pressured:pop",
                                 "pressured:forcechange"], self.of("peekpop"))
        changes = [e["detail"] for e in self.of("peekpop") if e["type"] == "pressured:forcechange"]
        self.assertEqual([c["phase"] for c in changes], ["began", "moved", "ended"])
        peek = next(e["detail"] for e in self.of("peekpop") if e["type"] == "pressured:peek")
        pop = next(e["detail"] for e in self.of("peekpop") if e["type"] == "pressured:pop")
        self.assertTrue(changes[0]["force"] < peek["force"] < pop["force"], (changes[0], peek, pop))
        self.assertAlmostEqual(peek["maximumPossibleForce"], 1000 / 300, places=3)
        self.assertTrue(peek["region"].startswith("dom:"))
        box = self.layout["peekpop"]
        self.assertAlmostEqual(peek["clientX"], box["x"] + box["width"] / 2, delta=1)
        self.assertAlmostEqual(peek["clientY"], box["y"] + box["height"] / 2, delta=1)
        self.assertIn("progress", changes[0])

    def test_long_press(self):
        self.assertEqual([t for t in self.types("longpress") if t.startswith("pressured:") and t != "pressured:forcechange"],
                         ["pressured:longpress"])

    def test_an_element_that_did_not_opt_in_gets_nothing_but_its_clicks(self):
        # A light tap and a firm press (a peek outside every region, broadcast): both click as usual.
        self.assertEqual(self.types("plain"), ["click", "click"])

    def test_touches_that_acted_do_not_click(self):
        for name in ["peekpop", "longpress", "quick", "link-dismiss", "compat"]:
            self.assertNotIn("click", self.types(name), name)
        # Every touch that acted had its click taken away; the tap on the menu and the plain ones kept theirs.
        # The lift after the link's peek clicks the preview when the page hears the dismiss after Chromium
        # hears the lift (the daemon tells both at once): suppressed either way.
        suppressed = self.types("suppressed")
        if len(suppressed) > 3 and suppressed[3] == "link-preview":
            suppressed[3] = "link-dismiss"
        self.assertEqual(suppressed, ["peekpop", "longpress", "quick", "link-dismiss", "link-pop", "compat"])
        self.assertEqual(self.types("compose"), ["click", "chosen"])

    def test_a_quick_action_chosen_in_the_page_reaches_the_app(self):
        quick = [e for e in self.of("quick") if e["type"] == "pressured:quickactions"]
        self.assertEqual(len(quick), 1)
        self.assertEqual(quick[0]["detail"]["app"], APP)
        self.assertEqual(quick[0]["detail"]["items"], [{"id": "compose", "title": "New Message"}])
        self.assertNotIn("pressured:peek", self.types("quick"))
        self.assertEqual([e["detail"] for e in self.of("compose") if e["type"] == "chosen"], [{"delivered": True}])
        actions = [e["detail"] for e in self.of("page") if e["type"] == "action"]
        self.assertEqual(actions, [{"type": "action", "app": APP, "action": "compose"}])

    def test_link_previews(self):
        self.assertEqual(self.types("link-dismiss"), ["pressured:peek", "pressured:dismiss"])
        # The one click on the popped link is the module's own, navigating as a tap would.
        self.assertEqual(self.types("link-pop"), ["pressured:peek", "pressured:pop", "click"])
        overlay = self.types("overlay")
        self.assertEqual(overlay, ["shown", "closed", "shown", "closed"])
        # Pop navigated as a tap would: one hash change, from the module's own click.
        self.assertEqual([e["detail"]["href"] for e in self.of("page") if e["type"] == "hashchange"], ["#popped"])

    def test_compatibility_layers(self):
        webkit = [t for t in self.types("compat") if t.startswith("webkit")]
        self.assertEqual(webkit[0], "webkitmouseforcewillbegin")
        self.assertIn("webkitmouseforcechanged", webkit)
        self.assertEqual([t for t in webkit if t != "webkitmouseforcechanged"],
                         ["webkitmouseforcewillbegin", "webkitmouseforcedown", "webkitmouseforceup"])
        forces = {e["type"]: e["detail"]["force"] for e in self.of("compat") if e["type"].startswith("webkit")}
        self.assertEqual((forces["webkitmouseforcewillbegin"], forces["webkitmouseforcedown"]), (1, 2))
        self.assertEqual([t for t in self.types("compat") if t.startswith("pressure:") and t != "pressure:unsupported"],
                         ["pressure:start", "pressure:change", "pressure:startDeepPress", "pressure:endDeepPress", "pressure:end"])
        change = next(e["detail"]["force"] for e in self.of("compat") if e["type"] == "pressure:change")
        self.assertTrue(0 <= change <= 1)

    def test_webkit_forceup_after_a_dismissed_peek_repeats_the_last_level(self):
        # The `ended` line has no progress (the touch is over): forceup says where the force last was, the
        # peek's level, not the pop's 3 that reading the missing progress as 1 made of it.
        webkit = [e for e in self.of("compat") if e["type"].startswith("webkit")]
        self.assertNotIn("pressured:pop", self.types("compat"))
        up = next(e["detail"]["force"] for e in webkit if e["type"] == "webkitmouseforceup")
        last = [e["detail"]["force"] for e in webkit if e["type"] == "webkitmouseforcechanged"][-1]
        self.assertEqual(up, last, webkit)
        self.assertTrue(2 <= up < 3, webkit)

    def test_pressure_callbacks_have_the_element_as_this(self):
        called = [e for e in self.of("compat") if e["type"].startswith("pressure:")]
        self.assertTrue(called)
        self.assertEqual({e["detail"].get("self") for e in called}, {"compat"}, called)

    def test_a_callback_that_throws_loses_nothing_of_the_touch(self):
        # endDeepPress throws: the error is reported, end() still comes, and the touch is forgotten (a
        # late line for its contact reaches no callback).
        self.assertEqual([t for t in self.types("compat") if t.startswith("pressure:") and t != "pressure:unsupported"],
                         ["pressure:start", "pressure:change", "pressure:startDeepPress", "pressure:endDeepPress", "pressure:end"])
        errors = [e["detail"]["message"] for e in self.of("page") if e["type"] == "error"]
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("a page's own bug", errors[0])
        ended = next(e["detail"] for e in self.of("compat") if e["type"] == "pressured:forcechange" and e["detail"]["phase"] == "ended")
        before, after = self.browser.execute_script("""
            const before = window.pressureChanges, end = arguments[0];
            const late = { ...end, type: "touch", phase: "moved", screenX: 0, screenY: 0 };
            pressured.dispatchEvent(Object.assign(new Event("touch"), { detail: late }));
            return [before, window.pressureChanges];""", ended)
        self.assertGreater(before, 0)
        self.assertEqual(after, before)

    def test_unsupported_once_per_loss_of_force(self):
        from selenium.webdriver.support.ui import WebDriverWait
        wait = WebDriverWait(self.browser, 20, poll_frequency=0.05)
        told = lambda: [e["detail"] for e in self.browser.execute_script("return events") if e["type"] == "pressure:unsupported"]
        # Before the daemon was there the page's connections were refused (503) again and again: told once.
        # Then its hello had force; the replay's device went with the end of the capture: told again.
        wait.until(lambda d: len(told()) >= 2)
        self.assertEqual(told(), [{"self": "compat", "connected": False}, {"self": "compat", "connected": True}])
        # The daemon goes too: force was gone already, so the refused reconnects say nothing.
        BrowserTests.daemon.stop()
        BrowserTests.daemon = None
        wait.until(lambda d: not d.execute_script("return pressured.connected"))
        time.sleep(1.0)  # several refused reconnects (backoff 100..400 ms)
        self.assertEqual(len(told()), 2)
        # It comes back with a device that has force (a capture whose only touch is 30 s away): nothing said;
        # ForceTouch set off: told; on again: nothing; the daemon gone: told, once.
        folder = self.dir.name
        r = fixtures.Recorder(start=30)
        r.touch(*fixtures.device_units(790, 590), [80] * 4)
        BrowserTests.daemon = webtest.Daemon(folder, r.write(os.path.join(folder, "later.evemu")), fixtures.write_config(folder))
        wait.until(lambda d: d.execute_script("return pressured.connected && pressured.devices.length === 1"))
        with pressured.Client(self.daemon.socket, timeout=20) as control:
            control.request("set", forceTouch=False)
            wait.until(lambda d: len(told()) == 3)
            control.request("set", forceTouch=True)
            wait.until(lambda d: d.execute_script("return pressured.settings.forceTouch === true"))
        self.assertEqual(len(told()), 3)
        BrowserTests.daemon.stop()
        BrowserTests.daemon = None
        wait.until(lambda d: len(told()) == 4)
        time.sleep(1.0)
        self.assertEqual(told()[2:], [{"self": "compat", "connected": True}, {"self": "compat", "connected": False}])

if __name__ == "__main__":
    unittest.main()
