"""One boot: QEMU runs until the guest powers off (or the time is up), the guest driver's lines shown as they
come ([vmtest] from vmguest.harness.log, [init] from the init scripts), the whole console kept in a log."""
import os
import signal
import subprocess
import time

PROGRESS = ("[vmtest]", "[init]")


class Progress:
    """Picks the guest driver's lines out of the console's bytes as they grow (a line may arrive in pieces)."""

    def __init__(self):
        self.partial = b""

    def feed(self, data):
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        out = []
        for raw in lines:
            line = raw.decode(errors="replace").replace("\r", "")
            if line.startswith(PROGRESS):
                out.append(line)
        return out


class VM:
    """A running QEMU; stop() ends it (SIGTERM, then SIGKILL), also when the run is interrupted."""

    def __init__(self):
        self.process = None

    def stop(self):
        p, self.process = self.process, None
        if p is None or p.poll() is not None:
            return
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(1)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def boot(self, name, command, timeout, console_log, say):
        """Runs `command` for the VM `name`, at most `timeout` seconds; the console goes to console_log."""
        began = time.monotonic()
        raw = console_log + ".raw"
        progress = Progress()
        with open(raw, "wb") as console, open(raw, "rb") as reading:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=console,
                                            stderr=subprocess.STDOUT)
            deadline = began + timeout
            while self.process.poll() is None:
                if time.monotonic() >= deadline:
                    say(f"the {name} VM did not finish within {timeout} s; stopping it", error=True)
                    self.stop()
                    break
                for line in progress.feed(reading.read()):
                    print(f"  {line}", flush=True)
                time.sleep(1)
            for line in progress.feed(reading.read() + b"\n"):
                print(f"  {line}", flush=True)
        self.process = None
        with open(raw, "rb") as src, open(console_log, "w") as dst:
            dst.write(src.read().decode(errors="replace").replace("\r", ""))
        os.remove(raw)
        say(f"{name} VM done in {int(time.monotonic() - began)} s")
