#!/usr/bin/env python3
"""Runs inside the QEMU guest, chrooted into the Debian 13 stacks root (tools/vmtest.d/vmhost/stacks_root.py:
Debian's labwc, cage, sway, Weston, Xorg and Qt 6, read-only over 9p as the chroot boot shares the host's
root; /run and /tmp are the guest's tmpfs): the stacks boot's scenarios (scenarios.py), as guest.py runs the
chroot boot's. The root has no Swift: pressured is the static release build from the checkout's share, its
Swift runtime linked in, its C libraries (libevdev, libudev) the root's own. The guest's kernel modules are
the host's, linked into the root. Usage: stacks_guest.py OUT; adds to OUT/results.txt after the other boots.
"""
import os
import subprocess

from scenarios import Boot
from vmguest.harness import CFG, log
from vmguest import runner


def main():
    for m in ("uinput", "evdev"):
        subprocess.run(["modprobe", m], check=True)
    with open("/etc/debian_version") as f:
        release = f.read().strip()
    log(f"guest {os.uname().release} in the stacks root (Debian {release}), scenarios {CFG['scenarios']}")
    runner.run_boot(Boot.STACKS, CFG["scenarios"], mode="a")


main()
