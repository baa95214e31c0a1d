"""The JSON-lines framing both clients share, on bytes cut as a socket may cut them (no daemon needed)."""
import unittest

from pressured import PressuredError
from pressured._lines import LineDecoder, encode


class LineDecoderTests(unittest.TestCase):
    def test_lines_cut_anywhere_come_out_whole_and_in_order(self):
        stream = b'{"type":"hello","protocol":1}\n\n{"type":"peek","x":1}\n{"type":"bye","reason":"shutdown"}\n'
        for size in (1, 2, 7, len(stream)):
            decoder = LineDecoder()
            got = []
            for start in range(0, len(stream), size):
                got += decoder.feed(stream[start:start + size])
            self.assertEqual([m["type"] for m in got], ["hello", "peek", "bye"], f"chunks of {size}")

    def test_an_unfinished_line_waits_for_its_newline(self):
        decoder = LineDecoder()
        self.assertEqual(decoder.feed(b'{"type":"pop"'), [])
        self.assertEqual(decoder.feed(b',"future":[1]}\n'), [{"type": "pop", "future": [1]}])  # unknown keys kept

    def test_a_line_that_is_not_a_json_object_is_a_protocol_error(self):
        for line in (b"not json\n", b"[1,2]\n", b"\xff\xfe\n"):
            with self.assertRaises(PressuredError) as caught:
                LineDecoder().feed(line)
            self.assertEqual(caught.exception.code, "protocol")

    def test_encode_writes_one_compact_line(self):
        self.assertEqual(encode({"request": "ping", "id": 1}), b'{"request":"ping","id":1}\n')


if __name__ == "__main__":
    unittest.main()
