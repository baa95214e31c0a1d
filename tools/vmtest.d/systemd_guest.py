#!/usr/bin/env python3
"""Runs inside the QEMU guest of tools/vmtest's second boot, where systemd is PID 1 on an overlay of the host's
root (tools/vmtest.d/systemd-stage, init-systemd); it installs the project's Debian packages with dpkg -i
first (vmguest/package_scenarios.py), then runs the systemd boot's scenarios (tools/vmtest.d/scenarios.py) in
the registry's order (22 first, 23, remove and purge, last). Started by vmtest-driver.service
(tools/vmtest.d/systemd/); the guest powers off when it ends.
Usage: systemd_guest.py OUT SCENARIO... (OUT: the writable results share, holding prepare.py's config.json).
Adds the scenarios' results to OUT/results.txt (after the chroot boot's); logs and the journal go to OUT/logs/.
"""
import os
import shutil
import subprocess
import sys

from scenarios import Boot
from vmguest.harness import LOGS, log
from vmguest import package_scenarios, runner


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
        # (scenario 23, the removal, last: the registry's order)
        runner.run_boot(Boot.SYSTEMD, [int(n) for n in sys.argv[2:]], mode="a")
    finally:
        # Player logs are copied by their stop(); the journal holds systemd's and the daemon's side.
        save("journal-systemd-boot.txt", ["journalctl", "-b", "--no-pager", "-o", "short-monotonic"])
        save("systemctl-status-systemd-boot.txt", ["systemctl", "status", "--no-pager", "-l", "pressured.service",
                                                   "pressured.socket", "systemd-sysusers.service"])
        os.sync()


main()
