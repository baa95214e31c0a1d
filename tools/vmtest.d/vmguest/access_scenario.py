"""Scenario 19 (systemd boot): who may do what, under the installed unit. The daemon runs as its own user
(pressured), in its sandbox; the configuration closes an app to the user nobody (a name the daemon resolves
there) and names a control group by number; real peers, made by setpriv, connect to the socket systemd
made (0660, group pressured). What each may do is decided by the identity the kernel gives the daemon
(SO_PEERCRED, SO_PEERGROUPS), not by what the peer claims."""
import grp
import json
import os
import subprocess

from .harness import check
from .systemd_scenarios import SERVICE, SOCK, Journal, systemctl, wait_active

CONF = "/etc/pressured/pressured.conf"
ADMIN_GID = 4242  # a group no account has: only a peer given it as a supplementary group is in it

# Sends each request (each with an id) and prints the daemon's answer to it, one line per request;
# "cannot connect: ERRNO" when the socket refuses the peer.
CLIENT = r"""
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("cannot connect:", e.errno); sys.exit(0)
f = s.makefile("rwb"); f.readline()
for line in sys.argv[2:]:
    sent = json.loads(line)
    f.write(line.encode() + b"\n"); f.flush()
    while True:
        got = json.loads(f.readline())
        if got.get("type") in ("reply", "error") and got.get("id") == sent["id"]:
            print(json.dumps(got)); break
"""

REQUESTS = [
    '{"request":"subscribe","id":1,"app":"org.example.mail"}',
    '{"request":"set","id":2,"sensitivity":"firm"}',
    '{"request":"subscribe","id":3,"app":"org.example.open"}',
]


def as_peer(uid, gid, groups):
    ids = ["--reuid", str(uid), "--regid", str(gid)]
    ids += ["--groups", ",".join(map(str, groups))] if groups else ["--clear-groups"]
    r = subprocess.run(["setpriv"] + ids + ["python3", "-c", CLIENT, SOCK] + REQUESTS, capture_output=True,
                       text=True, timeout=60)
    check(r.returncode == 0, f"the client as uid {uid}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    out = r.stdout.strip().splitlines()
    if out and out[0].startswith("cannot connect"):
        return out[0]

    def outcome(line):
        got = json.loads(line)
        return "refused" if got.get("error") == "not-permitted" else "ok" if got["type"] == "reply" else line
    return [outcome(l) for l in out]


def s19_identity(details):
    with open(CONF) as f:
        shipped = f.read()
    check("\n#ControlGroup = pressured-admin\n" in shipped, f"{CONF} has no commented-out ControlGroup line")
    sock_gid = grp.getgrnam("pressured").gr_gid
    try:
        with open(CONF, "w") as f:
            f.write(shipped.replace("\n#ControlGroup = pressured-admin\n", f"\nControlGroup = {ADMIN_GID}\n", 1)
                    + "\n[app org.example.mail]\nUser = nobody\n")
        journal = Journal(SERVICE)
        systemctl("restart", SERVICE)
        wait_active()
        st = os.stat(SOCK)
        check(st.st_gid == sock_gid and st.st_mode & 0o777 == 0o660, f"{SOCK}: gid {st.st_gid}, mode {st.st_mode & 0o777:o}")
        cases = [
            ("nobody in the socket's group", (65534, 65534, [sock_gid]), ["ok", "refused", "ok"]),
            ("uid 1 in the socket's group", (1, 1, [sock_gid]), ["refused", "refused", "ok"]),
            ("uid 1 in the socket's and the control group", (1, 1, [sock_gid, ADMIN_GID]), ["refused", "ok", "ok"]),
        ]
        for what, ids, want in cases:
            got = as_peer(*ids)
            check(got == want, f"{what}: {got}, expected {want}")
            details.append(f"{what}: subscribe as the closed app, set, subscribe as an open app: {', '.join(got)}")
        outside = as_peer(65534, 65534, [])
        check(outside == "cannot connect: 13", f"outside the socket's group: {outside}")
        details.append(f"nobody outside the socket's group: {outside} (EACCES): the socket's group lets in, no more")
        line = journal.wait_for(f"connected: uid 1 gid 1 groups {sock_gid},{ADMIN_GID} (may control)")
        details.append(f"journal: {line}")
        refusal = journal.wait_for("refused: app \"org.example.mail\" is closed")
        details.append(f"journal: {refusal}")
    finally:
        with open(CONF, "w") as f:
            f.write(shipped)
        systemctl("restart", SERVICE)
