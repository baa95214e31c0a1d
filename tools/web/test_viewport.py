"""The web module learns where its viewport is on the screen from touches seen both ways: headless Chromium
loads a page from pressured-web in a window whose guessed origin (from screenX/Y and outer - inner sizes) is
wrong by 150 CSS pixels each way; the daemon replays a capture that presses at known screen points, and the
test gives Chromium the same touches (`Input.dispatchTouchEvent`) at those points less the true origin, as
a compositor would. Three taps teach the module the origin; then a firm press on one element must reach it
(forcechange, peek, pop, and no other element) and its click must be suppressed, while a plain tap clicks.

    /usr/bin/python3 -m unittest discover -s tools/web -v
"""
import os
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
import fixtures  # noqa: E402
import webtest  # noqa: E402
import pressured  # noqa: E402
from test_browser import ABSENT, REQUIRED, chromium, served_root  # noqa: E402

IDS = ["target", "other", "plain"]
# Client points the three teaching taps land on: in no element, and in no region at the guessed origin
# either (150 pixels off vertically is still below the regions' row), so they teach and do nothing else.
TAPS = [(60, 300), (460, 300), (260, 300)]
WRONG_BY = 150  # how far the true origin is from the guess, each way


def true_origin(guess):
    """A viewport origin WRONG_BY from the guess on each axis, still on the fixture's 800x600 screen."""
    return {k: guess[k] + WRONG_BY if guess[k] < WRONG_BY else guess[k] - WRONG_BY for k in ("x", "y")}


def script(layout, origin):
    r = fixtures.Recorder(start=1.5)

    def screen(x, y):
        return fixtures.device_units(x + origin["x"], y + origin["y"])

    def centre(name):
        box = layout[name]
        return screen(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    for x, y in TAPS:
        r.touch(*screen(x, y), [80] * 8, gap=0.5)
    r.t += 0.5  # the regions sent again where the taps put them
    ramp, POP = fixtures.ramp, fixtures.POP
    r.touch(*centre("target"), ramp(60, 500, 10) + ramp(500, POP, 10) + [POP] * 3 + ramp(900, 100, 5), gap=0.5)
    r.touch(*centre("plain"), [80] * 8, gap=0.5)
    return r, len(TAPS) + 2


class ViewportPage(unittest.TestCase):
    """viewport.html served by a bridge in headless Chromium, a capture made for its layout replayed and
    its touches given to Chromium at their screen points less the true origin, `events` read at the end.
    A subclass says where the true origin is (`true_origin(guess)`) and what is touched (`script`)."""
    true_origin = staticmethod(true_origin)
    script = staticmethod(script)

    @classmethod
    def setUpClass(cls):
        if ABSENT:
            raise AssertionError(ABSENT + " (required here: PRESSURED_REQUIRE_BROWSER=1)")
        from selenium.webdriver.support.ui import WebDriverWait
        cls.dir = tempfile.TemporaryDirectory(prefix="pressured-viewport-")
        folder = cls.dir.name
        daemon_socket = os.path.join(folder, "pressured.sock")
        port = webtest.free_port()
        cls.bridge = webtest.Bridge(folder, daemon_socket, root=served_root(folder), port=port)
        cls.browser = chromium()
        cls.daemon = None
        try:
            cls.browser.get(f"http://localhost:{port}/viewport.html")
            WebDriverWait(cls.browser, 20, poll_frequency=0.05).until(
                lambda d: d.execute_script("return Object.keys(regions()).length === 2"))
            cls.before = cls.browser.execute_script("return page.viewport")
            cls.dpr = cls.browser.execute_script("return devicePixelRatio")
            cls.origin = cls.true_origin(cls.before["guess"])
            cls.layout = cls.browser.execute_script(
                "return Object.fromEntries(arguments[0].map((id) => { const r = document.getElementById(id)"
                ".getBoundingClientRect(); return [id, {x: r.left, y: r.top, width: r.width, height: r.height}]; }))", IDS)
            cls.regions_before = cls.browser.execute_script("return regions()")
            recorder, cls.touch_count = cls.script(cls.layout, cls.origin)
            capture = recorder.write(os.path.join(folder, "viewport.evemu"))
            cls.daemon = webtest.Daemon(folder, capture, fixtures.write_config(folder), speed="1")
            webtest.play_touches(cls.daemon, cls.browser, cls.bridge, cls.dpr, cls.origin, cls.touch_count)
            WebDriverWait(cls.browser, 20, poll_frequency=0.05).until(
                lambda d: d.execute_script("return events.some((e) => e.target === 'plain' && e.type === 'click')"))
        except Exception:
            cls.tearDownClass()
            raise
        time.sleep(0.3)  # a late event would be caught by the assertions below
        cls.events = cls.browser.execute_script("return events")
        cls.after = cls.browser.execute_script("return page.viewport")
        cls.regions = cls.browser.execute_script("return regions()")

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.bridge.stop()
        if cls.daemon:
            cls.daemon.stop()
        cls.dir.cleanup()


@unittest.skipIf(ABSENT and not REQUIRED, ABSENT)
class ViewportTests(ViewportPage):
    def since_learned(self):
        learned = next(e["t"] for e in self.events if e["type"] == "viewport")
        return [e for e in self.events if e["t"] > learned]

    def test_the_guess_was_used_and_wrong(self):
        self.assertEqual(self.before["source"], "guess")
        self.assertIsNone(self.before["learned"])
        self.assertIsNone(self.before["agrees"])
        box, region = self.layout["target"], self.regions_before["target"]
        self.assertAlmostEqual(region["x"], box["x"] + self.before["guess"]["x"], delta=0.01)
        self.assertAlmostEqual(region["y"], box["y"] + self.before["guess"]["y"], delta=0.01)

    def test_the_taps_teach_the_origin_once(self):
        learned = [e["detail"] for e in self.events if e["type"] == "viewport"]
        self.assertEqual(len(learned), 1, learned)
        v = learned[0]
        self.assertEqual(v["source"], "touches")
        self.assertFalse(v["agrees"])  # with the guess
        for k in ("x", "y"):
            self.assertAlmostEqual(v["learned"][k], self.origin[k], delta=1)
            self.assertAlmostEqual(v["origin"][k], self.origin[k], delta=1)
        self.assertEqual(self.after["source"], "touches")
        # Learned at the third tap, before the press: no element heard anything before it.
        first = next(i for i, e in enumerate(self.events) if e["type"] == "viewport")
        self.assertEqual(self.events[:first], [])

    def test_regions_are_sent_again_where_the_touches_put_them(self):
        for name in ["target", "other"]:
            box, region = self.layout[name], self.regions[name]
            self.assertAlmostEqual(region["x"], box["x"] + self.origin["x"], delta=1)
            self.assertAlmostEqual(region["y"], box["y"] + self.origin["y"], delta=1)

    def test_the_press_reaches_its_element_and_does_not_click(self):
        after = self.since_learned()
        target = [(e["type"], e["detail"]) for e in after if e["target"] == "target"]
        self.assertEqual([t for t, _ in target if t != "pressured:forcechange"], ["pressured:peek", "pressured:pop"], target)
        self.assertEqual(target[0][1], "began")
        self.assertEqual(target[-1][1], "ended")
        self.assertEqual([e["type"] for e in after if e["target"] == "other"], [])
        self.assertEqual([e["type"] for e in after if e["target"] == "suppressed"], ["target"])
        self.assertNotIn("click", [t for t, _ in target])
        self.assertEqual([e["type"] for e in after if e["target"] == "document"], ["pressured:peek"])
        self.assertEqual([e["type"] for e in after if e["target"] == "plain"], ["click"])
