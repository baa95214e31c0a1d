"""What the session makes of a connection's end (docs/protocol.md, "When the connection ends"): the peeks
and contacts the daemon left open ended, dismisses first, then the waiting requests failed, then the
disconnect notice, saying how it ended. No daemon needed: the lines are fed as the socket would."""
import json
import unittest

import pressured
from pressured._session import Session

HELLO = {"type": "hello", "protocol": 1, "version": "0.1.0", "devices": [], "settings": {}}


def point(time, contact, x, force, device=1):
    return {"time": time, "device": device, "contact": contact, "x": x, "y": 200, "screenX": float(x),
            "screenY": 200.0, "force": force, "maximumPossibleForce": 2.5}


def touch(phase, *args, **kwargs):
    return {"type": "touch", "phase": phase, **point(*args, **kwargs)}


def gesture(kind, *args, region=None, **kwargs):
    event = {"type": kind, **point(*args, **kwargs)}
    if region is not None:
        event["region"] = region
    return event


def ended(*lines, tail=b""):
    """A session fed `hello`, `lines`, then `tail` (bytes without their newline) and its end of file."""
    session = Session()
    session.received(b"".join(json.dumps(m).encode() + b"\n" for m in (HELLO,) + lines) + tail)
    session.hello()
    session.received(b"")
    return session


def events(session):
    out = []
    while not session.events_over():
        out.append(session.next_event())
    return out


def synthesized(event):
    return dict(event, synthesized=True)


LOST = {"type": "disconnected", "reason": "lost", "synthesized": True}


class SessionEndTests(unittest.TestCase):
    def test_a_lost_connection_dismisses_each_open_peek_then_cancels_each_open_contact(self):
        lines = (touch("began", 1.0, 1, 100, 0.3), touch("began", 1.1, 2, 500, 0.2),
                 gesture("peek", 1.2, 2, 510, 1.5, region="tile:2"), touch("moved", 1.2, 2, 510, 1.5),
                 gesture("peek", 1.3, 1, 105, 1.6), touch("moved", 1.4, 1, 108, 1.7))
        got = events(ended(*lines))
        self.assertEqual(got[:len(lines)], list(lines))
        self.assertEqual(got[len(lines):], [
            synthesized({"type": "dismiss", **point(1.2, 2, 510, 1.5), "region": "tile:2"}),
            synthesized({"type": "dismiss", **point(1.4, 1, 108, 1.7)}),
            synthesized(touch("cancelled", 1.4, 1, 108, 1.7)),
            synthesized(touch("cancelled", 1.2, 2, 510, 1.5)),
            LOST,
        ])

    def test_what_ended_on_the_wire_stays_ended(self):
        lines = (touch("began", 1.0, 1, 100, 0.3), gesture("peek", 1.1, 1, 100, 1.5),
                 gesture("pop", 1.2, 1, 100, 2.0), touch("began", 1.3, 2, 300, 0.3),
                 gesture("peek", 1.4, 2, 300, 1.5), gesture("dismiss", 1.5, 2, 300, 0.2),
                 touch("ended", 1.5, 2, 300, 0.2), touch("moved", 1.6, 1, 101, 0.4))
        got = events(ended(*lines))
        self.assertEqual(got[len(lines):], [synthesized(touch("cancelled", 1.6, 1, 101, 0.4)), LOST])

    def test_gestures_only_a_peek_is_dismissed_where_it_was_and_contacts_of_two_devices_apart(self):
        lines = (gesture("peek", 1.0, 1, 100, 1.5, device=1), gesture("peek", 1.0, 1, 900, 1.4, device=2),
                 gesture("longPress", 1.1, 3, 50, 0.3))
        got = events(ended(*lines))
        self.assertEqual(got[len(lines):], [synthesized(gesture("dismiss", 1.0, 1, 100, 1.5, device=1)),
                                            synthesized(gesture("dismiss", 1.0, 1, 900, 1.4, device=2)), LOST])

    def test_after_bye_nothing_is_synthesized_but_the_notice(self):
        lines = (touch("began", 1.0, 1, 100, 0.3), gesture("peek", 1.1, 1, 100, 1.5),
                 gesture("dismiss", 1.1, 1, 100, 1.5), touch("cancelled", 1.1, 1, 100, 1.5),
                 {"type": "bye", "reason": "shutdown"})
        got = events(ended(*lines))
        self.assertEqual(got, list(lines) + [{"type": "disconnected", "reason": "bye", "synthesized": True}])

    def test_a_fatal_error_is_the_reason_and_the_notice_carries_it(self):
        fatal = {"type": "error", "error": "too-slow", "message": "the client stopped reading", "fatal": True}
        session = ended(fatal)
        self.assertEqual(events(session), [fatal, {"type": "disconnected", "reason": "fatal", "synthesized": True,
                                                   "error": fatal}])
        with self.assertRaises(pressured.ConnectionClosed) as caught:
            session.request("ping", {})
        self.assertEqual((caught.exception.reason, caught.exception.error), ("fatal", fatal))

    def test_a_waiting_request_and_a_later_one_fail_as_lost(self):
        session = Session()
        session.received(json.dumps(HELLO).encode() + b"\n")
        request_id, _ = session.request("set", {"forceTouch": False})
        self.assertIsNone(session.answer(request_id))
        session.received(b"")
        self.assertTrue(session.has_answer(request_id))
        with self.assertRaises(pressured.ConnectionClosed) as caught:
            session.answer(request_id)
        self.assertEqual((caught.exception.reason, caught.exception.error), ("lost", None))
        self.assertIn("whether the daemon acted on the request is unknown", str(caught.exception))
        with self.assertRaises(pressured.ConnectionClosed) as caught:
            session.request("ping", {})
        self.assertEqual(caught.exception.reason, "lost")
        self.assertEqual(events(session), [LOST])

    def test_an_unfinished_last_line_is_dropped(self):
        got = events(ended(touch("began", 1.0, 1, 100, 0.3), tail=b'{"type":"touch","phase":"ended","ti'))
        self.assertEqual(got[1:], [synthesized(touch("cancelled", 1.0, 1, 100, 0.3)), LOST])

    def test_the_notice_comes_once_and_the_events_end_with_it(self):
        session = ended()
        self.assertEqual(events(session), [LOST])
        session.received(b"")  # a second end of file changes nothing
        self.assertEqual(events(session), [])
        self.assertIsNone(session.next_event())


if __name__ == "__main__":
    unittest.main()
