"""The vmtest scenarios, registered once: number, title, the boot that runs it, the guest function that checks
it, and what else decides how it runs. Everything else is derived from this table: tools/vmtest's help and
`--list`, the default run, which boot a number goes to, the order inside a boot, the chroot VM's timeout, and
the two guest drivers' tables (guest.py, systemd_guest.py). The standard library only: the host imports it
and so does the guest, from the repository's read-only share.

What each scenario proves is told in docs/testing.md ("Real-kernel tests"), numbered as here; a test
(tools/tests/test_vmtest_registry.py) keeps the two in step.
"""
import enum
from dataclasses import dataclass


class Boot(enum.Enum):
    """The two ways the guest boots; a run boots each at most once, CHROOT first."""
    # busybox init chroots into the host's root (read-only), where guest.py runs the scenarios against real
    # /dev/input nodes.
    CHROOT = "chroot"
    # systemd as PID 1 on an overlay of the host's root; the guest installs the project's Debian packages
    # first (systemd_guest.py).
    SYSTEMD = "systemd"
    # busybox init chroots into a Debian 13 root with the display stacks (tools/vmtest.d/stacks-root, made
    # with mmdebstrap), read-only as the host's is, where stacks_guest.py runs the static release pressured.
    STACKS = "stacks"

    @property
    def driver(self):
        """The guest's driver script, under tools/vmtest.d."""
        return {Boot.CHROOT: "guest.py", Boot.SYSTEMD: "systemd_guest.py", Boot.STACKS: "stacks_guest.py"}[self]


class Phase(enum.IntEnum):
    """Where a scenario runs inside its boot, whatever order the command line gave."""
    FIRST = 0
    ANY = 1
    LAST = 2


@dataclass(frozen=True)
class Scenario:
    number: int
    title: str
    boot: Boot
    # The function that runs it in the guest, "module.function" under tools/vmtest.d/vmguest; it takes the
    # list of detail lines to append to and raises harness.Failure.
    check: str
    phase: Phase = Phase.ANY
    why_phase: str = ""
    # Seconds added to the boot's timeout when the scenario is in the run.
    extra_timeout: int = 0
    # A word that asks for this scenario alone (`tools/vmtest fleet`).
    alias: str = ""
    # A word that asks for this scenario among others (`tools/vmtest filter-matrix`).
    group: str = ""
    # In the run without arguments (CI's); False: only when asked for, by number or group.
    default: bool = True
    # Debian packages the host (or the chroot's root) needs for it beyond tools/vmtest's own.
    packages: tuple = ()

    @property
    def module(self):
        return self.check.split(".")[0]

    @property
    def function(self):
        return self.check.split(".")[1]


C, S, D13 = Boot.CHROOT, Boot.SYSTEMD, Boot.STACKS
# The compositor matrix (vmguest/filter_stacks.py): Debian 12's stacks in the chroot boot, Debian 13's in the
# stacks boot; `tools/vmtest filter-matrix` runs it whole, the run without arguments cage and Xorg alone.
MATRIX = "filter-matrix"
# Actions under the matrix's stacks (vmguest/action_stacks.py): `tools/vmtest action-matrix`.
ACTIONS = "action-matrix"
QT_APP = ("qml-qt6", "qt6-wayland", "qml6-module-qtquick", "qml6-module-qtquick-controls",
          "qml6-module-qtquick-templates", "qml6-module-qtquick-window", "qml6-module-qtqml-workerscript")

SCENARIOS = (
    Scenario(1, "captures through the kernel", C, "kernel_scenarios.s1_captures"),
    Scenario(2, "hot-plug through udev", C, "kernel_scenarios.s2_hotplug_udev"),
    Scenario(3, "unplug mid-press", C, "kernel_scenarios.s3_unplug"),
    Scenario(4, "SYN_DROPPED", C, "kernel_scenarios.s4_syn_dropped"),
    Scenario(5, "hid-multitouch through uhid", C, "kernel_scenarios.s5_hid_multitouch"),
    Scenario(6, "no pressure axis", C, "kernel_scenarios.s6_no_pressure"),
    Scenario(7, "static pressured without the Swift toolchain", C, "kernel_scenarios.s7_static"),
    Scenario(8, "hot-plug 200 times beside a held finger", C, "hotplug_scenario.s8_hotplug_many"),
    Scenario(9, "pressurectl record, played back by evemu and libinput", C, "tool_scenarios.s9_record"),
    Scenario(10, "record permissions and interactive calibrate", C, "tool_scenarios.s10_permissions_and_calibrate"),
    Scenario(11, "udev starts the service", S, "systemd_scenarios.s11_udev_starts"),
    Scenario(12, "socket activation", S, "systemd_scenarios.s12_socket_activation"),
    Scenario(13, "unplug and replug while serving", S, "systemd_scenarios.s13_replug"),
    Scenario(14, "kill, restart, reconnect", S, "systemd_scenarios.s14_kill_restart"),
    Scenario(15, "hardening in force", S, "systemd_scenarios.s15_hardening"),
    Scenario(16, "watchdog and reload under systemd", S, "systemd_scenarios.s16_watchdog_and_reload"),
    Scenario(17, "what a device learned, kept across restarts", C, "learning_scenarios.s17_persistence"),
    Scenario(18, "the state directory under systemd", S, "learning_scenarios.s18_state_directory"),
    Scenario(19, "who may do what, decided by the kernel's identity", S, "access_scenario.s19_identity"),
    Scenario(20, "the fleet: the kernel's HID test devices through hid-multitouch", C, "fleet_scenario.s20_fleet",
             extra_timeout=900, alias="fleet"),  # about 5 minutes of its own
    Scenario(21, "haptics: peek and pop felt through force feedback, fallback, opted-out region", C,
             "haptics_scenario.s21_haptics"),
    Scenario(22, "the packages installed with dpkg -i", S, "package_scenarios.s22_package_install",
             phase=Phase.FIRST, why_phase="it finds the service as the install left it (stopped); the others start it"),
    Scenario(23, "the packages removed and purged", S, "package_scenarios.s23_package_remove",
             phase=Phase.LAST, why_phase="removal takes the installed daemon away from every other scenario"),
    Scenario(24, "filter mode: a gesture's touch cancelled on the clone, libinput reading it", C,
             "filter_scenario.s24_filter"),
    Scenario(25, "filter mode under the unit: access, watchdog", S, "filter_unit_scenario.s25_filter_unit"),
    Scenario(26, "filter mode on single-touch panels: a one-slot clone", C, "filter_single_touch.s26_single_touch"),
    Scenario(27, "filter mode under Weston 10: what its client sees of a taken touch", C,
             "filter_compositor.s27_compositor"),
    Scenario(28, "filter matrix: cage 0.1.4 (Debian 12), wev and a Qt Quick app, each way", C,
             "filter_stacks.s28_cage014", group=MATRIX, extra_timeout=300,
             packages=("cage", "seatd", "xwayland") + QT_APP),
    Scenario(29, "filter matrix: Xorg 21.1 with xf86-input-libinput (Debian 12), xinput and a Qt Quick app, "
             "each way", C, "filter_stacks.s29_xorg21", group=MATRIX, extra_timeout=300,
             packages=("xserver-xorg-core", "xserver-xorg-video-dummy", "xserver-xorg-input-libinput", "xinput")
             + QT_APP),
    Scenario(30, "filter matrix: Weston 10 (Debian 12), wev and a Qt Quick app, each way", C,
             "filter_stacks.s30_weston10", group=MATRIX, default=False, extra_timeout=300, packages=QT_APP),
    Scenario(31, "filter matrix: sway 1.7 (Debian 12), wev and a Qt Quick app, each way", C,
             "filter_stacks.s31_sway17", group=MATRIX, default=False, extra_timeout=300,
             packages=("sway", "seatd") + QT_APP),
    Scenario(32, "filter matrix: labwc 0.8 (Debian 13), wev and a Qt Quick app, each way", D13,
             "filter_stacks.s32_labwc08", group=MATRIX, default=False, extra_timeout=300),
    Scenario(33, "filter matrix: cage 0.2 (Debian 13), wev and a Qt Quick app, each way", D13,
             "filter_stacks.s33_cage02", group=MATRIX, default=False, extra_timeout=300),
    Scenario(34, "filter matrix: sway 1.10 (Debian 13), wev and a Qt Quick app, each way", D13,
             "filter_stacks.s34_sway110", group=MATRIX, default=False, extra_timeout=300),
    Scenario(35, "filter matrix: Weston 14 (Debian 13), wev and a Qt Quick app, each way", D13,
             "filter_stacks.s35_weston14", group=MATRIX, default=False, extra_timeout=300),
    Scenario(36, "actions: Xorg 21.1 (Debian 12), a right click and a key in a Qt Quick app", C,
             "action_stacks.s36_xorg21", group=ACTIONS, default=False, extra_timeout=300,
             packages=("xserver-xorg-core", "xserver-xorg-video-dummy", "xserver-xorg-input-libinput") + QT_APP),
    Scenario(37, "actions: cage 0.1.4 (Debian 12), a right click and a key in a Qt Quick app", C,
             "action_stacks.s37_cage014", group=ACTIONS, default=False, extra_timeout=300,
             packages=("cage", "seatd") + QT_APP),
    Scenario(38, "actions: Weston 10 (Debian 12), a right click and a key in a Qt Quick app", C,
             "action_stacks.s38_weston10", group=ACTIONS, default=False, extra_timeout=300, packages=QT_APP),
    Scenario(39, "actions: labwc 0.8 (Debian 13), a right click and a key in a Qt Quick app", D13,
             "action_stacks.s39_labwc08", group=ACTIONS, default=False, extra_timeout=300),
    Scenario(40, "actions: cage 0.2 (Debian 13), a right click and a key in a Qt Quick app", D13,
             "action_stacks.s40_cage02", group=ACTIONS, default=False, extra_timeout=300),
    Scenario(41, "actions: Weston 14 (Debian 13), a right click and a key in a Qt Quick app", D13,
             "action_stacks.s41_weston14", group=ACTIONS, default=False, extra_timeout=300),
)

BY_NUMBER = {s.number: s for s in SCENARIOS}
BOOTS = tuple(Boot)  # in the order they run


class UnknownScenario(ValueError):
    """A scenario asked for that the table does not have."""


def run_order(scenarios):
    """The scenarios in the order they run: boot by boot, and in a boot by phase, otherwise as given (a stable
    sort), each once."""
    unique = list(dict.fromkeys(scenarios))
    return sorted(unique, key=lambda s: (BOOTS.index(s.boot), s.phase))


def default_run():
    """The scenarios a run without arguments takes (all but those only asked for), in its order."""
    return run_order([s for s in SCENARIOS if s.default])


def select(words):
    """The scenarios that command-line words name (numbers, aliases or groups), in run order; the default run
    when there are none. Raises UnknownScenario naming the first word that is none of these."""
    if not words:
        return default_run()
    aliases = {s.alias: s for s in SCENARIOS if s.alias}
    groups = {s.group for s in SCENARIOS if s.group}
    chosen = []
    for w in words:
        if w in aliases:
            chosen.append(aliases[w])
        elif w in groups:
            chosen.extend(s for s in SCENARIOS if s.group == w)
        elif w.isdigit() and int(w) in BY_NUMBER:
            chosen.append(BY_NUMBER[int(w)])
        else:
            raise UnknownScenario(w)
    return run_order(chosen)


def in_boot(scenarios, boot):
    return [s for s in scenarios if s.boot is boot]


def numbers(scenarios):
    return [s.number for s in scenarios]


def ranges(nums, last=", "):
    """Numbers as prose: [1, 2, 3, 5, 7, 8] -> "1-3, 5, 7, 8" (a range from three numbers on), or with
    last=" and ", "1-3, 5, 7 and 8"."""
    nums = sorted(set(nums))
    parts, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]}-{nums[j]}")
        else:
            parts.extend(str(n) for n in nums[i:j + 1])
        i = j + 1
    return last.join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else "".join(parts)


def table_lines():
    """`tools/vmtest --list`: a line a scenario, in number order."""
    width = max(len(s.title) for s in SCENARIOS)
    lines = [f"{'n':>3}  {'boot':<8} {'runs':<6} {'scenario':<{width}}  check (tools/vmtest.d/vmguest/)"]
    for s in SCENARIOS:
        runs = {Phase.FIRST: "first", Phase.ANY: "", Phase.LAST: "last"}[s.phase]
        lines.append(f"{s.number:>3}  {s.boot.value:<8} {runs:<6} {s.title:<{width}}  {s.check}")
    lines.append("")
    lines.append("default order: " + " ".join(str(n) for n in numbers(default_run())))
    for s in SCENARIOS:
        if s.phase is not Phase.ANY:
            lines.append(f"{s.number} runs {'first' if s.phase is Phase.FIRST else 'last'} in its boot: "
                         f"{s.why_phase}")
        if s.alias:
            lines.append(f"`tools/vmtest {s.alias}`: scenario {s.number} alone")
    for g in dict.fromkeys(s.group for s in SCENARIOS if s.group):
        lines.append(f"`tools/vmtest {g}`: scenarios {ranges([s.number for s in SCENARIOS if s.group == g])}")
    skipped = [s.number for s in SCENARIOS if not s.default]
    if skipped:
        lines.append(f"not in the default run (only when asked for): {ranges(skipped)}")
    return lines
