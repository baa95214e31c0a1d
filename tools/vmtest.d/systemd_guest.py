#!/usr/bin/env python3
"""Runs inside the QEMU guest of tools/vmtest's second boot, where systemd is PID 1 on an overlay of the host's
root (tools/vmtest.d/systemd-stage, init-systemd); it installs the project's Debian packages with dpkg -i
first (vmguest/package_scenarios.py), then runs the scenarios, scenario 23 (remove and purge) last. Started by
vmtest-driver.service (tools/vmtest.d/systemd/); the guest powers off when it ends.
Usage: systemd_guest.py OUT SCENARIO... (OUT: the writable results share, holding prepare.py's config.json).
Adds the scenarios' results to OUT/results.txt (after the chroot boot's); logs and the journal go to OUT/logs/.
"""
import os
import shutil
import subprocess
import sys

from vmguest.harness import LOGS, log
from vmguest import access_scenario, filter_unit_scenario, learning_scenarios, package_scenarios, runner
from vmguest import systemd_scenarios as s

SCENARIOS = {
    11: ("udev starts the service", s.s11_udev_starts),
    12: ("socket activation", s.s12_socket_activation),
    13: ("unplug and replug while serving", s.s13_replug),
    14: ("kill, restart, reconnect", s.s14_kill_restart),
    15: ("hardening in force", s.s15_hardening),
    16: ("watchdog and reload under systemd", s.s16_watchdog_and_reload),
    18: ("the state directory under systemd", learning_scenarios.s18_state_directory),
    19: ("who may do what, decided by the kernel's identity", access_scenario.s19_identity),
    22: ("the packages installed with dpkg -i", package_scenarios.s22_package_install),
    23: ("the packages removed and purged", package_scenarios.s23_package_remove),
    25: ("filter mode under the unit: access, watchdog", filter_unit_scenario.s25_filter_unit),
}


def save(name, args):
    with open(os.path.join(LOGS, name), "w") as f:
        subprocess.run(args, stdout=f, stderr=subprocess.STDOUT)


def main():
    for m in ("uinput", "evdev"):
        subprocess.run(["modprobe", m], check=True)
    with open("/proc/uptime") as f:
        log(f"systemd up, driver started {float(f.read().split()[0]):.1f} s after the kernel")
    # The daemon starts with fresh state: what a pressured installed on the host learned shows through the
    # overlay's lower layer, and goes (in the upper layer only).
    if os.path.exists("/var/lib/pressured"):
        log("hiding the host's /var/lib/pressured")
        shutil.rmtree("/var/lib/pressured")
    try:
        package_scenarios.install()
        # Removal takes the installed daemon away from every other scenario: it runs last.
        numbers = [int(n) for n in sys.argv[2:]]
        runner.run(SCENARIOS, [n for n in numbers if n != 23] + [n for n in numbers if n == 23], mode="a")
    finally:
        # Player logs are copied by their stop(); the journal holds systemd's and the daemon's side.
        save("journal-systemd-boot.txt", ["journalctl", "-b", "--no-pager", "-o", "short-monotonic"])
        save("systemctl-status-systemd-boot.txt", ["systemctl", "status", "--no-pager", "-l", "pressured.service",
                                                   "pressured.socket", "systemd-sysusers.service"])
        os.sync()


main()
