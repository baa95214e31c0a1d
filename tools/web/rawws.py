"""A WebSocket client written out by hand, for what a library would refuse to send: unmasked frames,
reserved bits, bad UTF-8, odd handshakes. Blocking, with a timeout on every read."""
import base64
import json
import os
import socket
import struct


class RawClient:
    def __init__(self, port, timeout=10, receive_buffer=None):
        self.sock = socket.socket()
        if receive_buffer:
            # Before connecting, so the TCP window is small from the start (a browser that stops reading).
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.buffer = b""

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def handshake(self, host=None, origin=None, protocols=None, extra=(), port=None, version="13", path="/pressured"):
        """Sends an upgrade request; returns (status, headers dict with lowercase names, head text)."""
        self.key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {self.key}", f"Sec-WebSocket-Version: {version}"]
        if origin:
            lines.append(f"Origin: {origin}")
        if protocols:
            lines.append(f"Sec-WebSocket-Protocol: {protocols}")
        lines += list(extra)
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode())
        return self.read_head()

    def request(self, text):
        self.send(text.encode())
        return self.read_head()

    def read_head(self):
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1]) if lines and lines[0].startswith("HTTP/1.1 ") else 0
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers, head.decode("latin-1")

    def read_body(self, length):
        while len(self.buffer) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return body

    @staticmethod
    def frame(opcode, payload=b"", fin=True, rsv=0, mask=True, length_form=None):
        first = (0x80 if fin else 0) | rsv << 4 | opcode
        n = len(payload)
        form = length_form or (7 if n < 126 else 16 if n <= 0xFFFF else 64)
        bit = 0x80 if mask else 0
        if form == 7:
            head = struct.pack("!BB", first, bit | n)
        elif form == 16:
            head = struct.pack("!BBH", first, bit | 126, n)
        else:
            head = struct.pack("!BBQ", first, bit | 127, n)
        if not mask:
            return head + payload
        key = os.urandom(4)
        return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))

    def send_frame(self, opcode, payload=b"", **kw):
        self.send(self.frame(opcode, payload, **kw))

    def _need(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the bridge")
            self.buffer += chunk

    def read_frame(self):
        """(opcode, payload) of the next frame from the server (which must not mask)."""
        self._need(2)
        b0, b1 = self.buffer[0], self.buffer[1]
        assert b1 & 0x80 == 0, "the server masked a frame"
        n, offset = b1 & 0x7F, 2
        if n == 126:
            self._need(4)
            n, offset = struct.unpack("!H", self.buffer[2:4])[0], 4
        elif n == 127:
            self._need(10)
            n, offset = struct.unpack("!Q", self.buffer[2:10])[0], 10
        self._need(offset + n)
        payload = self.buffer[offset:offset + n]
        self.buffer = self.buffer[offset + n:]
        return b0 & 0x0F, payload

    def read_until_close(self, echo=True):
        """Frames up to and including the close: (text messages, close code or None, reason). The close is
        echoed, as a browser does (a bridge that waits for it then closes the TCP connection)."""
        texts = []
        while True:
            opcode, payload = self.read_frame()
            if opcode == 1:
                texts.append(payload.decode())
            elif opcode == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                if echo:
                    try:
                        self.send_frame(8, payload[:2])
                    except OSError:
                        pass  # the bridge failed the connection and closed it already
                return texts, code, payload[2:].decode()

    def at_eof(self):
        """Whether the server closed the TCP connection (after what is buffered)."""
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True


class Upgraded:
    """A raw client past a successful handshake with `bridge` (a webtest.Bridge), its hello read."""

    def __init__(self, bridge, origin=None, **kw):
        self.c = RawClient(bridge.port, **kw)
        status, _, head = self.c.handshake(host=f"localhost:{bridge.port}", origin=origin or bridge.origin)
        assert status == 101, head
        opcode, hello = self.c.read_frame()
        assert opcode == 1 and json.loads(hello)["type"] == "hello"

    def request(self, obj):
        """Sends `obj` and returns the first reply or error after it (events before it are skipped)."""
        self.c.send_frame(1, json.dumps(obj).encode())
        while True:
            opcode, payload = self.c.read_frame()
            message = json.loads(payload)
            if message["type"] in ("reply", "error"):
                return message
