"""A page's first touches, before the web module learned where its viewport is on the screen: headless
Chromium loads the viewport page (tools/web/pages/viewport.html) in a window whose true origin is 200 CSS
pixels right of the guessed one, so the regions first sit 200 pixels left of the elements. The first firm
press, on #target, lands (as the daemon sees it) in #other's region; the second, on #other, in no region.
Each must reach the element the finger is on, peek and pop there, and not click; a plain tap still clicks.

    /usr/bin/python3 -m unittest discover -s tools/web -p 'test_first_touch.py' -v
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402
from test_browser import ABSENT, REQUIRED  # noqa: E402
from test_viewport import ViewportPage  # noqa: E402

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
class FirstTouchTests(ViewportPage):
    true_origin = staticmethod(lambda guess: {"x": guess["x"] + RIGHT_BY, "y": guess["y"]})
    script = staticmethod(script)

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
