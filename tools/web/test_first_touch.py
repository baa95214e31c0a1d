"""A page's first touches, before the web module learned where its viewport is on the screen: headless
Chromium loads the viewport page (tools/web/pages/viewport.html) in a window whose true origin is 200 CSS
pixels right of the guessed one, so the regions first sit 200 pixels left of the elements. The first firm
press, on #target, lands (as the daemon sees it) in #other's region; the second, on #other, in no region.
Each must reach the element the finger is on, peek and pop there, and not click; a plain tap still clicks.

    /usr/bin/python3 -m unittest discover -s tools/web -p 'test_first_touch.py' -v
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
from test_browser import ABSENT, REQUIRED, chromium, served_root  # noqa: E402

IDS = ["target", "other", "plain"]
RIGHT_BY = 200  # the true origin, right of the guess: #target's centre falls in #other's guessed region


def script(layout, origin):
    r = fixtures.Recorder(start=1.5)

    def centre(name):
        box = layout[name]
        return fixtures.device_units(box["x"] + box["width"] / 2 + origin["x"], box["y"] + box["height"] / 2 + origin["y"])

    ramp, POP = fixtures.ramp, fixtures.POP
    firm = ramp(60, 500, 10) + ramp(500, POP, 10) + [POP] * 3 + ramp(900, 100, 5)
    r.touch(*centre("target"), firm, gap=0.5)
    r.touch(*centre("other"), firm, gap=0.5)
    r.touch(*centre("plain"), [80] * 8, gap=0.5)
    return r, 3


@unittest.skipIf(ABSENT and not REQUIRED, ABSENT)
class FirstTouchTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if ABSENT:
            raise AssertionError(ABSENT + " (required here: PRESSURED_REQUIRE_BROWSER=1)")
        from selenium.webdriver.support.ui import WebDriverWait
        cls.dir = tempfile.TemporaryDirectory(prefix="pressured-first-touch-")
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
            guess = cls.browser.execute_script("return page.viewport")["guess"]
            cls.dpr = cls.browser.execute_script("return devicePixelRatio")
            cls.origin = {"x": guess["x"] + RIGHT_BY, "y": guess["y"]}
            cls.layout = cls.browser.execute_script(
                "return Object.fromEntries(arguments[0].map((id) => { const r = document.getElementById(id)"
                ".getBoundingClientRect(); return [id, {x: r.left, y: r.top, width: r.width, height: r.height}]; }))", IDS)
            cls.regions_before = cls.browser.execute_script("return regions()")
            recorder, count = script(cls.layout, cls.origin)
            capture = recorder.write(os.path.join(folder, "first-touch.evemu"))
            cls.daemon = webtest.Daemon(folder, capture, fixtures.write_config(folder), speed="1")
            webtest.play_touches(cls.daemon, cls.browser, cls.bridge, cls.dpr, cls.origin, count)
            WebDriverWait(cls.browser, 20, poll_frequency=0.05).until(
                lambda d: d.execute_script("return events.some((e) => e.target === 'plain' && e.type === 'click')"))
        except Exception:
            cls.tearDownClass()
            raise
        time.sleep(0.3)  # a late event would be caught by the assertions below
        cls.events = cls.browser.execute_script("return events")

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.bridge.stop()
        if cls.daemon:
            cls.daemon.stop()
        cls.dir.cleanup()

    def gestures(self, element):
        return [e["type"] for e in self.events if e["target"] == element and e["type"] not in ("pressured:forcechange", "click")]

    def test_the_first_press_lands_in_the_neighbours_stale_region(self):
        box, other = self.layout["target"], self.regions_before["other"]
        x, y = box["x"] + box["width"] / 2 + RIGHT_BY, box["y"] + box["height"] / 2
        guess = {"x": other["x"] - self.layout["other"]["x"], "y": other["y"] - self.layout["other"]["y"]}
        self.assertTrue(other["x"] <= x + guess["x"] < other["x"] + other["width"], (x, other))
        self.assertTrue(other["y"] <= y + guess["y"] < other["y"] + other["height"], (y, other))

    def test_each_press_reaches_the_element_the_finger_is_on(self):
        self.assertEqual(self.gestures("target"), ["pressured:peek", "pressured:pop"], self.events)
        self.assertEqual(self.gestures("other"), ["pressured:peek", "pressured:pop"], self.events)

    def test_no_press_clicks_and_the_tap_does(self):
        clicks = [e["target"] for e in self.events if e["type"] == "click"]
        self.assertEqual(clicks, ["plain"], self.events)
