"""The stacks boot's root (scenarios.Boot.STACKS): a Debian 13 root made with mmdebstrap (tools/debian-root,
kept in .build/roots/stacks-trixie-<arch> and reused), holding the display stacks of the compositor matrix
and what the guest's driver needs, booted as the chroot boot boots the host's root: shared read-only over 9p
and chrooted into by tools/vmtest.d/init. Three things the host's root has and this one needs are put in it
before the boot: the guest kernel's modules (hard links to the host's /lib/modules/KVER: no copy) and the
folders the init script mounts the checkout, ../shared and the results share on (a read-only 9p root lets
it make none)."""
import os
import subprocess

from .machine import ALIASES

# Debian 13's stacks of the matrix, their clients, the Qt Quick app's runtime, and the guest's own needs
# (udev, python3 for the driver, libevdev and libudev for the static pressured, kmod, seatd for the wlroots
# compositors and Weston 14, Mesa's and xkb's data the compositors load, a font for Qt's text).
PACKAGES = ("labwc", "cage", "sway", "weston", "wev", "xwayland", "seatd", "xserver-xorg-core",
            "xserver-xorg-video-dummy", "xserver-xorg-input-libinput", "xinput", "x11-xserver-utils", "qml-qt6",
            "qt6-wayland", "qml6-module-qtquick", "qml6-module-qtquick-controls", "qml6-module-qtquick-window",
            "qml6-module-qtqml-workerscript", "qml6-module-qtquick-templates", "qml6-module-qtquick-layouts",
            "libinput-tools", "udev", "python3", "libevdev2", "libudev1", "fonts-dejavu-core", "libgl1-mesa-dri",
            "libegl-mesa0", "xkb-data", "kmod", "procps", "evemu-tools")
RELEASE = "trixie"


def make(repo, machine_name, kver, mount_points):
    """The root for the guest machine `machine_name` (machine.py's), made or updated; returns its path."""
    arch = next((debian for debian, name in ALIASES.items() if name == machine_name), machine_name)
    path = os.path.join(repo, ".build", "roots", f"stacks-{RELEASE}-{arch}")
    subprocess.run([os.path.join(repo, "tools", "debian-root"), "--release", RELEASE, "--arch", arch,
                    "--include", ",".join(PACKAGES), path], check=True, stdout=subprocess.DEVNULL)
    modules = os.path.join(path, "lib", "modules", kver)
    if not os.path.isdir(modules):
        os.makedirs(os.path.dirname(modules), exist_ok=True)
        # (hard links where the checkout is on the root's file system, else a copy)
        if subprocess.run(["cp", "-al", f"/lib/modules/{kver}", modules]).returncode != 0:
            subprocess.run(["rm", "-rf", modules], check=True)
            subprocess.run(["cp", "-a", f"/lib/modules/{kver}", modules], check=True)
    for m in mount_points:
        os.makedirs(path + m, exist_ok=True)
    return path
