"""The guest's root for a Machine of another architecture than the host's (machine.ARM64): a Debian root of that
architecture, made once by debootstrap under qemu-user (its second stage runs the guest's own programs: about 50
minutes here) and reused once its stamp is there; packages of PACKAGES it lacks are installed into it with apt
under qemu-user. The host's root cannot serve such a guest: its programs are the host's."""
import os
import subprocess

# The guest's kernel and early userland, what the scenarios run (udev, systemd as PID 1, python3 and its evdev
# and udev modules, evemu's and libinput's players and readers), and the dependencies of the project's packages
# the systemd boot installs with dpkg -i (libjson-c for libpressured0 and its -dev, pkg-config, Qt's QML runtime
# for qml6-module-pressured). dbus-user-session, libpam-systemd and systemd-sysv: without them libinput-tools'
# GTK part asks for a session bus apt cannot resolve later.
PACKAGES = ("linux-image-arm64", "busybox-static", "kmod", "udev", "systemd", "systemd-sysv", "libpam-systemd",
            "dbus", "dbus-user-session", "python3", "python3-libevdev", "python3-pyudev", "python3-yaml",
            "evemu-tools", "libinput-tools", "libevdev2", "libudev1", "libstdc++6", "util-linux",
            "libjson-c-dev", "pkg-config", "qml6-module-qtquick")
MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
# The kernel package's postinst would build an initramfs under emulation (minutes) that the boots do not use:
# they bring their own (vmhost/initramfs.py).
ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "INITRD": "No",
       "LANG": "C.UTF-8"}


def stamp_path(root, arch):
    return os.path.join(root, f".vmtest-{arch}-root")


def binfmt(arch):
    """qemu-user's handler for `arch`, registered when missing (debootstrap's second stage and apt need it)."""
    name = {"arm64": "qemu-aarch64"}[arch]
    if os.path.exists(f"/proc/sys/fs/binfmt_misc/{name}"):
        return
    if not os.path.exists("/proc/sys/fs/binfmt_misc/register"):
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"], check=True)
    with open(f"/usr/lib/binfmt.d/{name}.conf") as src, open("/proc/sys/fs/binfmt_misc/register", "w") as dst:
        dst.write(src.read())


def in_root(root, *command):
    """A command in the root under qemu-user, with /proc mounted while it runs."""
    subprocess.run(["mount", "-t", "proc", "proc", os.path.join(root, "proc")], check=True)
    try:
        subprocess.run(["chroot", root, "/usr/bin/env", "-i", *(f"{k}={v}" for k, v in ENV.items()), *command],
                       check=True)
    finally:
        subprocess.run(["umount", os.path.join(root, "proc")], check=False)


def missing_packages(root):
    """PACKAGES that the root's dpkg does not have installed (read by the host's dpkg-query: no emulation)."""
    r = subprocess.run(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", "-f", "${Package} ${db:Status-Abbrev}\n",
                        *PACKAGES], capture_output=True, text=True)
    installed = {line.split()[0] for line in r.stdout.splitlines() if line.split()[1:2] == ["ii"]}
    return [p for p in PACKAGES if p not in installed]


def ensure(root, release, arch, log, say):
    """Makes the root (or adds the packages it lacks), and returns it."""
    binfmt(arch)
    stamp = stamp_path(root, arch)
    if not os.path.exists(stamp):
        say(f"making the {arch} guest root in {root} (debootstrap under qemu-user: about 50 minutes)")
        subprocess.run(["rm", "-rf", root], check=True)
        with open(log, "w") as f:
            r = subprocess.run(["debootstrap", f"--arch={arch}", "--variant=minbase", "--include=" + ",".join(PACKAGES),
                                release, root, MIRROR], stdout=f, stderr=subprocess.STDOUT,
                               env={**os.environ, **ENV})
        if r.returncode != 0:
            raise SystemExit(f"vmtest: debootstrap failed (log {log})")
        open(stamp, "w").close()
    missing = missing_packages(root)
    if missing:
        say(f"installing {' '.join(missing)} in the {arch} guest root (apt under qemu-user)")
        with open("/etc/resolv.conf") as src, open(os.path.join(root, "etc", "resolv.conf"), "w") as dst:
            dst.write(src.read())
        in_root(root, "apt-get", "update", "-q")
        # (-f: what an interrupted install left unconfigured is configured too)
        in_root(root, "apt-get", "install", "-f", "-y", "-q", "--no-install-recommends", *missing)
    return root


def mount_points(root, paths):
    """The folders the guest's init mounts the host's shares on (the root is shared read-only)."""
    for p in paths:
        os.makedirs(root + p, exist_ok=True)
