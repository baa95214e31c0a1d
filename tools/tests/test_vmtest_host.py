"""tools/vmtest's host side (tools/vmtest.d/vmhost/): the command line and settings, the help text made from
the registry, the machine's QEMU command, reading the guests' results back and the closing lines .ci/run
counts, and the console's progress lines. No VM is booted."""
import os
import fcntl
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "vmtest.d"))

import scenarios as registry  # noqa: E402
from scenarios import Boot  # noqa: E402
from vmhost import cli, lock, machine, results  # noqa: E402
from vmhost.qemu import Progress  # noqa: E402


def numbers(request):
    return [s.number for s in request.scenarios]


class ParseTests(unittest.TestCase):
    def test_no_arguments_is_every_scenario(self):
        r = cli.parse([], {})
        self.assertEqual(r.action, "run")
        self.assertEqual(list(r.scenarios), registry.default_run())
        self.assertIs(r.machine, machine.X86_64)

    def test_some(self):
        self.assertEqual(numbers(cli.parse(["1", "5"], {})), [1, 5])
        self.assertEqual(numbers(cli.parse(["8"], {})), [8])

    def test_fleet(self):
        self.assertEqual(numbers(cli.parse(["fleet"], {})), [20])

    def test_list_and_help(self):
        self.assertEqual(cli.parse(["--list"], {}).action, "list")
        self.assertEqual(cli.parse(["1", "-h"], {}).action, "help")
        self.assertEqual(cli.parse(["--help"], {}).action, "help")

    def test_arch(self):
        self.assertIs(cli.parse(["--arch", "x86_64", "1"], {}).machine, machine.X86_64)
        self.assertIs(cli.parse(["--arch=amd64", "1"], {}).machine, machine.X86_64)
        with self.assertRaisesRegex(cli.UsageError, "no guest for architecture 'sparc'"):
            cli.parse(["--arch", "sparc"], {})
        with self.assertRaisesRegex(cli.UsageError, "--arch needs"):
            cli.parse(["--arch"], {})

    def test_arm64_runs_its_representative_scenarios(self):
        r = cli.parse(["--arch", "arm64"], {})
        self.assertIs(r.machine, machine.ARM64)
        self.assertEqual(sorted(s.number for s in r.scenarios), [1, 5, 11, 22, 24])
        self.assertIs(cli.parse(["--arch=aarch64", "7"], {}).machine, machine.ARM64)
        for n in ("20", "27", "fleet"):
            with self.assertRaisesRegex(cli.UsageError, "does not run on arm64"):
                cli.parse(["--arch", "arm64", n], {})
        # (emulating another architecture is slower: twice the default limits)
        x86 = cli.parse(["1", "5", "24", "11", "22"], {}).settings.timeouts
        self.assertEqual(r.settings.timeouts, {b: 2 * t for b, t in x86.items()})

    def test_unknown(self):
        with self.assertRaisesRegex(cli.UsageError, r"no scenario '42' \(1\.\.41, or fleet, or filter-matrix, or action-matrix\)"):
            cli.parse(["42"], {})
        with self.assertRaisesRegex(cli.UsageError, "unknown option --fast"):
            cli.parse(["--fast"], {})


class SettingsTests(unittest.TestCase):
    def test_defaults(self):
        s = cli.parse(["1", "22"], {}).settings
        self.assertEqual(s.timeouts, {Boot.CHROOT: 1200, Boot.SYSTEMD: 720, Boot.STACKS: 300})
        self.assertEqual((s.smp, s.mem, s.retry, s.lock, s.kver), (2, 1024, True, "/tmp/vmtest.lock", ""))

    def test_the_fleet_adds_its_time(self):
        self.assertEqual(cli.parse(["fleet"], {}).settings.timeouts[Boot.CHROOT], 2100)
        # (and the default run's part of the compositor matrix, 28 and 29, theirs)
        self.assertEqual(cli.parse([], {}).settings.timeouts[Boot.CHROOT], 2700)

    def test_the_matrix_adds_its_time_to_each_boot(self):
        t = cli.parse(["filter-matrix"], {}).settings.timeouts
        self.assertEqual((t[Boot.CHROOT], t[Boot.STACKS]), (1200 + 4 * 300, 300 + 4 * 300))

    def test_environment(self):
        env = {"VMTEST_TIMEOUT": "60", "VMTEST_SYSTEMD_TIMEOUT": "70", "VMTEST_STACKS_TIMEOUT": "80", "VMTEST_SMP": "4", "VMTEST_MEM": "2048",
               "VMTEST_RETRY": "0", "VMTEST_LOCK": "/tmp/x.lock", "VMTEST_KVER": "6.1.0-9-amd64"}
        s = cli.parse(["fleet"], env).settings
        self.assertEqual(s.timeouts, {Boot.CHROOT: 60, Boot.SYSTEMD: 70, Boot.STACKS: 80})
        self.assertEqual((s.smp, s.mem, s.retry, s.lock, s.kver), (4, 2048, False, "/tmp/x.lock", "6.1.0-9-amd64"))
        with self.assertRaisesRegex(cli.UsageError, "VMTEST_SMP=two"):
            cli.parse([], {"VMTEST_SMP": "two"})


class HelpTests(unittest.TestCase):
    def test_boots_listed_from_the_registry(self):
        text = cli.help_text()
        self.assertIn("- scenarios 1-10, 17, 20, 21, 24, 26-31, 36-38: busybox init", text)
        self.assertIn("- scenarios 32-35, 39-41: busybox init chroots into a Debian 13 root", text)
        self.assertIn("- scenarios 11-16, 18, 19, 22, 23, 25: systemd as PID 1", text)
        self.assertIn("22 runs first in its boot; 23 runs last in its boot", text)
        for line in text.splitlines():
            self.assertLessEqual(len(line), 110, line)

    def test_the_command(self):
        vmtest = os.path.join(ROOT, "tools", "vmtest")
        r = subprocess.run([sys.executable, vmtest, "--list"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), registry.table_lines())
        r = subprocess.run([sys.executable, vmtest, "0"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("vmtest: no scenario '0'", r.stderr)


class MachineTests(unittest.TestCase):
    def test_qemu_command(self):
        shares = [machine.Share("hostroot", "/"), machine.Share("out", "/o", writable=True)]
        cmd = machine.X86_64.qemu_command("6.1.0-9-amd64", "/i.gz", ["vmtest_out=/o"], shares, 2, 1024)
        self.assertEqual(cmd[0], "qemu-system-x86_64")
        self.assertEqual(cmd[cmd.index("-kernel") + 1], "/boot/vmlinuz-6.1.0-9-amd64")
        self.assertEqual(cmd[cmd.index("-initrd") + 1], "/i.gz")
        self.assertEqual(cmd[cmd.index("-append") + 1], "console=ttyS0 quiet loglevel=3 panic=-1 clocksource=tsc "
                                                          "tsc=reliable vmtest_out=/o")
        virtfs = [cmd[i + 1] for i, a in enumerate(cmd) if a == "-virtfs"]
        self.assertEqual(virtfs, ["local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
                                  "local,path=/o,mount_tag=out,security_model=none"])

    def test_arm64_qemu_command(self):
        shares = [machine.Share("hostroot", "/r/.build/arm64-guest-root")]
        cmd = machine.ARM64.qemu_command("6.12.117+deb13-arm64", "/i.gz", [], shares, 2, 1024, "/r")
        self.assertEqual(cmd[:8], ["qemu-system-aarch64", "-M", "virt", "-accel", "tcg,thread=multi", "-cpu", "max",
                                   "-smp"])
        self.assertEqual(cmd[cmd.index("-kernel") + 1], "/r/.build/arm64-guest-root/boot/vmlinuz-6.12.117+deb13-arm64")
        self.assertEqual(cmd[cmd.index("-append") + 1], "console=ttyAMA0 quiet loglevel=3 panic=-1")

    def test_kernel_versions_sort_as_versions(self):
        names = ["6.1.0-28-amd64", "6.1.0-9-amd64", "5.10.0-30-amd64", "6.10.1-1-amd64"]
        self.assertEqual(sorted(names, key=machine.version_key)[-1], "6.10.1-1-amd64")
        self.assertEqual(sorted(names, key=machine.version_key)[0], "5.10.0-30-amd64")


RESULTS = """\
PASS 1 captures through the kernel (140.2 s)
    demo.evemu: 3 contacts
FAIL 22 the packages installed with dpkg -i (30.0 s)
    units: fine
    FAILED: StatusText 'serving 0 devices'
    Traceback: Error one
    error two
    error three
"""


class ResultsTests(unittest.TestCase):
    def test_blocks(self):
        blocks = results.split_blocks(RESULTS)
        self.assertEqual(sorted(blocks), [1, 22])
        self.assertEqual(blocks[1], ["PASS 1 captures through the kernel (140.2 s)", "    demo.evemu: 3 contacts"])

    def test_a_scenario_without_a_result_failed(self):
        o = results.outcome([1, 22, 23], RESULTS, "out/console-*.log")
        self.assertEqual(o.passed, 1)
        self.assertEqual(o.failed, [22, 23])
        self.assertEqual(o.blocks[2], (23, "FAIL 23 (no result: see out/console-*.log)"))
        self.assertEqual(o.counts(), "1 passed, 2 failed")

    def test_failures_say_why_in_three_lines(self):
        o = results.outcome([1, 22], RESULTS, "c")
        self.assertEqual(o.failures, ["FAIL 22 the packages installed with dpkg -i (30.0 s)",
                                      "    FAILED: StatusText 'serving 0 devices'", "    Traceback: Error one",
                                      "    error two"])

    def test_closing_lines(self):
        passed = results.outcome([1], RESULTS, "c")
        self.assertEqual(results.closing(passed), (["1 passed, 0 failed"], True))
        first = results.outcome([1, 22], RESULTS, "c")
        self.assertEqual(results.closing(first), (["1 passed, 1 failed"], False))
        again_passed = results.outcome([22], "PASS 22 the packages (3 s)\n", "c")
        self.assertEqual(results.closing(first, again_passed, ".build/vmtest/out-first/"),
                         (["vmtest: passed only when run a second time: 22 (first run: .build/vmtest/out-first/)",
                           "2 passed, 0 failed"], True))
        again_failed = results.outcome([22], "", "c")
        self.assertEqual(results.closing(first, again_failed), (["1 passed, 1 failed"], False))


class ProgressTests(unittest.TestCase):
    def test_driver_lines_picked_as_they_complete(self):
        p = Progress()
        self.assertEqual(p.feed(b"[    0.1] kernel\r\n[init] up after 2 s\r\n[vmtest] scen"), ["[init] up after 2 s"])
        self.assertEqual(p.feed(b"ario 1: captures\r\nnoise\n"), ["[vmtest] scenario 1: captures"])
        self.assertEqual(p.feed(b"\xff[vmtest] x\n"), [])


class LockTests(unittest.TestCase):
    def test_taken_and_given_back(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "vm.lock")
            with lock.VMLock(path, self.fail):
                with open(path) as other, self.assertRaises(BlockingIOError):
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with open(path) as other:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def test_held_by_flock_around_the_run(self):
        # `flock LOCK tools/vmtest`: the descriptor is inherited, and taking the lock again would wait forever.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "vm.lock")
            with open(path, "a") as held:
                fcntl.flock(held, fcntl.LOCK_EX)
                self.assertTrue(lock.inherited(path))
                with lock.VMLock(path, self.fail) as taken:
                    self.assertIsNone(taken.file)
            self.assertFalse(lock.inherited(path))


if __name__ == "__main__":
    unittest.main()
