#!/usr/bin/env python3
"""Runs inside the QEMU guest (chrooted into the host's root, read-only; /run and /tmp are the guest's
tmpfs): the vmtest scenarios against real /dev/input nodes. Usage: guest.py OUT (the writable results share,
holding config.json from prepare.py). Writes OUT/results.txt: per scenario a line `PASS|FAIL <n> <title>
(<seconds> s)` followed by indented detail lines; daemon and player logs go to OUT/logs/.
"""
import os
import subprocess

from vmguest.harness import CFG, log
from vmguest import (filter_compositor, filter_scenario, filter_single_touch, fleet_scenario, haptics_scenario, hotplug_scenario, kernel_scenarios as k, learning_scenarios as learning, runner,
                     tool_scenarios as t)

SCENARIOS = {
    1: ("captures through the kernel", k.s1_captures),
    2: ("hot-plug through udev", k.s2_hotplug_udev),
    3: ("unplug mid-press", k.s3_unplug),
    4: ("SYN_DROPPED", k.s4_syn_dropped),
    5: ("hid-multitouch through uhid", k.s5_hid_multitouch),
    6: ("no pressure axis", k.s6_no_pressure),
    7: ("static pressured without the Swift toolchain", k.s7_static),
    8: ("hot-plug 200 times beside a held finger", hotplug_scenario.s8_hotplug_many),
    9: ("pressurectl record, played back by evemu and libinput", t.s9_record),
    10: ("record permissions and interactive calibrate", t.s10_permissions_and_calibrate),
    17: ("what a device learned, kept across restarts", learning.s17_persistence),
    20: ("the fleet: the kernel's HID test devices through hid-multitouch", fleet_scenario.s20_fleet),
    21: ("haptics: peek and pop felt through force feedback, fallback, opted-out region", haptics_scenario.s21_haptics),
    24: ("filter mode: a gesture's touch cancelled on the clone, libinput reading it", filter_scenario.s24_filter),
    26: ("filter mode on single-touch panels: a one-slot clone", filter_single_touch.s26_single_touch),
    27: ("filter mode under Weston 10: what its client sees of a taken touch", filter_compositor.s27_compositor),
}


def main():
    for m in ("uinput", "evdev", "uhid", "hid-multitouch"):
        subprocess.run(["modprobe", m], check=True)
    log(f"guest {os.uname().release}, {os.cpu_count()} cpus, scenarios {CFG['scenarios']}")
    runner.run(SCENARIOS, CFG["scenarios"])


main()
