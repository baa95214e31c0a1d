"""The guest machine: everything that depends on the guest's architecture, chosen by one object. tools/vmtest
asks it for the Debian packages to install, the guest's root, the kernel to boot, the modules the initramfs
loads, the kernel's command line, the QEMU command, where the programs come from and which scenarios it runs;
the rest of the run (scenarios, results) is the same for every architecture. x86_64 shares the host's own
root and programs; arm64 boots a Debian 13 arm64 root with the packages tools/build-deb cross-builds
(`tools/vmtest --arch arm64`, docs/arm64.md).
"""
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Share:
    """A host folder the guest mounts over 9p under `tag` (tools/vmtest.d/init, init-systemd)."""
    tag: str
    path: str
    writable: bool = False


@dataclass(frozen=True)
class Machine:
    name: str
    # What QEMU and the guest's kernel need on the host (tools/setup-debian --only).
    packages: tuple
    qemu: str
    # QEMU's machine and CPU: software emulation (TCG): KVM cannot boot a stock kernel on these machines.
    qemu_machine: tuple
    console: str
    # Kernel options of this architecture's console and clock, before the run's own.
    kernel_options: tuple
    # Loaded by the initramfs, with their dependencies in order: the 9p shares over virtio, and overlay for
    # the systemd boot's root.
    initrd_modules: tuple = ("virtio_pci", "9pnet_virtio", "9p", "overlay")
    # The guest's root (shared as `hostroot`; its kernel, modules and busybox boot the guest): "/" is the host's
    # own, whose programs the guest runs; a relative path is under the checkout, a root of the guest's
    # architecture made once (vmhost/guest_root.py).
    root: str = "/"
    # Where pressured and pressurectl come from: None, the host's swift builds; else (release, Debian
    # architecture), the packages tools/build-deb cross-builds, whose binaries both boots run.
    packages_from: tuple = None
    # The C players' compiler and its flags (static where the guest's root has no libc of the host's kind).
    cc: tuple = ("gcc",)
    # The scenarios run when none is named (None: every one), and those this guest cannot run, with why.
    default_scenarios: tuple = None
    unsupported: dict = field(default_factory=dict)
    # The boots' default time limits multiplied by this: another architecture's emulation is slower.
    timeout_factor: int = 1

    def root_path(self, repo):
        return os.path.join(repo, self.root)

    def newest_kernel(self, repo):
        """The newest kernel whose modules are in the guest's root (VMTEST_KVER picks another)."""
        modules = os.path.join(self.root_path(repo), "lib", "modules")
        versions = sorted(os.listdir(modules), key=version_key) if os.path.isdir(modules) else []
        if not versions:
            raise SystemExit(f"vmtest: no kernel in {modules} (VMTEST_KVER names one)")
        return versions[-1]

    def kernel(self, kver, repo=""):
        return os.path.join(self.root_path(repo), "boot", f"vmlinuz-{kver}")

    def qemu_command(self, kver, initrd, kernel_args, shares, smp, mem, repo=""):
        """The QEMU command that boots the kernel with the initramfs, the host folders shared, no network and
        no display: the console is the standard output, and the guest powers off when its driver ends. `repo`:
        the checkout a relative root is under."""
        cmd = [self.qemu, *self.qemu_machine, "-smp", str(smp), "-m", str(mem), "-nographic", "-no-reboot",
               "-nic", "none", "-kernel", self.kernel(kver, repo), "-initrd", initrd,
               "-append", " ".join((f"console={self.console}", *self.kernel_options, *kernel_args))]
        for s in shares:
            # multidevs=remap: the host's root spans several file systems, whose inode numbers could clash.
            options = ["local", f"path={s.path}", f"mount_tag={s.tag}", "security_model=none"]
            if not s.writable:
                options += ["readonly=on", "multidevs=remap"]
            cmd += ["-virtfs", ",".join(options)]
        return cmd


def version_key(name):
    """`sort -V` for kernel versions: 6.1.0-28-amd64 after 6.1.0-9-amd64."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in _pieces(name)]


def _pieces(name):
    out, cur = [], ""
    for ch in name:
        if cur and ch.isdigit() != cur[-1].isdigit():
            out.append(cur)
            cur = ""
        cur += ch
    return out + ([cur] if cur else [])


X86_64 = Machine(
    name="x86_64",
    packages=("qemu-system-x86", "linux-image-amd64"),
    qemu="qemu-system-x86_64",
    qemu_machine=("-accel", "tcg,thread=multi", "-cpu", "max"),
    console="ttyS0",
    # The TSC trusted: under emulation the kernel may distrust it and fall back to a clock slower to read.
    kernel_options=("quiet", "loglevel=3", "panic=-1", "clocksource=tsc", "tsc=reliable"),
)

# A representative part of the scenarios, on Debian 13's arm64 kernel with the arm64 packages: captures
# through uinput (1), hid-multitouch through uhid (5), filter mode's clone read by libinput (24), the packages
# installed with dpkg -i (22) and the service started by udev for a panel, its gestures over the socket (11).
ARM64 = Machine(
    name="arm64",
    packages=("qemu-system-arm", "qemu-user-static", "debootstrap", "gcc-aarch64-linux-gnu",
              "libc6-dev-arm64-cross", "binutils"),
    qemu="qemu-system-aarch64",
    qemu_machine=("-M", "virt", "-accel", "tcg,thread=multi", "-cpu", "max"),
    console="ttyAMA0",
    kernel_options=("quiet", "loglevel=3", "panic=-1"),
    root=".build/arm64-guest-root",
    packages_from=("trixie", "arm64"),
    cc=("aarch64-linux-gnu-gcc", "-static"),
    default_scenarios=(1, 5, 24, 11, 22),
    unsupported={20: "the fleet: about an hour under this emulation", 27: "no Weston in the guest's root",
                 **{n: "the compositor matrix: its stacks and Qt app are amd64's" for n in range(28, 36)}},
    timeout_factor=2,
)

MACHINES = {m.name: m for m in (X86_64, ARM64)}
# Debian's names for the same architectures.
ALIASES = {"amd64": "x86_64", "aarch64": "arm64"}


class UnknownMachine(ValueError):
    """An architecture with no Machine."""


def machine(name):
    m = MACHINES.get(ALIASES.get(name, name))
    if m is None:
        raise UnknownMachine(name)
    return m
