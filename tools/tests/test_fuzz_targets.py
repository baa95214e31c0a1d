"""tools/fuzz's target table (tools/fuzz.d/fuzzing/targets.py) against the tree: a Swift target for every
Fuzz/*.swift and no other, every seed found, the library modules as Package.swift has them, and the docs
naming every target; the command line and the summary lines .ci/run counts. Nothing is built or fuzzed."""
import os
import re
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "fuzz.d"))

from fuzzing import run, seeds, targets  # noqa: E402
from fuzzing.targets import C, SWIFT  # noqa: E402


def package_targets():
    """{name: (dependencies, path)} of Package.swift's library targets, read from its text."""
    with open(os.path.join(ROOT, "Package.swift")) as f:
        text = f.read()
    found = {}
    for m in re.finditer(r'\.target\(\s*name: "(\w+)"(.*?)\)(?:,|\s*\])', text, re.S):
        deps = re.search(r"dependencies: \[(.*?)\]", m.group(2), re.S)
        path = re.search(r'path: "([^"]+)"', m.group(2))
        found[m.group(1)] = (tuple(re.findall(r'"(\w+)"', deps.group(1))) if deps else (),
                             path.group(1) if path else f"Sources/{m.group(1)}")
    return found


class TableTests(unittest.TestCase):
    def test_a_swift_target_for_every_fuzz_file(self):
        files = sorted(f[:-len(".swift")] for f in os.listdir(os.path.join(ROOT, "Fuzz")) if f.endswith(".swift"))
        self.assertEqual(sorted(t.name for t in targets.TARGETS if t.language == SWIFT), files)

    def test_every_source_exists(self):
        for t in targets.TARGETS:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, t.source)), t.source)
        for f in targets.LIBPRESSURED_SOURCES:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, f)), f)
        self.assertEqual([t.name for t in targets.TARGETS if t.language == C], ["libpressured"])

    def test_names_are_unique_and_fit_the_summary(self):
        names = [t.name for t in targets.TARGETS]
        self.assertEqual(len(names), len(set(names)))
        for n in names:
            self.assertRegex(n, r"^[a-z-]{1,16}$")  # .ci/run counts `^[a-z-]+ +ok ` lines

    def test_every_seed_is_found(self):
        for t in targets.TARGETS:
            with tempfile.TemporaryDirectory() as d:
                seeds.make(ROOT, t, d)
                self.assertTrue(os.listdir(d), f"{t.name}: no seeds")

    def test_hub_request_seeds(self):
        with tempfile.TemporaryDirectory() as d:
            seeds.hub_requests(ROOT, d)
            with open(os.path.join(d, "request-status.jsonl"), "rb") as f:
                data = f.read()
            with open(os.path.join(ROOT, "Fuzz", "seeds", "protocol", "request-status.jsonl"), "rb") as f:
                line = f.read()
            self.assertEqual(data, b"\x00" + line + b"\x01" + line + b"\xc0\x40\x80\n")
            with open(os.path.join(d, "held-and-deaf.jsonl"), "rb") as f:
                self.assertEqual(f.read().count(b'\x01{"request":"status"}\n'), 30)

    def test_modules_as_package_swift_has_them(self):
        package = package_targets()
        built = []
        for m in targets.MODULES:
            self.assertIn(m.name, package)
            deps, path = package[m.name]
            self.assertEqual((m.dependencies, m.path), (deps, path), m.name)
            for d in m.dependencies:
                self.assertIn(d, built, f"{m.name} is built before {d}")
            built.append(m.name)

    def test_link_order_puts_a_module_before_what_it_needs(self):
        order = targets.link_order()
        for m in targets.MODULES:
            for d in m.dependencies:
                self.assertLess(order.index(m.name), order.index(d))

    def test_docs_name_every_target(self):
        with open(os.path.join(ROOT, "docs", "testing.md")) as f:
            fuzzing = f.read().split("**Fuzzing.**", 1)[1].split("\n**", 1)[0]
        # The list of targets: an item a target or a few, named in backquotes before the colon.
        items = re.findall(r"^- (.*?):", fuzzing, re.M)
        named = {n for item in items for n in re.findall(r"`([a-z-]+)`", item)}
        self.assertEqual(named, {t.name for t in targets.TARGETS})


class CommandLineTests(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(run.parse([]), (60, False, "run", []))
        self.assertEqual(run.parse(["--seconds", "5", "evemu", "--build-only"]), (5, True, "run", ["evemu"]))
        self.assertEqual(run.parse(["--list"])[2], "list")
        self.assertEqual(run.parse(["evemu", "-h"])[2], "help")
        for bad in (["--seconds"], ["--seconds", "x"], ["--fast"]):
            with self.assertRaises(run.UsageError, msg=bad):
                run.parse(bad)

    def test_select(self):
        self.assertEqual(targets.select([]), list(targets.TARGETS))
        self.assertEqual([t.name for t in targets.select(["websocket", "evemu", "websocket"])], ["websocket", "evemu"])
        with self.assertRaises(targets.UnknownTarget):
            targets.select(["evemu", "nothing"])

    def test_help_and_list_name_every_target(self):
        text = run.help_text()
        lines = run.list_lines()
        for t in targets.TARGETS:
            self.assertIn(f" {t.name}", text)
            self.assertEqual(sum(l.startswith(t.name + " ") for l in lines), 1, t.name)


class SummaryTests(unittest.TestCase):
    def test_ok_line_is_what_ci_counts(self):
        log = "#2 INITED cov: 10 ft: 3\n#900 DONE cov: 412 ft: 900\nstat::number_of_executed_units: 12345\n"
        line = run.summary_line("hub-requests", 5, log, 17, 0, "x.log")
        self.assertEqual(line, "hub-requests     ok          12345 execs  cov 412    corpus 17    5s")
        self.assertRegex(line, r"^[a-z-]+ +ok ")

    def test_crash_names_the_input(self):
        log = ("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address\n"
               "artifact_prefix='.build/fuzz/crashes/evemu/'; Test unit written to .build/fuzz/crashes/evemu/crash-1\n")
        line = run.summary_line("evemu", 5, log, 3, 1, "x.log")
        self.assertEqual(line, "evemu            CRASH           ? execs  ==1==ERROR: AddressSanitizer: "
                               "heap-buffer-overflow on address  input: .build/fuzz/crashes/evemu/crash-1")
        self.assertNotRegex(line, r"^[a-z-]+ +ok ")
        self.assertTrue(run.summary_line("evemu", 5, "", 0, 1, "x.log").endswith("input: see x.log"))


if __name__ == "__main__":
    unittest.main()
