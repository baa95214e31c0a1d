"""Where the daemon's socket is."""
import os

DEFAULT_SOCKET = "/run/pressured/pressured.sock"
"""The daemon's own default (`pressured --socket`, the systemd unit's ListenStream)."""


def default_socket() -> str:
    """$PRESSURED_SOCKET where set (and not empty), else DEFAULT_SOCKET: read when a client is made, so a
    program may set the variable after importing."""
    return os.environ.get("PRESSURED_SOCKET") or DEFAULT_SOCKET
