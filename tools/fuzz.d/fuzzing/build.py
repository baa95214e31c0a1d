"""Building the fuzz targets outside SwiftPM, so `swift build` and `swift test` never see libFuzzer: the library
modules (targets.MODULES) compiled once with -sanitize=fuzzer,address (so they carry the coverage
instrumentation) into .build/fuzz/lib, each Swift target linked against them; the C target with clang's
libFuzzer (the Swift toolchain's clang has it). Each is rebuilt only when a source it is made from is newer."""
import glob
import os
import subprocess
import sys

from .targets import LIBPRESSURED_SOURCES, MODULES, SWIFT, link_order

# One package name for every module, as SwiftPM gives them, so `package` declarations are shared.
FLAGS = ("-sanitize=fuzzer,address", "-parse-as-library", "-O", "-package-name", "pressured")


def say(message):
    print(f"fuzz: {message}", file=sys.stderr, flush=True)


def newer(files, than):
    """Whether `than` is missing or any of `files` is newer than it."""
    if not os.path.exists(than):
        return True
    built = os.path.getmtime(than)
    return any(os.path.getmtime(f) > built for f in files)


def swift_sources(folder):
    return sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True))


def build_modules(lib):
    """Every library module, each rebuilt when one of its sources, or a module it is built on, changed."""
    os.makedirs(lib, exist_ok=True)
    for m in MODULES:
        archive = os.path.join(lib, f"lib{m.name}.a")
        sources = swift_sources(m.path)
        deps = [os.path.join(lib, f"lib{d}.a") for d in m.dependencies]
        if newer(sources + deps, archive):
            say(f"building {m.name} with libFuzzer coverage and ASan")
            subprocess.run(["swiftc", *FLAGS, "-whole-module-optimization", "-module-name", m.name, "-I", lib,
                            "-emit-module", "-emit-module-path", os.path.join(lib, f"{m.name}.swiftmodule"),
                            "-emit-library", "-static", "-o", archive, *sources], check=True)


def build_swift(target, out, lib):
    binary = os.path.join(out, target.name)
    support = swift_sources("Fuzz/Support")
    archives = glob.glob(os.path.join(lib, "*.a"))
    if not newer(archives + support + [target.source], binary):
        return
    say(f"building {target.name}")
    link(["swiftc", *FLAGS, "-I", lib, "-L", lib, *(f"-l{m}" for m in link_order()), "-lm", *support,
          target.source, "-o", binary])


def link(command):
    """Runs a compile-and-link command; ld.gold warns about every ASan helper it cannot export, which says
    nothing about us, so those lines are left out of what it prints."""
    r = subprocess.run(command, stderr=subprocess.PIPE, text=True)
    sys.stderr.write("".join(l for l in r.stderr.splitlines(keepends=True)
                             if "Cannot export local symbol '__asan" not in l))
    if r.returncode != 0:
        raise subprocess.CalledProcessError(r.returncode, command)


def build_c(target, out):
    binary = os.path.join(out, target.name)
    inputs = [f for d in ("clients/c/src", "clients/c/fuzz", "clients/c/include")
              for f in glob.glob(os.path.join(d, "**", "*"), recursive=True) if os.path.isfile(f)]
    if not newer(inputs, binary):
        return
    say(f"building {target.name}")
    pkg = subprocess.run(["pkg-config", "--cflags", "--libs", "json-c"], check=True, capture_output=True,
                         text=True).stdout.split()
    link(["clang", "-std=c11", "-g", "-O1", "-D_GNU_SOURCE", "-fsanitize=fuzzer,address,undefined",
          "-fno-sanitize-recover=undefined", "-Iclients/c/include", "-Iclients/c/src", target.source,
          *LIBPRESSURED_SOURCES, *pkg, "-lm", "-o", binary])


def build(chosen, out):
    """The chosen targets' binaries in `out`; the Swift modules only when a Swift target is among them."""
    lib = os.path.join(out, "lib")
    os.makedirs(out, exist_ok=True)
    if any(t.language == SWIFT for t in chosen):
        build_modules(lib)
    for t in chosen:
        if t.language == SWIFT:
            build_swift(t, out, lib)
        else:
            build_c(t, out)
