"""The client against docs/protocol.md's table of names (between its `names` markers): every gesture is a
`type` of `pressured.types.Gesture`, every other message `type` has a shape in `pressured.types`, every
request a call of its own. A name the table adds fails here until the client has it. The vocabularies the
client hands on as the daemon's strings (phases, event kinds, wants, error codes, ...) have nothing to
know; a vocabulary this test does not know fails too. No daemon needed."""
import ast
import inspect
import os
import typing
import unittest

import pressured._calls
import pressured.types
from pressured._session import Session

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# Handed on as strings: the client gives the caller the daemon's value, known or not.
AS_STRINGS = {"phase", "events", "wants", "error", "reason", "change", "kind", "capability", "sensitivity", "source"}


def read_names(path=os.path.join(ROOT, "docs", "protocol.md")):
    """{vocabulary: [names]} and the set of gestures that take a touch, as every client's tests read them:
    the rows between the markers, names from the code spans of the third cell."""
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start, end = doc.index("<!-- names -->"), doc.index("<!-- /names -->")
    vocabularies, taking = {}, set()
    for line in doc[start:end].splitlines():
        cells = [c.strip() for c in line.split("|")]
        if not line.startswith("|") or len(cells) < 5 or cells[1] == "vocabulary" or cells[1].startswith("-"):
            continue
        names = cells[3].split("`")[1::2]
        vocabularies.setdefault(cells[1], []).extend(names)
        if cells[4] == "yes":
            taking.update(names)
    return vocabularies, taking


def literal_types(shape):
    """The `type` values a TypedDict of pressured.types allows."""
    hint = typing.get_type_hints(shape).get("type")
    return set(typing.get_args(hint)) if typing.get_origin(hint) is typing.Literal else set()


def shapes():
    return [v for v in vars(pressured.types).values()
            if isinstance(v, type) and issubclass(v, dict) and v is not dict]


class VocabularyTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.names, cls.taking = read_names()

    def test_every_vocabulary_is_one_this_client_knows(self):
        self.assertEqual(set(self.names) - AS_STRINGS - {"gesture", "message", "request"}, set())

    def test_every_gesture_is_a_gesture_type(self):
        gestures = literal_types(pressured.types.Gesture)
        for name in self.names["gesture"]:
            self.assertIn(name, gestures, f"docs/protocol.md names the gesture {name!r}: add it to types.Gesture")

    def test_every_message_type_has_a_shape(self):
        known = set().union(*(literal_types(s) for s in shapes())) - literal_types(pressured.types.Gesture)
        for name in self.names["message"]:
            self.assertIn(name, known, f"docs/protocol.md names the message {name!r}: give it a shape in types")
        made = set(pressured.types.CLIENT_MADE)  # the disconnect notice: the client's, never on the wire
        self.assertEqual(known - made - set(self.names["message"]), set(), "shapes of types the table does not name")
        self.assertEqual(made & set(self.names["message"]), set(), "a type the client makes is the daemon's")

    def test_every_request_has_a_call(self):
        tree = ast.parse(inspect.getsource(pressured._calls))
        made = {node.args[0].value for node in ast.walk(tree)
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Call"
                and node.args and isinstance(node.args[0], ast.Constant)}
        self.assertEqual(set(self.names["request"]) - made, set(), "requests the client cannot make")

    def test_an_unknown_type_is_an_event_of_its_own(self):
        session = Session()
        session.received(b'{"type":"hello","protocol":1}\n{"type":"squeeze","phase":"began","contact":1}\n')
        event = session.next_event()
        self.assertEqual(event["type"], "squeeze")
        self.assertNotIn("squeeze", literal_types(pressured.types.Gesture) | literal_types(pressured.types.Touch))


if __name__ == "__main__":
    unittest.main()
