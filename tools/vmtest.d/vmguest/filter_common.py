"""What scenario 24's checks share (filter mode, docs/filter.md): plugging a panel and finding its clone,
region owners, reading what `libinput debug-events` made of a node, and playing a capture through a filtered
panel with libinput on the clone and the panel and `evemu-record` on the clone (kept in the logs)."""
import os
import re
import shutil
import socket

from .filter_frames import compare_frames
from .harness import LOGS, RUN, Client, Player, Proc, check, device_added, device_removed, release, wait_until

FILTER_CONF = "[pressured]\nFilter = on\nFilterMethod = cancel\n"


def name_of(node):
    """The kernel's name of the device at event node `node`."""
    with open(f"/sys/class/input/{os.path.basename(node)}/device/name") as f:
        return f.read().strip()


def plug(daemon, name, capture, **kw):
    """A player's panel, plugged; waits until pressured has filtered it. Returns the player and the clone's
    node, from pressured's own line about this panel (the panels come and go on the same node, so an
    earlier panel's line, or its clone, must not be taken for this one's)."""
    since = len(daemon.text())
    player = Player(name, capture, **kw)
    try:
        said = re.escape(player.node) + r": filtered .*the compositor gets it as (/dev/input/event\d+)"
        m = wait_until(lambda: re.search(said, daemon.text()[since:]), 30, f"{player.node} filtered")
        wait_until(lambda: os.path.exists(m.group(1)), 30, f"the clone's node {m.group(1)}")
        return player, m.group(1)
    except BaseException:
        release(player)
        raise


def region_owner(daemon, wants):
    """A client owning a region over the whole screen that wants `wants`."""
    return Client(daemon.sock, ("gestures",), setup=lambda c: c.set_region(wants, 0, 0, 5000, 5000, wants=[wants]))


def let_go(owner):
    """Ends a region owner's connection now, and with it its region: its reader thread, blocked in recv(2),
    keeps the socket open past close(2) (the regions stayed, and took the next checks' gestures)."""
    owner.c._sock.shutdown(socket.SHUT_RDWR)  # noqa: SLF001 (the harness's client has no shutdown of its own)
    owner.close()


def libinput_on(*nodes, env, label):
    """`libinput debug-events` on each node, as a compositor reads it, started together (each takes a
    second or so to start in the emulated guest) and waited for until each has taken its device."""
    procs = [Proc(f"libinput-{label}", ["libinput", "debug-events", "--device", n], env=env) for n in nodes]
    wait_until(lambda: all("DEVICE_ADDED" in p.text() for p in procs), 30, f"libinput on {', '.join(nodes)}")
    return procs


def touch_events(text):
    """libinput debug-events' touch lines as (kind, slot): TOUCH_DOWN/UP/CANCEL."""
    out = []
    for line in text.splitlines():
        m = re.search(r"\b(TOUCH_(?:DOWN|UP|CANCEL))\s+\S+\s+(\d+)", line)
        if m:
            out.append((m.group(1), int(m.group(2))))
    return out


def count_touches(capture):
    """The touches a capture holds: its new tracking ids."""
    with open(capture) as f:
        parts = [l.split() for l in f if l.startswith("E:")]
    return sum(1 for p in parts if p[2:4] == ["0003", "0039"] and int(p[4]) >= 0)


def summary(events):
    downs = sum(1 for k, _ in events if k == "TOUCH_DOWN")
    ups = sum(1 for k, _ in events if k == "TOUCH_UP")
    cancels = sum(1 for k, _ in events if k == "TOUCH_CANCEL")
    return downs, ups, cancels


def left_down(events):
    """The slots whose last TOUCH_DOWN no TOUCH_UP or TOUCH_CANCEL closed."""
    down = set()
    for kind, slot in events:
        (down.add if kind == "TOUCH_DOWN" else down.discard)(slot)
    return down


def per_slot(events):
    """libinput's touch events by slot, in order: {slot: [kind, ...]}."""
    out = {}
    for kind, slot in events:
        out.setdefault(slot, []).append(kind)
    return out


def recording(node):
    """`evemu-record` of a node into a file on the guest's tmpfs (given as its output file, which it closes
    on SIGTERM), and a wait for it to have the node open: from then on the kernel queues every frame for it."""
    path = os.path.join(RUN, f"clone-{Proc.count + 1}.evemu")
    p = Proc("evemu-record-clone", ["evemu-record", node, path])

    def has_node():
        try:
            return any(os.readlink(f"/proc/{p.pid}/fd/{fd}") == node for fd in os.listdir(f"/proc/{p.pid}/fd"))
        except OSError:
            return False
    return p, path, lambda: wait_until(has_node, 30, f"evemu-record on {node}")


def press_through(daemon, client, capture, env, label, details):
    """Plays the capture on a fresh touchscreen pressured filters, with libinput reading the clone and the
    panel and evemu-record the clone; compares the clone's frames with the panel's (filter_frames). Returns
    libinput's touch events on the clone, those on the panel, and the gestures the client got."""
    mark = client.mark()
    player, clone = plug(daemon, "filtered", capture)
    watchers = []
    try:
        dev = client.wait_for(device_added(player.node), 30, "the panel's arrival", after=mark)["device"]["id"]
        recorder, recorded, recording_started = recording(clone)
        watchers = [recorder]
        watchers += libinput_on(clone, player.node, env=env, label="clone-and-panel")
        recording_started()
        player.go()
        check(player.wait(60) == 0, "evplay failed")
        # The panel went at the end: the client is told after its gestures, libinput after the clone's touches.
        client.wait_for(device_removed(dev), 30, "the panel's removal", after=mark)
        wait_until(lambda: "DEVICE_REMOVED" in watchers[1].text(), 30, "libinput's DEVICE_REMOVED on the clone")
        got = [e for e in client.snapshot()[mark:] if "contact" in e and e.get("type") != "touch"]
        on_clone, on_panel = (touch_events(w.text()) for w in watchers[1:])
        recorder.stop()
        shutil.copy(recorded, os.path.join(LOGS, recorder.name + ".evemu"))  # what a failed comparison read
        compare_frames(capture, recorded, summary(on_clone)[2], label, details)
        return on_clone, on_panel, got
    finally:
        release(*watchers, player)
