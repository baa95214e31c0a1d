"""tools/vmtest's command line and settings: what to run (scenario numbers or `fleet`, `--arch`), or `--list`
and `--help`, whose text is made from the scenario registry (tools/vmtest.d/scenarios.py)."""
from dataclasses import dataclass

import scenarios as registry

from . import machine as machines

USAGE = """\
usage: tools/vmtest [--arch ARCH] [SCENARIO...]   (every scenario when none is given; on arm64, 1 5 11 22 24)
       tools/vmtest fleet                          (scenario 20 alone: every device of the fleet)
       tools/vmtest filter-matrix                  (the compositor matrix, both Debian releases' stacks)
       tools/vmtest action-matrix                  (actions under the matrix's stacks: a right click, a key)
       tools/vmtest --list                         (the scenarios, from tools/vmtest.d/scenarios.py)"""

# The chroot VM's limit before the scenarios' own extra time (the fleet's), the systemd VM's, and the stacks
# VM's (before its scenarios' time).
CHROOT_TIMEOUT = 1200
SYSTEMD_TIMEOUT = 720
STACKS_TIMEOUT = 300


class UsageError(Exception):
    """A command line tools/vmtest does not take; exit status 2."""


@dataclass(frozen=True)
class Settings:
    """The environment's settings (tools/vmtest --help lists them)."""
    timeouts: dict  # Boot -> seconds
    smp: int
    mem: int
    retry: bool
    lock: str
    kver: str  # empty: the newest installed


@dataclass(frozen=True)
class Request:
    action: str  # "run", "list" or "help"
    scenarios: tuple = ()
    machine: machines.Machine = machines.X86_64
    settings: Settings = None


def parse(argv, environ):
    """A Request from the arguments (without the program's name) and the environment; raises UsageError."""
    words, arch, action = [], machines.X86_64.name, "run"
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            return Request("help")
        if a == "--list":
            action = "list"
        elif a == "--arch" or a.startswith("--arch="):
            if "=" in a:
                arch = a.split("=", 1)[1]
            elif args:
                arch = args.pop(0)
            else:
                raise UsageError("--arch needs an architecture")
        elif a.startswith("-"):
            raise UsageError(f"unknown option {a}")
        else:
            words.append(a)
    try:
        machine = machines.machine(arch)
    except machines.UnknownMachine:
        raise UsageError(f"no guest for architecture '{arch}' (known: {', '.join(machines.MACHINES)})") from None
    if action == "list":
        return Request("list", machine=machine)
    if not words and machine.default_scenarios:
        words = [str(n) for n in machine.default_scenarios]
    try:
        chosen = registry.select(words)
    except registry.UnknownScenario as e:
        raise UsageError(f"no scenario '{e}' ({known_words()})") from None
    for s in chosen:
        if s.number in machine.unsupported:
            raise UsageError(f"scenario {s.number} does not run on {machine.name}: {machine.unsupported[s.number]}")
    # (The fleet's devices: VMTEST_FLEET, read by prepare.py; unset, every one.)
    return Request("run", tuple(chosen), machine, settings(environ, chosen, machine.timeout_factor))


def known_words():
    nums = registry.numbers(registry.SCENARIOS)
    aliases = [s.alias for s in registry.SCENARIOS if s.alias]
    aliases += list(dict.fromkeys(s.group for s in registry.SCENARIOS if s.group))
    return f"{min(nums)}..{max(nums)}" + "".join(f", or {a}" for a in aliases)


def settings(environ, chosen, factor=1):
    chroot = factor * (CHROOT_TIMEOUT + sum(s.extra_timeout for s in registry.in_boot(chosen, registry.Boot.CHROOT)))
    systemd = factor * (SYSTEMD_TIMEOUT + sum(s.extra_timeout for s in registry.in_boot(chosen, registry.Boot.SYSTEMD)))
    stacks = factor * (STACKS_TIMEOUT + sum(s.extra_timeout for s in registry.in_boot(chosen, registry.Boot.STACKS)))
    return Settings(
        timeouts={registry.Boot.CHROOT: number(environ, "VMTEST_TIMEOUT", chroot),
                  registry.Boot.SYSTEMD: number(environ, "VMTEST_SYSTEMD_TIMEOUT", systemd),
                  registry.Boot.STACKS: number(environ, "VMTEST_STACKS_TIMEOUT", stacks)},
        smp=number(environ, "VMTEST_SMP", 2),
        mem=number(environ, "VMTEST_MEM", 1024),
        retry=environ.get("VMTEST_RETRY", "1") != "0",
        lock=environ.get("VMTEST_LOCK", "/tmp/vmtest.lock"),
        kver=environ.get("VMTEST_KVER", ""))


def number(environ, name, default):
    value = environ.get(name, "")
    if not value:
        return default
    if not value.isdigit():
        raise UsageError(f"{name}={value}: not a whole number")
    return int(value)


def help_text():
    """tools/vmtest --help: what it does, its boots and their scenarios (from the registry), its settings."""
    by_boot = {b: registry.ranges(registry.numbers(registry.in_boot(registry.SCENARIOS, b))) for b in registry.BOOTS}
    fleet = [s for s in registry.SCENARIOS if s.alias]
    arm64_default = " ".join(map(str, machines.ARM64.default_scenarios))
    arm64_not = registry.ranges(sorted(machines.ARM64.unsupported))
    matrix = registry.ranges([s.number for s in registry.SCENARIOS if s.group == registry.MATRIX])
    in_default = registry.ranges([s.number for s in registry.SCENARIOS if s.group == registry.MATRIX and s.default],
                                 " and ")
    order_notes = "; ".join(f"{s.number} runs {s.phase.name.lower()} in its boot"
                            for s in registry.SCENARIOS if s.phase is not registry.Phase.ANY)
    return f"""\
Real kernel, real drivers, real init: end-to-end tests of pressured in a QEMU guest.

{USAGE}

Installs what it needs (Debian packages), builds pressured and pressurectl (debug) and the release pressured
with a static Swift runtime, the C players (tools/vmtest.d/*.c), the expected gestures (`pressurectl replay`,
tools/vmtest.d/prepare.py) and a busybox initramfs; boots the Debian kernel under QEMU (software emulation)
up to three times:
- scenarios {by_boot[registry.Boot.CHROOT]}: busybox init chroots into the host's root, where
  tools/vmtest.d/guest.py (scenario modules in tools/vmtest.d/vmguest/) runs them against real /dev/input
  nodes (uinput, uhid + hid-multitouch, systemd-udevd, evemu's and libinput's players);
- scenarios {by_boot[registry.Boot.SYSTEMD]}: systemd as PID 1 on an overlay of the host's root, where the
  guest installs the project's Debian packages (tools/build-deb) with dpkg -i and
  tools/vmtest.d/systemd_guest.py tests the real units;
- scenarios {by_boot[registry.Boot.STACKS]}: busybox init chroots into a Debian 13 root with the display stacks
  (mmdebstrap, .build/roots/), where tools/vmtest.d/stacks_guest.py runs them with the static release
  pressured under Debian 13's compositors.
Scenarios run boot by boot in the order given ({order_notes}).
{"".join(f"`tools/vmtest {s.alias}`: scenario {s.number} alone. " for s in fleet)}`tools/vmtest --list` \
shows every scenario.
`tools/vmtest {registry.MATRIX}`: the compositor matrix, scenarios {matrix} (the default run has {in_default}).

Prints a line per scenario (details indented), `N passed, M failed` and the time taken; exits non-zero on any
failure. A scenario that fails is run once more in fresh boots and named when only its second run passes.
Everything it writes is under .build/vmtest (logs: .build/vmtest/out/); no VM outlives it. One VM runs at a
time on the machine: boots wait for the lock file, which `flock` around tools/vmtest may hold already.

Options: --arch ARCH, the guest's architecture ({', '.join(machines.MACHINES)}; default x86_64). arm64:
Debian 13's arm64 kernel under qemu-system-aarch64 on a Debian 13 arm64 root made once under .build/
(debootstrap under qemu-user, about 50 minutes), running the packages of `tools/build-deb --release trixie
--arch arm64`; by default scenarios {arm64_default}, not {arm64_not}; its files in .build/vmtest-arm64.
Settings (environment): VMTEST_KVER (guest kernel; default the newest in the guest root's /lib/modules),
VMTEST_TIMEOUT (seconds for the chroot VM; default {CHROOT_TIMEOUT}, more with the fleet, twice on arm64),
VMTEST_SYSTEMD_TIMEOUT (the systemd VM; {SYSTEMD_TIMEOUT}), VMTEST_STACKS_TIMEOUT (the stacks VM;
{STACKS_TIMEOUT} and 300 a scenario), VMTEST_FLEET (the fleet's devices: `all`, or test classes separated by
commas), VMTEST_MATRIX_WAYS (the compositor matrix's filter methods, `hold,cancel`; default every one the
build has), VMTEST_RETRY (0: no second run), VMTEST_LOCK (/tmp/vmtest.lock), VMTEST_SMP (2), VMTEST_MEM
(1024)."""
