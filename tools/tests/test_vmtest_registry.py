"""tools/vmtest's scenario registry (tools/vmtest.d/scenarios.py) and what is derived from it: the default run
and its order, which boot a scenario goes to, the guest's check functions, and the docs that list them.

    python3 -m unittest discover -s tools/tests -v     (tools/test-python runs it)
"""
import ast
import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VMTEST = os.path.join(ROOT, "tools", "vmtest.d")
sys.path.insert(0, VMTEST)

import scenarios as registry  # noqa: E402
from scenarios import Boot, Phase  # noqa: E402


def numbers(scenarios):
    return [s.number for s in scenarios]


class RegistryTests(unittest.TestCase):
    def test_numbers_are_one_to_n_each_once(self):
        nums = numbers(registry.SCENARIOS)
        self.assertEqual(nums, list(range(1, len(nums) + 1)))
        self.assertEqual(set(registry.BY_NUMBER), set(nums))

    def test_every_check_is_a_function_of_its_guest_module(self):
        # Read, not imported: the guest's modules read the run's configuration when imported.
        functions = {}
        for s in registry.SCENARIOS:
            path = os.path.join(VMTEST, "vmguest", s.module + ".py")
            self.assertTrue(os.path.exists(path), f"{s.number}: no {path}")
            if path not in functions:
                with open(path) as f:
                    tree = ast.parse(f.read())
                functions[path] = {n.name: len(n.args.args) for n in tree.body if isinstance(n, ast.FunctionDef)}
            self.assertEqual(functions[path].get(s.function), 1, f"{s.number}: {s.check}(details) not found")

    def test_a_check_belongs_to_one_scenario(self):
        checks = [s.check for s in registry.SCENARIOS]
        self.assertEqual(len(checks), len(set(checks)))

    def test_the_default_run_is_chroot_then_systemd_install_first_removal_last(self):
        self.assertEqual(numbers(registry.default_run()),
                         [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 21, 24, 26, 27, 28, 29,
                          22, 11, 12, 13, 14, 15, 16, 18, 19, 25, 23])

    def test_the_default_run_has_every_scenario_once_but_the_matrix_beyond_cage_and_xorg(self):
        left_out = [s for s in registry.SCENARIOS if not s.default]
        self.assertEqual(numbers(left_out), [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41])
        self.assertTrue(all(s.group in (registry.MATRIX, registry.ACTIONS) for s in left_out))
        self.assertEqual(sorted(numbers(registry.default_run()) + numbers(left_out)), numbers(registry.SCENARIOS))

    def test_a_phase_is_explained(self):
        for s in registry.SCENARIOS:
            self.assertEqual(bool(s.why_phase), s.phase is not Phase.ANY, s.number)

    def test_boots(self):
        self.assertEqual(numbers(registry.in_boot(registry.SCENARIOS, Boot.SYSTEMD)),
                         [11, 12, 13, 14, 15, 16, 18, 19, 22, 23, 25])
        self.assertEqual(Boot.CHROOT.driver, "guest.py")
        self.assertEqual(Boot.SYSTEMD.driver, "systemd_guest.py")
        self.assertEqual(numbers(registry.in_boot(registry.SCENARIOS, Boot.STACKS)), [32, 33, 34, 35, 39, 40, 41])
        self.assertEqual(Boot.STACKS.driver, "stacks_guest.py")
        for b in Boot:
            self.assertTrue(os.path.exists(os.path.join(VMTEST, b.driver)))


class SelectTests(unittest.TestCase):
    def test_none_is_every_scenario(self):
        self.assertEqual(registry.select([]), registry.default_run())

    def test_order_given_is_kept_inside_a_boot(self):
        self.assertEqual(numbers(registry.select(["5", "1", "3"])), [5, 1, 3])

    def test_chroot_boot_before_systemd_boot(self):
        self.assertEqual(numbers(registry.select(["22", "1"])), [1, 22])

    def test_removal_last_and_install_first_whatever_the_order(self):
        self.assertEqual(numbers(registry.select(["23", "11", "22", "12"])), [22, 11, 12, 23])

    def test_a_number_twice_runs_once(self):
        self.assertEqual(numbers(registry.select(["8", "8"])), [8])

    def test_fleet_is_scenario_20(self):
        self.assertEqual(numbers(registry.select(["fleet"])), [20])

    def test_the_matrix_is_both_releases_stacks_chroot_boot_first(self):
        self.assertEqual(numbers(registry.select(["filter-matrix"])), [28, 29, 30, 31, 32, 33, 34, 35])
        self.assertEqual(numbers(registry.select(["33", "filter-matrix", "28"])), [28, 29, 30, 31, 33, 32, 34, 35])
        self.assertEqual(numbers(registry.select(["action-matrix"])), [36, 37, 38, 39, 40, 41])

    def test_unknown(self):
        for word in ("0", "42", "x", "-1", "1.5", ""):
            with self.assertRaises(registry.UnknownScenario, msg=word):
                registry.select(["1", word])


class ListTests(unittest.TestCase):
    def test_ranges(self):
        self.assertEqual(registry.ranges([1, 2, 3, 5, 7, 8]), "1-3, 5, 7, 8")
        self.assertEqual(registry.ranges([3, 1, 2, 2]), "1-3")
        self.assertEqual(registry.ranges([]), "")
        self.assertEqual(registry.ranges([4]), "4")
        self.assertEqual(registry.ranges([1, 2, 3, 5, 7, 8], last=" and "), "1-3, 5, 7 and 8")
        self.assertEqual(registry.ranges([1, 2, 3, 5], last=" or "), "1-3 or 5")

    def test_list_has_a_line_a_scenario(self):
        lines = registry.table_lines()
        for s in registry.SCENARIOS:
            row = [l for l in lines if re.match(rf"^ *{s.number}  {s.boot.value} ", l)]
            self.assertEqual(len(row), 1, s.number)
            self.assertIn(s.title, row[0])
            self.assertIn(s.check, row[0])
            self.assertIn(s.boot.value, row[0])
        self.assertIn("default order: " + " ".join(map(str, numbers(registry.default_run()))), lines)


class DocsTests(unittest.TestCase):
    """docs/testing.md ("Real-kernel tests") tells what each scenario proves, boot by boot, as numbered items;
    the numbers and the boots' lists in its prose must be the registry's."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(ROOT, "docs", "testing.md")) as f:
            text = f.read()
        cls.section = text.split("## Real-kernel tests", 1)[1].split("\n## ", 1)[0]

    def items(self, heading):
        part = self.section.split(heading, 1)[1].split("\n### ", 1)[0]
        return [int(n) for n in re.findall(r"^(\d+)\. ", part, re.M)]

    def test_every_scenario_is_told_under_its_boot(self):
        self.assertEqual(sorted(self.items("### The chroot boot")),
                         numbers(registry.in_boot(registry.SCENARIOS, Boot.CHROOT)))
        self.assertEqual(sorted(self.items("### The systemd boot")),
                         numbers(registry.in_boot(registry.SCENARIOS, Boot.SYSTEMD)))
        self.assertEqual(sorted(self.items("### The stacks boot")),
                         numbers(registry.in_boot(registry.SCENARIOS, Boot.STACKS)))

    def test_the_systemd_items_follow_the_run_order(self):
        self.assertEqual(self.items("### The systemd boot"),
                         numbers(registry.in_boot(registry.default_run(), Boot.SYSTEMD)))

    def test_the_boots_lists_in_prose(self):
        flat = " ".join(self.section.split())
        chroot, systemd, stacks = (numbers(registry.in_boot(registry.SCENARIOS, b)) for b in Boot)
        for said in (f"a busybox chroot for scenarios {registry.ranges(chroot, ' and ')}, systemd as PID 1 for "
                     f"{registry.ranges(systemd, ' and ')}, and a busybox chroot into a Debian 13 root for "
                     f"{registry.ranges(stacks, ' and ')}.",
                     f"When any of {registry.ranges(systemd, ' or ')} is asked for"):
            self.assertIn(said, flat)


class ContributingTests(unittest.TestCase):
    def test_no_count_of_scenarios_to_go_stale(self):
        with open(os.path.join(ROOT, "CONTRIBUTING.md")) as f:
            text = f.read()
        self.assertIsNone(re.search(r"scenarios \(\d+[–-]\d+", text))
        self.assertIn("tools/vmtest --list", text)


if __name__ == "__main__":
    unittest.main()
