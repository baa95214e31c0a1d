#!/usr/bin/env python3
"""Runs inside the QEMU guest (chrooted into the host's root, read-only; /run and /tmp are the guest's
tmpfs): the chroot boot's vmtest scenarios (tools/vmtest.d/scenarios.py) against real /dev/input nodes.
Usage: guest.py OUT (the writable results share, holding config.json from prepare.py). Writes OUT/results.txt:
per scenario a line `PASS|FAIL <n> <title> (<seconds> s)` followed by indented detail lines; daemon and player
logs go to OUT/logs/.
"""
import os
import subprocess

from scenarios import Boot
from vmguest.harness import CFG, log
from vmguest import runner


def main():
    for m in ("uinput", "evdev", "uhid", "hid-multitouch"):
        subprocess.run(["modprobe", m], check=True)
    log(f"guest {os.uname().release}, {os.cpu_count()} cpus, scenarios {CFG['scenarios']}")
    runner.run_boot(Boot.CHROOT, CFG["scenarios"])


main()
