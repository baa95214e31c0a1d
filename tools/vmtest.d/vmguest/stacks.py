"""The display stacks of the compositor matrix (filter_stacks.py), brought up in the emulated guest: a
compositor (or Xorg) reading pressured's clone through its own libinput, and the two clients that say what
reached the app: the stack's event printer (`wev` under Wayland, `xinput test-xi2 --root` under X) and the
Qt Quick app (tools/vmtest.d/touch-app.qml under Qt's QML runtime).

How each comes up, as found in the guest (the compositors want a DRM device: QEMU's standard VGA through
bochs-drm; writable /tmp, /dev/shm and a runtime folder of mode 0700 on the read-only root):
- Weston 10 (Debian 12) has no libseat launcher: root, its direct launcher on a VT, the pixman renderer and
  the kiosk shell (the one client fills the screen). Weston 14 has only libseat's: as cage and sway.
- cage, sway and labwc (wlroots) refuse to run as root: as `nobody`, with seatd started as root for that
  user (libseat's own backend timed out waiting for its session). Their clients run as `nobody` too. Their
  output is wlroots' headless one (wlroots 0.15's DRM backend refuses bochs-drm), their input libinput's.
- Xorg: root, the dummy video driver (no DRM needed), xf86-input-libinput taking the clone on udev's word;
  no window manager, so the app's window is where and as large as it asks (the whole screen).
"""
import glob
import os
import pwd
import shutil
import subprocess
import time
from dataclasses import dataclass

from .harness import CFG, RUN, Player, Proc, check, wait_until

APP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "touch-app.qml")
QML = "/usr/lib/qt6/bin/qml"
X_DISPLAY = ":1"


@dataclass(frozen=True)
class Stack:
    """One stack of the matrix. `key` names its results (file and table row), `name` is what its result line
    says, with the version the guest has."""
    key: str
    name: str
    kind: str  # "weston-direct", "weston-seatd", "wlroots" or "xorg"
    command: tuple = ()  # the compositor's (wlroots: cage, sway or labwc)
    config: str = ""  # sway's or labwc's configuration, written where it reads it


def package_version(package):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return r.stdout.strip() or "?"


def tmpfs(path, mode="1777"):
    if not os.path.ismount(path):
        os.makedirs(path, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"mode={mode}", "tmpfs", path], check=True)


def as_user(user):
    """A command prefix that runs as `user` (nothing for root)."""
    if user == "root":
        return []
    return ["setpriv", "--reuid", user, "--regid", "nogroup", "--clear-groups"]


class Session:
    """A stack, running: its processes (stopped in reverse), its clients' environment and user."""

    def __init__(self, stack, env):
        self.stack = stack
        self.procs = []
        self.user = "root" if stack.kind in ("weston-direct", "xorg") else "nobody"
        uid = pwd.getpwnam(self.user).pw_uid
        self.xdg = os.path.join(RUN, f"xdg-{stack.key}")
        os.makedirs(self.xdg, mode=0o700, exist_ok=True)
        os.chown(self.xdg, uid, -1)
        self.home = os.path.join(RUN, f"home-{stack.key}")
        os.makedirs(self.home, exist_ok=True)
        os.chown(self.home, uid, -1)
        self.env = dict(env, XDG_RUNTIME_DIR=self.xdg, HOME=self.home)
        self.client_env = {}

    def start(self):
        for d in ("/tmp", "/var/tmp", "/dev/shm"):
            tmpfs(d)
        if self.stack.kind == "xorg":
            self._start_xorg()
        elif self.stack.kind == "wlroots":
            self._start_wlroots()
        else:
            subprocess.run(["modprobe", "bochs"], check=False)
            wait_until(lambda: os.path.exists("/dev/dri/card0"), 30, "/dev/dri/card0 (bochs-drm)")
            {"weston-direct": self._start_weston_direct, "weston-seatd": self._start_weston_seatd}[self.stack.kind]()
        return self

    def _spawn(self, name, args, env=None):
        p = Proc(name, as_user(self.user) + list(args), env=env or self.env)
        self.procs.append(p)
        return p

    def _seatd(self):
        seatd = Proc("seatd", ["seatd", "-u", self.user, "-g", "nogroup"], env=self.env)
        self.procs.append(seatd)
        wait_until(lambda: os.path.exists("/run/seatd.sock") or seatd.p.poll() is not None, 30, "seatd's socket")
        check(seatd.p.poll() is None, f"seatd did not start: {seatd.text()[-400:]}")

    def _wayland_socket(self, proc, what):
        def found():
            return [s for s in glob.glob(os.path.join(self.xdg, "wayland-*")) if not s.endswith(".lock")] or \
                proc.p.poll() is not None
        wait_until(found, 90, what)
        check(proc.p.poll() is None, f"{proc.name} did not start: {proc.text()[-800:]}")
        socket = sorted(s for s in glob.glob(os.path.join(self.xdg, "wayland-*")) if not s.endswith(".lock"))[0]
        self.client_env = dict(self.env, WAYLAND_DISPLAY=os.path.basename(socket), QT_QPA_PLATFORM="wayland")

    def _start_weston_direct(self):
        weston = self._spawn("weston", ["weston", "--backend=drm-backend.so", "--use-pixman",
                                        "--shell=kiosk-shell.so", "--tty=2", "--socket=wayland-matrix",
                                        "--idle-time=0", "--continue-without-input"])
        # The socket is there before the shell is: a client that came then would find no xdg_wm_base.
        wait_until(lambda: "kiosk-shell.so" in weston.text() or weston.p.poll() is not None, 90, "weston's shell")
        self._wayland_socket(weston, "weston's socket")

    def _start_weston_seatd(self):
        self._seatd()
        weston = self._spawn("weston", ["weston", "--backend=drm", "--renderer=pixman", "--shell=kiosk",
                                        "--socket=wayland-matrix", "--idle-time=0", "--continue-without-input"],
                             env=dict(self.env, LIBSEAT_BACKEND="seatd"))
        wait_until(lambda: "kiosk-shell.so" in weston.text() or weston.p.poll() is not None, 90, "weston's shell")
        self._wayland_socket(weston, "weston's socket")

    def _start_wlroots(self):
        self._seatd()
        # wlroots' libinput backend will not start without an input device, and the panels of the cases come
        # later: a touchscreen that never touches, present for the whole session.
        self.procs.append(Player("anchor", CFG["hold_peek"]["capture"]))
        args = list(self.stack.command)
        if self.stack.config:
            name = "labwc/rc.xml" if args[0] == "labwc" else "sway/config"
            path = os.path.join(self.home, ".config", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(self.stack.config)
            shutil.chown(path, self.user)
        # The headless backend for the output: wlroots 0.15's DRM backend refuses bochs-drm ("PRIME import not
        # supported"), and what is measured is the input path, libinput's (a real session through seatd).
        env = dict(self.env, LIBSEAT_BACKEND="seatd", WLR_BACKENDS="headless,libinput", WLR_RENDERER="pixman",
                   WLR_NO_HARDWARE_CURSORS="1", XDG_CONFIG_HOME=os.path.join(self.home, ".config"))
        comp = self._spawn(args[0], args, env=env)
        self._wayland_socket(comp, f"{args[0]}'s socket")
        time.sleep(2)  # (the output is set up after the socket)

    def _start_xorg(self):
        conf = os.path.join(RUN, "xorg-matrix.conf")
        with open(conf, "w") as f:
            f.write(XORG_CONF)
        tmpfs("/var/lib/xkb", "0755")  # its compiled keymaps
        xorg = self._spawn("Xorg", ["Xorg", X_DISPLAY, "-config", conf, "-noreset", "-nolisten", "tcp",
                                    "-logfile", os.path.join(RUN, "Xorg.matrix.log"), "vt3", "-novtswitch"])
        wait_until(lambda: os.path.exists("/tmp/.X11-unix/X1") or xorg.p.poll() is not None, 90, "Xorg's socket")
        check(xorg.p.poll() is None, f"Xorg did not start: {xorg.text()[-800:]}")
        self.client_env = dict(self.env, DISPLAY=X_DISPLAY, QT_QPA_PLATFORM="xcb")
        time.sleep(1)

    def printer(self):
        """The stack's event printer, started: wev (its window filling the screen) or xinput test-xi2."""
        if self.stack.kind == "xorg":
            p = self._spawn("xinput-test-xi2", ["xinput", "test-xi2", "--root"], env=self.client_env)
            time.sleep(2)
            check(p.p.poll() is None, f"xinput test-xi2 did not start: {p.text()[-400:]}")
            return p
        # Line-buffered: wev prints with stdio, which would hold its lines while its output is a file.
        p = self._spawn("wev", ["stdbuf", "-oL", "wev", "-F", "wl_pointer", "-F", "wl_keyboard"], env=self.client_env)
        wait_until(lambda: "configure" in p.text() or p.p.poll() is not None, 90, "wev's window")
        check(p.p.poll() is None, f"wev did not start (exit {p.p.poll()}): {p.text()[-400:]}")
        time.sleep(2)  # (a kiosk shell or window rule makes it fill the screen after its first configure)
        return p

    def app(self):
        """The Qt Quick app, started, once it says it is ready (its window up)."""
        env = dict(self.client_env, QT_QUICK_BACKEND="software", QT_QUICK_CONTROLS_STYLE="Basic",
                   QT_LOGGING_RULES="qt.qpa.*=false")
        p = self._spawn("qml-app", [QML, APP], env=env)
        wait_until(lambda: "app: ready" in p.text() or p.p.poll() is not None, 180, "the Qt app's window")
        check(p.p.poll() is None, f"the Qt app did not start (exit {p.p.poll()}): {p.text()[-800:]}")
        time.sleep(3)  # (its first frame, and the shell's resize to the whole screen)
        return p

    def stop_client(self, proc):
        self.procs.remove(proc)
        proc.stop()
        time.sleep(1)

    def stop(self):
        for p in reversed(self.procs):
            p.stop()
        self.procs = []
        for leftover in ("/run/seatd.sock",):
            if os.path.exists(leftover):
                os.unlink(leftover)


XORG_CONF = """\
Section "ServerFlags"
    Option "AutoAddDevices" "true"
    Option "AutoEnableDevices" "true"
EndSection
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 16384
EndSection
Section "Monitor"
    Identifier "monitor"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "monitor"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Modes "1024x768"
    EndSubSection
EndSection
"""

# sway: no borders or bar, so the one window is the whole screen; no Xwayland.
SWAY_CONF = """\
default_border none
default_floating_border none
xwayland disable
output * bg #202020 solid_color
"""

# labwc: a stacking compositor; wev asks for no size of its own, so a rule makes every window fill the
# screen (the Qt app asks for full screen itself: a toggle would undo that, so the rule maximizes).
LABWC_RC = """\
<?xml version="1.0"?>
<labwc_config>
  <core><decoration>client</decoration></core>
  <windowRules>
    <windowRule identifier="wev" serverDecoration="no">
      <action name="ToggleFullscreen"/>
    </windowRule>
  </windowRules>
</labwc_config>
"""

