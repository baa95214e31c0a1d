"""The initramfs both boots start from: busybox, the machine's modules (with their dependencies, in load order),
tools/vmtest.d/init for the chroot boot and init-systemd for the systemd boot (chosen with rdinit=). Rebuilt
only when an input changed: the init scripts, or this file and the machine's, which decide its contents."""
import gzip
import lzma
import os
import shutil
import subprocess

from . import machine as machines

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tools/vmtest.d
INITS = ("init", "init-systemd")


def stale(path, inputs):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return True
    built = os.path.getmtime(path)
    return any(os.path.getmtime(i) > built for i in inputs)


def module_files(kver, modules, root="/"):
    """The .ko files to insmod, dependencies first, each once (modprobe --show-depends), from the modules of the
    guest's root."""
    files = []
    for m in modules:
        out = subprocess.run(["modprobe", "-d", root, "-S", kver, "--show-depends", m], check=True,
                             capture_output=True, text=True).stdout
        files += [line.split()[1] for line in out.splitlines() if line.startswith("insmod ")]
    return list(dict.fromkeys(files))


def build(work, machine, kver, guest="/"):
    """The initramfs for `kver` under `work`, built if stale, with the busybox and modules of the guest's root
    (`guest`); returns its path."""
    path = os.path.join(work, f"initramfs-{kver}.cpio.gz")
    inputs = [os.path.join(HERE, i) for i in INITS] + [__file__, machines.__file__]
    if not stale(path, inputs):
        return path
    root = os.path.join(work, "initramfs-root")
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin", "proc", "sys", "dev", "mnt", "modules"):
        os.makedirs(os.path.join(root, d))
    shutil.copy(os.path.join(guest, "bin", "busybox"), os.path.join(root, "bin", "busybox"))
    order = []
    for f in module_files(kver, machine.initrd_modules, guest):
        name = os.path.basename(f)
        if f.endswith(".ko.xz"):  # busybox insmod wants plain .ko
            name = name[:-3]
            with lzma.open(f) as src, open(os.path.join(root, "modules", name), "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copy(f, os.path.join(root, "modules", name))
        order.append(name)
    with open(os.path.join(root, "modules", "order.txt"), "w") as f:
        f.write("".join(n + "\n" for n in order))
    for i in INITS:
        shutil.copy(os.path.join(HERE, i), os.path.join(root, i))
        os.chmod(os.path.join(root, i), 0o755)
    files = subprocess.run(["find", "."], cwd=root, check=True, capture_output=True).stdout
    archive = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files, check=True,
                             capture_output=True).stdout
    with open(path, "wb") as f:
        f.write(gzip.compress(archive, compresslevel=1))
    shutil.rmtree(root)
    return path
