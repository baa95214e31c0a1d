"""The guest machine: everything that depends on the guest's architecture, chosen by one object. tools/vmtest
asks it for the Debian packages to install, the kernel to boot, the modules the initramfs loads, the kernel's
command line and the QEMU command; the rest of the run (builds, scenarios, results) is the same for every
architecture. One architecture so far; another is a further Machine in MACHINES (`tools/vmtest --arch NAME`).
"""
import os
from dataclasses import dataclass


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

    def newest_kernel(self):
        """The newest kernel whose modules are installed (VMTEST_KVER picks another)."""
        versions = sorted(os.listdir("/lib/modules"), key=version_key) if os.path.isdir("/lib/modules") else []
        if not versions:
            raise SystemExit("vmtest: no kernel in /lib/modules (VMTEST_KVER names one)")
        return versions[-1]

    def kernel(self, kver):
        return f"/boot/vmlinuz-{kver}"

    def qemu_command(self, kver, initrd, kernel_args, shares, smp, mem):
        """The QEMU command that boots the kernel with the initramfs, the host folders shared, no network and
        no display: the console is the standard output, and the guest powers off when its driver ends."""
        cmd = [self.qemu, *self.qemu_machine, "-smp", str(smp), "-m", str(mem), "-nographic", "-no-reboot",
               "-nic", "none", "-kernel", self.kernel(kver), "-initrd", initrd,
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

MACHINES = {m.name: m for m in (X86_64,)}
# Debian's names for the same architectures.
ALIASES = {"amd64": "x86_64"}


class UnknownMachine(ValueError):
    """An architecture with no Machine."""


def machine(name):
    m = MACHINES.get(ALIASES.get(name, name))
    if m is None:
        raise UnknownMachine(name)
    return m
