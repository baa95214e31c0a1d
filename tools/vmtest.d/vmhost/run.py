"""tools/vmtest's run: the builds, the boots (each boot's scenarios from the registry), the results, and the
second run of the failed scenarios. `main` is the entry point."""
import os
import shutil
import signal
import subprocess
import sys
import time

import scenarios as registry
from scenarios import Boot

from . import cli, initramfs, results, stacks_root
from .lock import VMLock
from .machine import Share
from .qemu import VM

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tools/vmtest.d
REPO = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(REPO, ".build", "vmtest")
OUT = os.path.join(WORK, "out")
FIRST = os.path.join(WORK, "out-first")
# What the guests need of the host beside the machine's own packages: evemu-tools, libinput-tools and its
# Python modules are the reference players recordings must satisfy; weston and wev scenario 27's compositor
# (and the matrix's: the scenarios' own packages come with them, scenarios.py).
PACKAGES = ("busybox-static", "kmod", "udev", "cpio", "xz-utils", "gcc", "python3", "libevdev-dev", "libudev-dev",
            "pkg-config", "make", "systemd", "util-linux", "evemu-tools", "libinput-tools", "python3-libevdev",
            "python3-pyudev", "python3-yaml", "weston", "wev")
PLAYERS = ("evplay", "uhidplay")


def say(message, error=False):
    print(f"vmtest: {message}", file=sys.stderr if error else sys.stdout, flush=True)


def rel(path):
    return os.path.relpath(path, REPO)


def sh(*args, **kwargs):
    sys.stdout.flush()
    subprocess.run(args, check=True, **kwargs)


class Run:
    """One run of some scenarios: both boots at most, then their results."""

    def __init__(self, request, vm):
        self.request = request
        self.settings = request.settings
        self.machine = request.machine
        self.vm = vm
        self.stacks = None  # the stacks boot's root, once made

    def prepare(self, chosen, second):
        """Everything the boots need: packages, builds, the expected gestures and config, the systemd boot's
        staged tree; returns the kernel version and the initramfs."""
        own = [p for s in chosen if s.boot is not Boot.STACKS for p in s.packages]
        sh(os.path.join(REPO, "tools", "setup-debian"), "--only", *self.machine.packages, *PACKAGES,
           *dict.fromkeys(own))
        kver = self.settings.kver or self.machine.newest_kernel()
        if not os.access(self.machine.kernel(kver), os.R_OK):
            raise SystemExit(f"vmtest: no {self.machine.kernel(kver)}")
        # Debug for most scenarios, the release with the Swift runtime linked in for 7.
        say("building pressured, pressurectl (debug) and the static release pressured")
        sh("swift", "build", "--product", "pressured")
        sh("swift", "build", "--product", "pressurectl")
        sh("swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "pressured")
        os.makedirs(os.path.join(WORK, "bin"), exist_ok=True)
        for p in PLAYERS:
            sh("gcc", "-O2", "-Wall", "-o", os.path.join(WORK, "bin", p), os.path.join(HERE, f"{p}.c"))
        shutil.rmtree(OUT, ignore_errors=True)
        if not second:
            shutil.rmtree(FIRST, ignore_errors=True)
        os.makedirs(OUT)
        os.makedirs(os.path.join(WORK, "work"), exist_ok=True)
        chroot = registry.in_boot(chosen, Boot.CHROOT) + registry.in_boot(chosen, Boot.STACKS)
        systemd = registry.in_boot(chosen, Boot.SYSTEMD)
        # (prepare.py's list decides the captures it replays: with no chroot scenarios, the systemd ones, which
        # need none)
        sh(sys.executable, os.path.join(HERE, "prepare.py"), REPO, WORK, OUT,
           *map(str, registry.numbers(chroot or systemd)))
        if registry.in_boot(chosen, Boot.STACKS):
            say("making or updating the stacks boot's Debian 13 root (tools/debian-root)")
            self.stacks = stacks_root.make(REPO, self.machine.name, kver, (REPO, self.shared()))
        if systemd:
            stage = os.path.join(WORK, "sysroot")
            say(f"building the Debian packages for the systemd boot (tools/build-deb), staging {stage}")
            sh(os.path.join(REPO, "tools", "build-deb"), "--no-lintian")
            sh(os.path.join(HERE, "systemd-stage"), REPO, stage, OUT, os.path.join(WORK, "work", "fixtures.conf"),
               os.path.join(REPO, ".build", "deb"), *map(str, registry.numbers(systemd)))
        return kver, initramfs.build(WORK, self.machine, kver)

    def boot_args(self, boot, shared):
        """The kernel's arguments that pick the boot's init and tell it where things are."""
        if boot in (Boot.CHROOT, Boot.STACKS):
            return [f"vmtest_guest={os.path.join(HERE, boot.driver)}", f"vmtest_repo={REPO}",
                    f"vmtest_shared={shared}"]
        # systemd as PID 1 on an overlay of the host's root with the staged tree on top (init-systemd),
        # booting vmtest.target (sysinit and the driver); journald's and systemd's chatter stays off the console.
        return ["rdinit=/init-systemd", f"vmtest_stage={os.path.join(WORK, 'sysroot')}",
                "systemd.unit=vmtest.target", "systemd.show_status=false", "systemd.journald.forward_to_console=0"]

    @staticmethod
    def shared():
        shared = os.path.realpath(os.path.join(REPO, "..", "shared"))
        if not os.path.isdir(shared):
            shared = os.path.join(WORK, "no-shared")
            os.makedirs(shared, exist_ok=True)
        return shared

    def boots(self, chosen, kver, initrd):
        # The checkout and ../shared get shares of their own: the chroot guest's /tmp is a fresh tmpfs, which
        # would hide a checkout that lives under the host's /tmp (CI may clone anywhere).
        shared = self.shared()
        with VMLock(self.settings.lock, say):
            for boot in registry.BOOTS:
                mine = registry.in_boot(chosen, boot)
                if not mine:
                    continue
                # (the stacks boot chroots into its Debian 13 root instead of the host's)
                root = self.stacks if boot is Boot.STACKS else "/"
                shares = [Share("hostroot", root), Share("repo", REPO), Share("shared", shared), Share("out", OUT, True)]
                kind = {Boot.CHROOT: "busybox chroot", Boot.SYSTEMD: "systemd as init",
                        Boot.STACKS: "busybox chroot into the Debian 13 stacks root"}[boot]
                say(f"booting {kver} under QEMU (TCG), {kind}, for scenarios: "
                    + " ".join(map(str, registry.numbers(mine))))
                command = self.machine.qemu_command(kver, initrd, self.boot_args(boot, shared) + [f"vmtest_out={OUT}"],
                                                    shares, self.settings.smp, self.settings.mem)
                self.vm.boot(boot.value, command, self.settings.timeouts[boot],
                             os.path.join(OUT, f"console-{boot.value}.log"), say)
        keep_matrix_results()

    def once(self, chosen, second=False):
        """Prepares, boots and reads back the results of `chosen`; prints a line per scenario."""
        kver, initrd = self.prepare(chosen, second)
        self.boots(chosen, kver, initrd)
        try:
            with open(os.path.join(OUT, "results.txt"), errors="replace") as f:
                text = f.read()
        except FileNotFoundError:
            text = ""
        outcome = results.outcome(registry.numbers(chosen), text, os.path.join(OUT, "console-*.log"))
        print()
        for _, block in outcome.blocks:
            print(block)
        return outcome


def keep_matrix_results():
    """The compositor matrix's results (OUT/matrix/*.json) kept past this run, each stack's newest, for
    tools/filter-matrix-table: the matrix's boots may be different runs."""
    made = os.path.join(OUT, "matrix")
    if os.path.isdir(made):
        kept = os.path.join(WORK, "matrix")
        os.makedirs(kept, exist_ok=True)
        for name in os.listdir(made):
            shutil.copy(os.path.join(made, name), os.path.join(kept, name))


def report(outcome, started):
    """After the scenarios' lines: where the logs are, the time, and the failures again (a CI log that keeps
    only its tail still shows why)."""
    print()
    print(f"logs: {rel(OUT)}/ (console-*.log, logs/)")
    print(f"vmtest took {int(time.monotonic() - started)} s")
    if outcome.failed:
        print("failed, again (their details above):")
        print("".join(f"  {l}\n" for l in outcome.failures), end="")


def run(request):
    started = time.monotonic()
    vm = VM()
    runner = Run(request, vm)
    try:
        first = runner.once(list(request.scenarios))
        report(first, started)
        second = None
        # A second run: the guest shares two emulated cores with whatever else the host runs, so a scenario can
        # miss a deadline once. The failed ones boot once more, alone, in fresh VMs; one that fails again fails
        # the run, one that passes is named as passing only the second time (its first run's logs kept in
        # out-first/). VMTEST_RETRY=0 turns this off.
        if first.failed and request.settings.retry:
            shutil.copytree(OUT, FIRST, symlinks=True)
            say("running the failed scenarios again, once: " + " ".join(map(str, first.failed)))
            again = [registry.BY_NUMBER[n] for n in first.failed]
            second = runner.once(again, second=True)
            report(second, started)
            print(f"second run: {second.counts()}")
        lines, ok = results.closing(first, second, f"{rel(FIRST)}/")
        print("\n".join(lines), flush=True)
        return 0 if ok else 1
    finally:
        vm.stop()


def interrupted(*_):
    raise KeyboardInterrupt  # a TERM ends the run as Ctrl-C does: the VM stopped, the temporary files gone


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)
    try:
        request = cli.parse(argv, os.environ)
    except cli.UsageError as e:
        print(f"vmtest: {e}\n{cli.USAGE}", file=sys.stderr)
        return 2
    if request.action == "help":
        print(cli.help_text())
        return 0
    if request.action == "list":
        print("\n".join(registry.table_lines()))
        return 0
    if any(c.isspace() for c in REPO):
        say("the repository path has spaces", error=True)  # (the kernel's command line carries it)
        return 2
    os.chdir(REPO)
    # Temporary files stay in the build folder too (SwiftPM leaves TemporaryDirectory.* in $TMPDIR on every
    # build).
    tmp = os.path.join(WORK, "tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    os.environ["TMPDIR"] = tmp
    signal.signal(signal.SIGTERM, interrupted)
    try:
        return run(request)
    except KeyboardInterrupt:
        say("interrupted", error=True)
        return 130
    except subprocess.CalledProcessError as e:
        say(f"{' '.join(map(str, e.cmd))}: exit {e.returncode}", error=True)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
