"""Tests of the vmtest fleet's HID helpers (tools/vmtest.d/vmguest/hid_descriptor.py, hid_touch.py): a report
descriptor read as hid-core reads it, and touch reports built from it as a digitizer's firmware sends them.
The shared descriptors of the kernel's hid-multitouch tests (../shared/hid-descriptors) are read too when
present."""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "vmtest.d"))
from vmguest.hid_descriptor import Descriptor, DescriptorError, get_bits, put_bits  # noqa: E402
from vmguest.hid_touch import (Q_HOVERING, Q_SLOT_IS_CONTACTID, Q_SLOT_IS_CONTACTID_MINUS_ONE,  # noqa: E402
                               Contact, NotATouchDigitizer, TouchDigitizer)

SHARED = os.path.join(ROOT, "..", "shared", "hid-descriptors", "multitouch.json")


def finger(width_max=b"\x26\x50\x03"):
    """One Finger collection: Tip Switch and In Range (1 bit each, 6 bits padding), Contact Identifier (8 bits,
    declared 0..1 as Focaltech's is), X and Y (16 bits, 0..4095, 0..200 mm), Width (8 bits, declared
    0..848 by default, as Sitronix's is)."""
    return bytes.fromhex(
        "05 0d 09 22 a1 02"  # Digitizers, Finger, Collection (Logical)
        "09 42 09 32 15 00 25 01 75 01 95 02 81 02"  # Tip Switch, In Range: 2 x 1 bit
        "95 06 81 03"  # 6 bits constant
        "09 51 25 01 75 08 95 01 81 02"  # Contact Identifier 0..1, 8 bits
        "05 01 09 30 09 31 26 ff 0f 55 0e 65 11 35 00 46 d0 07 75 10 95 02 81 02"  # X, Y 0..4095, 0..2000 cm^-2
        "05 0d 09 48 15 00") + width_max + bytes.fromhex("75 08 95 01 81 02 c0")


# A touch screen with two fingers a report (ID 1), Contact Count, and Contact Count Maximum (feature 2).
SCREEN = (bytes.fromhex("05 0d 09 04 a1 01 85 01") + finger() + finger() +
          bytes.fromhex("05 0d 09 54 25 0a 75 08 95 01 81 02"  # Contact Count
                        "85 02 09 55 25 0a b1 02 c0"))  # feature 2: Contact Count Maximum 0..10


class DescriptorTests(unittest.TestCase):
    def test_fields_sit_where_hid_core_puts_them(self):
        d = Descriptor.parse(SCREEN)
        report = d.reports[("input", 1)]
        self.assertEqual(report.length, 1 + (2 * (2 + 6 + 8 + 32 + 8) + 8) // 8)
        x = [f for f in report.fields if 0x00010030 in f.usages][0]
        self.assertEqual((x.offset, x.size, x.count, x.logical_min, x.logical_max), (16, 16, 2, 0, 4095))
        self.assertEqual((x.physical_max, x.unit, x.unit_exponent), (2000, 0x11, -2))
        self.assertEqual([x.usage(0), x.usage(1)], [0x00010030, 0x00010031])
        self.assertEqual(x.logical, 0x000D0022)
        self.assertEqual(x.application, 0x000D0004)
        self.assertEqual(d.reports[("feature", 2)].length, 2)

    def test_a_maximum_is_unsigned_unless_its_minimum_is_negative(self):
        d = Descriptor.parse(bytes.fromhex("05 01 09 02 a1 01 09 30 15 81 25 7f 75 08 95 01 81 06"
                                           "09 31 15 00 26 ff 00 81 02 c0"))
        a, b = d.reports[("input", 0)].fields
        self.assertEqual((a.logical_min, a.logical_max, b.logical_min, b.logical_max), (-127, 127, 0, 255))

    def test_broken_descriptors_are_refused_with_where(self):
        with self.assertRaisesRegex(DescriptorError, "byte 2"):
            Descriptor.parse(bytes.fromhex("05 0d 26 ff"))  # two data bytes announced, one there
        with self.assertRaisesRegex(DescriptorError, "not closed"):
            Descriptor.parse(bytes.fromhex("05 0d 09 04 a1 01"))

    def test_bits_round_trip_signed_and_unsigned(self):
        buf = bytearray(4)
        put_bits(buf, 3, 12, -5)
        put_bits(buf, 15, 9, 300)
        self.assertEqual(get_bits(buf, 3, 12, signed=True), -5)
        self.assertEqual(get_bits(buf, 15, 9), 300)


class TouchDigitizerTests(unittest.TestCase):
    def digitizer(self, quirks=0):
        t = TouchDigitizer(Descriptor.parse(SCREEN))
        t.quirks = quirks
        return t

    def test_contacts_are_the_finger_collections_and_the_maximum_comes_from_the_descriptor(self):
        t = self.digitizer()
        self.assertEqual(t.per_report, 2)
        self.assertEqual(sorted(t.groups[0]), ["id", "inrange", "tip", "w", "x", "y"])
        self.assertEqual(t.max_contacts, 10)

    def test_one_contact_and_an_unused_one_whose_identifier_no_live_contact_has(self):
        t = self.digitizer()
        (report,) = t.frame([Contact(0, 1000, 2000, width=30)])
        self.assertEqual(report[0], 1)
        used, unused = t.read(report)
        self.assertEqual(used, {"tip": 1, "inrange": 1, "id": 0, "x": 1000, "y": 2000, "w": 30})
        # beyond the Identifier's declared 0..1, as firmware sends it: hid-multitouch reads raw values
        self.assertEqual(unused, {"tip": 0, "inrange": 0, "id": 9, "x": 0, "y": 0, "w": 0})
        self.assertEqual(report[-1], 1)  # Contact Count

    def test_more_contacts_than_a_report_holds_go_out_in_hybrid_mode(self):
        t = self.digitizer()
        reports = t.frame([Contact(s, 100 * s, 100 * s) for s in range(3)])
        self.assertEqual([r[-1] for r in reports], [3, 0])
        self.assertEqual([g["id"] for g in t.read(reports[1])][:1], [2])

    def test_a_lift_is_reported_in_range_unless_in_range_means_hovering(self):
        lift = Contact(0, 5, 5, lifting=True)
        plain = self.digitizer().read(self.digitizer().frame([lift])[0])[0]
        self.assertEqual((plain["tip"], plain["inrange"]), (0, 1))
        t = self.digitizer(Q_HOVERING)
        hovering = t.read(t.frame([lift])[0])[0]
        self.assertEqual((hovering["tip"], hovering["inrange"]), (0, 0))
        t = self.digitizer(Q_HOVERING)
        hover = t.read(t.frame([Contact(0, 5, 5, tip=False)])[0])[0]
        self.assertEqual((hover["tip"], hover["inrange"]), (0, 1))

    def test_identifiers_follow_the_drivers_slot_scheme(self):
        for quirks, want in ((0, [0, 1]), (Q_SLOT_IS_CONTACTID, [0, 1]), (Q_SLOT_IS_CONTACTID_MINUS_ONE, [1, 2])):
            t = self.digitizer(quirks)
            report = t.frame([Contact(0, 1, 1), Contact(1, 2, 2)])[0]
            self.assertEqual([g["id"] for g in t.read(report)], want)

    def test_measures_are_kept_within_what_the_field_can_carry(self):
        t = self.digitizer()
        self.assertEqual(t.largest(t.fields["w"]), 255)  # declared 0..848 in 8 bits
        got = t.read(t.frame([Contact(0, 9999, -4, width=848)])[0])[0]
        self.assertEqual((got["x"], got["y"], got["w"]), (4095, 0, 255))

    def test_feature_reports_answer_contact_count_maximum(self):
        t = TouchDigitizer(Descriptor.parse(SCREEN), max_contacts=5)
        self.assertEqual(t.feature(2), bytes([2, 5]))
        self.assertIsNone(t.feature(7))

    def test_a_descriptor_without_touches_is_no_digitizer(self):
        with self.assertRaises(NotATouchDigitizer):
            TouchDigitizer(Descriptor.parse(bytes.fromhex("05 01 09 02 a1 01 09 30 75 08 95 01 81 02 c0")))


@unittest.skipUnless(os.path.exists(SHARED), "../shared/hid-descriptors is absent")
class SharedDescriptorTests(unittest.TestCase):
    def test_every_shared_descriptor_is_a_digitizer_with_what_the_index_counts(self):
        with open(SHARED) as f:
            entries = json.load(f)
        self.assertEqual(len(entries), 100)
        pressure = size = 0
        for e in entries:
            d = Descriptor.parse(bytes.fromhex(e["rdesc"]))
            fields = [f for r in d.reports_of("input") for f in r.fields if f.variable]
            usages = {f.usage(i) for f in fields for i in range(f.count)}
            pressure += 0x000D0030 in usages
            size += bool(usages & {0x000D0048, 0x000D0049})
            t = TouchDigitizer(d, e["max_contacts"])
            self.assertGreater(t.per_report, 0, e["test_class"])
            report = t.frame([Contact(0, 1, 2)])[0]
            self.assertEqual(len(report), t.report.length, e["test_class"])
            self.assertEqual((t.read(report)[0]["x"], t.read(report)[0]["y"]), (1, 2), e["test_class"])
        self.assertEqual((pressure, size), (13, 28))  # INDEX.md: 13 with Tip Pressure, 28 with contact size


if __name__ == "__main__":
    unittest.main()
