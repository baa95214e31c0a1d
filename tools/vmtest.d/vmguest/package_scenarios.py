"""The Debian packages in the systemd boot of tools/vmtest (issue 18): `install()` puts them on the guest with
`dpkg -i` before any scenario runs, with a touchscreen already plugged in; scenario 22 says what the install did
(the service started for that touchscreen by the postinst's `udevadm trigger`, the start policy in force) and
that a touchscreen plugged in later starts the service too, and that the C and QML clients' packages are usable
(pkg-config knows libpressured, the library loads, the QML plugin's libraries resolve); scenario 23, run last, removes (`dpkg -r`: the
service stops, the configuration and state stay) and purges (`dpkg -P`: nothing of the packages is left).
The packages are tools/build-deb's, seen through the overlay's lower layer ($VMTEST_DEBS), and the installed
configuration gets the fixtures' calibration ($VMTEST_CALIBRATION) after the install, as a deployment that
calibrated its panels edits its conffile."""
import glob
import os
import platform
import subprocess
import time

from .harness import CFG, LOGS, SLOWER, Failure, Player, check, log, wait_until
from .systemd_scenarios import SERVICE, SOCKET, show, state, systemctl, wait_active

PACKAGES = ("pressured", "pressured-web", "python3-pressured", "libpressured0", "libpressured-dev",
            "qml6-module-pressured")
# (the multiarch folder of the guest's architecture: x86_64-linux-gnu, aarch64-linux-gnu)
QML_PLUGIN = f"/usr/lib/{platform.machine()}-linux-gnu/qt6/qml/Pressured/libpressuredqml.so"
CONF = "/etc/pressured/pressured.conf"
# What the daemon writes at run time, which purge must take away with the packages' own files.
RUNTIME = ("/var/lib/pressured", "/run/pressured", "/etc/pressured")
MAN_DB_AUTO_UPDATE = "/var/lib/man-db/auto-update"
# What the install found and did, for scenario 22 to report (install() runs before every scenario).
INSTALLED = {}


def dpkg(*args, timeout=180):
    """dpkg with its output also in the logs (a hang shows how far it got); fails on a non-zero exit."""
    timeout *= SLOWER
    t0 = time.monotonic()
    name = os.path.join(LOGS, f"dpkg{args[0]}-{int(t0 * 1000)}.log")
    with open(name, "w") as f:
        f.write(f"$ dpkg {' '.join(args)}\n")
        f.flush()
        try:
            r = subprocess.run(["dpkg", *args], stdout=subprocess.PIPE, stderr=f, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"dpkg {' '.join(args)} still running after {timeout} s (log {name})")
        f.write(r.stdout)
    if args[0] in ("-i", "-r", "-P"):
        log(f"dpkg {args[0]}: exit {r.returncode} after {time.monotonic() - t0:.1f} s")
    check(r.returncode == 0, f"dpkg {' '.join(args)}: exit {r.returncode} (log {name})")
    return r.stdout


def enabled(unit):
    return subprocess.run(["systemctl", "is-enabled", unit], capture_output=True, text=True).stdout.strip()


def install():
    """dpkg -i of every package, a touchscreen present before; then the fixtures' calibration and the
    service stopped, so each scenario starts from the state it expects. Raises on any failure (the whole boot
    fails: nothing can run without the install)."""
    debs = sorted(glob.glob(os.path.join(os.environ["VMTEST_DEBS"], "*.deb")))
    debs = [d for d in debs if "-dbgsym_" not in d]
    check(len(debs) == len(PACKAGES), f"expected the packages {PACKAGES} in $VMTEST_DEBS, found {debs}")
    check(not os.path.exists("/usr/bin/pressured"), "pressured is installed before dpkg -i")
    # man-db's trigger re-indexes every man page after each dpkg run: minutes over 9p under emulation. A
    # test boot needs no index; image builds turn it off the same way (man-db/auto-update false).
    if os.path.exists(MAN_DB_AUTO_UPDATE):
        os.remove(MAN_DB_AUTO_UPDATE)
    before = Player("before-install", CFG["peek_pop"]["capture"])
    try:
        INSTALLED["node"] = before.node
        INSTALLED["before"] = state(SERVICE)
        log(f"dpkg -i {' '.join(os.path.basename(d) for d in debs)} ({before.node} plugged in)")
        INSTALLED["dpkg"] = dpkg("-i", *debs).splitlines()
        s = wait_active(timeout=60)
        INSTALLED["status"] = s["StatusText"]
        INSTALLED["units"] = {u: (state(u), enabled(u)) for u in (SERVICE, SOCKET, "pressured-metrics.timer",
                                                                  "pressured-web.socket", "pressured-web.service")}
        INSTALLED["conffiles"] = dpkg("-s", "pressured").split("Conffiles:\n", 1)[-1].split("Description:")[0]
    finally:
        before.stop()
    with open(os.environ["VMTEST_CALIBRATION"]) as src, open(CONF, "a") as conf:
        conf.write("\n" + src.read())
    systemctl("stop", SERVICE)
    wait_until(lambda: show(SERVICE, "ActiveState")["ActiveState"] in ("inactive", "failed"), 30, f"{SERVICE} to stop")


def s22_package_install(details):
    check(INSTALLED, "the install did not run")
    details.append(f"{INSTALLED['node']} plugged in, {SERVICE} {INSTALLED['before']}; dpkg -i: "
                   + "; ".join(l for l in INSTALLED["dpkg"] if l.startswith("Setting up")))
    details.append(f"after the install (postinst's udevadm trigger): {SERVICE} active, \"{INSTALLED['status']}\"")
    check(INSTALLED["status"] == "serving 1 device to 0 clients", f"StatusText {INSTALLED['status']!r}")
    units = INSTALLED["units"]
    details.append("units: " + ", ".join(f"{u} {s} {e}" for u, (s, e) in units.items()))
    # The start policy: sockets enabled and listening; the services started by udev or a connection only
    # (the bridge's is `indirect`: it has no [Install] of its own, only Also= its socket).
    want = {SERVICE: "disabled", SOCKET: "enabled", "pressured-metrics.timer": "disabled",
            "pressured-web.socket": "enabled", "pressured-web.service": "indirect"}
    check({u: e for u, (_, e) in units.items()} == want, f"enablement {units}, expected {want}")
    check(units[SOCKET][0].startswith("active") and units["pressured-web.socket"][0].startswith("active"),
          f"sockets not listening: {units}")
    check(units["pressured-metrics.timer"][0].startswith("inactive"), "the metrics timer runs")
    check(CONF in INSTALLED["conffiles"], f"{CONF} is no conffile: {INSTALLED['conffiles']!r}")
    r = subprocess.run(["/usr/bin/python3", "-c", "import pressured; print(pressured.__file__)"],
                       capture_output=True, text=True, cwd="/")
    details.append(f"/usr/bin/python3 imports pressured from {r.stdout.strip() or r.stderr.strip()[-200:]}")
    check(r.stdout.startswith("/usr/lib/python3/dist-packages/pressured/"), "python3-pressured not importable")
    # The C and QML clients: the .pc, the library loaded and used, the plugin's libraries all found.
    r = subprocess.run(["pkg-config", "--modversion", "--cflags", "--libs", "libpressured"], capture_output=True,
                       text=True)
    details.append(f"pkg-config libpressured: {' '.join(r.stdout.split()) or r.stderr.strip()[-200:]}")
    check(r.returncode == 0 and r.stdout.split()[:1] == ["0.1.0"], "pkg-config does not know libpressured")
    r = subprocess.run(["/usr/bin/python3", "-c", "import ctypes; l = ctypes.CDLL('libpressured.so.0'); "
                        "l.pressured_new.restype = ctypes.c_void_p; p = l.pressured_new(None); "
                        "print('loaded, context', 'made' if p else 'NULL'); l.pressured_unref(ctypes.c_void_p(p))"],
                       capture_output=True, text=True, cwd="/")
    details.append(f"libpressured.so.0: {r.stdout.strip() or r.stderr.strip()[-200:]}")
    check(r.stdout.strip() == "loaded, context made", "libpressured.so.0 does not load")
    r = subprocess.run(["ldd", QML_PLUGIN], capture_output=True, text=True)
    missing = [l.strip() for l in r.stdout.splitlines() if "not found" in l]
    details.append(f"{QML_PLUGIN}: ldd exit {r.returncode}, {len(r.stdout.splitlines())} libraries, "
                   f"missing {missing or 'none'}")
    check(r.returncode == 0 and not missing and "libpressured.so.0" in r.stdout, f"the QML plugin: {missing}")

    # A touchscreen plugged in after the install, with the service stopped: udev starts it again.
    check(show(SERVICE, "ActiveState")["ActiveState"] != "active", f"{SERVICE} runs before the plug")
    after = Player("after-install", CFG["peek_pop"]["capture"])
    try:
        s = wait_active()
        details.append(f"{after.node} plugged in after: {SERVICE} active again, \"{s['StatusText']}\"")
        check(s["StatusText"] == "serving 1 device to 0 clients", f"StatusText {s['StatusText']!r}")
    finally:
        after.stop()


def owned_paths():
    """Every file and link of the installed packages (dpkg -L), without the directories others share."""
    paths = []
    for p in PACKAGES:
        paths += [l for l in dpkg("-L", p).splitlines() if l.startswith("/") and not os.path.isdir(l)]
    return paths


def unit_links():
    """Enablement links to the packages' units anywhere under /etc/systemd/system."""
    found = []
    for root, _, files in os.walk("/etc/systemd/system"):
        found += [os.path.join(root, f) for f in files if f.startswith("pressured")]
    return found


def s23_package_remove(details):
    files = owned_paths()
    pid = show(SERVICE, "MainPID")["MainPID"]
    if pid == "0":
        systemctl("start", SERVICE)
        pid = wait_active()["MainPID"]
    details.append(f"installed: {len(files)} files; {SERVICE} running (MainPID {pid}), links {unit_links()}")
    dpkg("-r", *PACKAGES)
    units = {u: state(u) for u in (SERVICE, SOCKET, "pressured-web.socket")}
    details.append(f"dpkg -r: " + ", ".join(f"{u} {s}" for u, s in units.items()))
    check(all(s.startswith(("inactive", "failed")) for s in units.values()), f"still running after dpkg -r: {units}")
    check(not os.path.exists(f"/proc/{pid}"), f"the daemon (PID {pid}) outlived dpkg -r")
    kept = [p for p in ("/etc/pressured/pressured.conf", "/etc/pressured/web.conf", "/var/lib/pressured")
            if os.path.exists(p)]
    gone = [p for p in files if os.path.exists(p) and not p.startswith("/etc/")]
    details.append(f"after dpkg -r: configuration and state kept {kept}, package files left {gone or 'none'}")
    check(len(kept) == 3 and not gone, f"dpkg -r kept {kept}, left {gone}")
    dpkg("-P", *PACKAGES)
    left = [p for p in files + list(RUNTIME) if os.path.lexists(p)] + unit_links()
    status = subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Abbrev}\n", *PACKAGES], capture_output=True,
                            text=True).stdout.split()
    details.append(f"dpkg -P: left {left or 'nothing'} of {len(files)} files, {', '.join(RUNTIME)}; dpkg-query "
                   f"says {status or 'unknown'}")
    check(not left, f"left after dpkg -P: {left}")
