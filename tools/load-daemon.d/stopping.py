"""How a tools/load-daemon run ends, checked as docs/protocol.md ("When the daemon stops") promises it,
under load (issue 27, items 2 and 3): a client that stopped reading still reads whole lines after the
daemon has gone, `bye` last where it fitted; every request in flight at SIGTERM or at `--exit-when-done`
gets one answer, before `bye`."""

import selectors
import time

from client_stream import SUBSCRIBE, SUBSCRIBE_ID, ContactCheck, connect, read_line, readable

# What an --exit-when-done client sends the moment its subscribe reply arrives; the askers send it and a
# status in one write, as late as a client can: just before SIGTERM.
PING_ID, STATUS_ID = 2, 3
PING = b'{"request":"ping","id":%d}\n' % PING_ID
REQUESTS = PING + b'{"request":"status","id":%d}\n' % STATUS_ID
# What a slow client held for the stop reads once, of a full socket: room for the daemon's last words that
# it is not told of (a Unix socket is writable again only once three quarters of it are free), where a
# write that takes what fits tears a line -- the torn stream of issue 27, item 3.
ROOM = 20000
# After SIGTERM the daemon gives its clients one second, all together; the held clients read after that.
LAST_WORDS = 1.5


def answered_once(check, ids):
    """Whether each of `ids` got exactly one answer, and `bye` came after them."""
    return [check.bye and check.answers.get(i) == 1 for i in ids]


def wait_answer(s, check, rid, timeout=10):
    """Reads (and checks) until the answer to request `rid` has come."""
    s.settimeout(timeout)
    while rid not in check.answers:
        data = s.recv(65536)
        if not data:
            raise OSError("closed before the answer to request %s" % rid)
        check.feed(data)


class Stop:
    """SIGTERM while `held` clients ([(kind, socket, ContactCheck)], slow and silent ones) are connected
    and read nothing, and `askers` send a request just before it. Nothing is read until the daemon has
    gone and its second of last words has passed."""

    def __init__(self, held):
        self.held, self.askers = held, []

    def make_room(self):
        """The held slow clients wait until their socket is full (what waits there stops growing; the
        daemon's queue holds the rest), then read ROOM bytes once, and no more."""
        slow = [(s, check) for kind, s, check in self.held if kind == "slow"]
        before = [readable(s) for s, _ in slow]
        for _ in range(100):
            time.sleep(0.05)
            now = [readable(s) for s, _ in slow]
            if now == before:
                break
            before = now
        for s, check in slow:
            s.setblocking(False)
            try:
                check.feed(s.recv(ROOM))
            except OSError:
                pass  # nothing there: the daemon had disconnected it, and it read all before

    def open_askers(self, path, n):
        """n clients subscribed (to gestures and touches), their reply read; they ask later (ask())."""
        for _ in range(n):
            s = connect(path)
            read_line(s)  # hello: nothing else comes before the subscribe
            check = ContactCheck()
            s.send(SUBSCRIBE)
            wait_answer(s, check, SUBSCRIBE_ID)
            self.askers.append((s, check))

    def ask(self):
        for s, _ in self.askers:
            try:
                s.send(REQUESTS)
            except OSError:
                pass  # the daemon had closed already: unanswered, as read_after_close counts

    def read_after_close(self, signalled):
        """Reads every held client's and asker's stream to its end, once the daemon has gone (it was sent
        SIGTERM at monotonic `signalled`); returns the counts the run report prints."""
        time.sleep(max(0.0, signalled + LAST_WORDS - time.monotonic()))
        r = dict(slow=0, silent=0, held_bye=0, too_slow=0, askers=0, askers_bye=0, torn=0, broken=[], asked=0,
                 answered=0, unanswered=[])
        for kind, s, check in self.held + [("askers", s, c) for s, c in self.askers]:
            how = check.read_to_close(s)
            s.close()
            if how == "timeout":
                check.problems.append("still open after the daemon had gone")
            # A stream the daemon ended (bye, a fatal error) has every contact ended; one cut at a line
            # boundary because the client had no room left may leave some open.
            r["torn"] += check.end(whole=check.bye or check.fatal is not None)
            r[kind] += 1
            r["askers_bye" if kind == "askers" else "held_bye"] += check.bye
            r["too_slow"] += check.fatal == "too-slow"
            if kind == "askers":
                ok = answered_once(check, (PING_ID, STATUS_ID))
                r["asked"] += len(ok)
                r["answered"] += sum(ok)
                if not all(ok):
                    r["unanswered"].append("%s (%s)" % (check.answers, "bye" if check.bye else "no bye, " + how))
            if check.problems:
                r["broken"].append("%s: %s" % (kind, "; ".join(check.problems[:3])))
        return r


def exit_when_done(path, n, started, timeout=120):
    """A `--speed 0 --exit-when-done` replay served at `path`: n clients subscribe, each sends a ping the
    moment its subscribe reply arrives (before it has read the replay's end, so the daemon must answer
    it before `bye`), and all read to the daemon's close. `started()` is called once they have
    subscribed (the churn). Returns the counts the run report prints."""
    clients = []
    for _ in range(n):
        s = connect(path)
        read_line(s)
        clients.append([s, ContactCheck(), False])
    for c in clients:
        c[0].send(SUBSCRIBE)
    started()
    sel = selectors.DefaultSelector()
    for c in clients:
        c[0].setblocking(False)
        sel.register(c[0], selectors.EVENT_READ, c)
    deadline = time.monotonic() + timeout
    while sel.get_map() and time.monotonic() < deadline:
        for key, _ in sel.select(1):
            c = key.data
            try:
                data = c[0].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""  # a reset: what the daemon had written came before it
            if not data:
                sel.unregister(c[0])
                continue
            c[1].feed(data)
            if not c[2] and SUBSCRIBE_ID in c[1].answers:
                c[2] = True
                try:
                    c[0].send(PING)
                except OSError:
                    pass  # the daemon had already closed: the ping goes unanswered, as counted below
    r = dict(clients=n, pinged=0, answered=0, torn=0, bye=0, broken=[], open=len(sel.get_map()))
    for s, check, pinged in clients:
        s.close()
        r["pinged"] += pinged
        r["answered"] += answered_once(check, (PING_ID,))[0]
        r["bye"] += check.bye
        r["torn"] += check.end(whole=check.bye or check.fatal is not None)
        if check.problems:
            r["broken"].append("; ".join(check.problems[:3]))
    return r


def stopped_well(stop):
    """Read after the close, every stream ended at a line boundary and whole; every request at SIGTERM
    was answered once before `bye`."""
    return not stop["torn"] and not stop["broken"] and stop["answered"] == stop["asked"]


def exited_well(e):
    """At --exit-when-done, every client pinged, and got its answer once before `bye`; the daemon exited
    (0) and no stream was torn or broken."""
    return (not e["torn"] and not e["broken"] and not e["open"] and set(e["exits"]) == {0}
            and e["answered"] == e["pinged"] == e["clients"])


def report(stop, exited):
    """Prints the run report's stop lines: Stop.read_after_close's counts, and exit_when_done's (with the
    phase's `rounds`, `seconds`, `exits` and `churn` connections) unless None. Returns whether both went well."""
    ok = stopped_well(stop)
    print("  stop (SIGTERM): %d held not reading (%d slow that had read %d bytes of a full socket once, %d silent)"
          " and %d askers, read after the close: %d torn, %d not whole; bye last for %d of the held (%d cut off as"
          " too slow before), %d of the askers; %d requests just before SIGTERM, %d answered once before bye%s" % (
              stop["slow"] + stop["silent"], stop["slow"], ROOM, stop["silent"], stop["askers"], stop["torn"],
              len(stop["broken"]), stop["held_bye"], stop["too_slow"], stop["askers_bye"], stop["asked"],
              stop["answered"], "" if ok else "  ** TORN, BROKEN OR UNANSWERED **"))
    for why in (stop["broken"] + ["unanswered: " + u for u in stop["unanswered"]])[:5]:
        print("    " + why)
    if exited is None:
        return ok
    e, good = exited, exited_well(exited)
    print("  stop (--speed 0 --exit-when-done, %d replays): %d clients, %d pinged at the subscribe reply, %d answered"
          " once before bye; %d torn, %d ended with bye, %d not whole, %d left open; churn %d connections;"
          " exit status %s; %.1f s%s" % (
              e["rounds"], e["clients"], e["pinged"], e["answered"], e["torn"], e["bye"], len(e["broken"]), e["open"],
              e["churn"], ",".join(sorted({str(x) for x in e["exits"]})), e["seconds"],
              "" if good else "  ** TORN, BROKEN OR UNANSWERED **"))
    for why in e["broken"][:5]:
        print("    " + why)
    return ok and good
