"""Runs a table of scenarios in order and writes their results: per scenario a line `PASS|FAIL <n> <title>
(<seconds> s)` and indented details (tools/vmtest reads the lines back; CI parses its summary). Shared by the
chroot boot (guest.py) and the systemd boot (systemd_guest.py), which append to the same results file."""
import os
import time
import traceback

from .harness import OUT, Failure, log


def run(table, numbers, mode="w"):
    """table: {n: (title, fn(details))}; numbers: which to run, in order; mode "a" adds to an earlier boot's."""
    with open(os.path.join(OUT, "results.txt"), mode) as results:
        for n in numbers:
            title, fn = table[n]
            log(f"scenario {n}: {title}")
            details = []
            t0 = time.monotonic()
            try:
                fn(details)
                ok = True
            except Failure as e:
                ok = False
                details.append(f"FAILED: {e}")
            except Exception:  # noqa: BLE001 (a harness error is a failure too, with its trace)
                ok = False
                details.extend(traceback.format_exc().rstrip().splitlines())
            secs = time.monotonic() - t0
            line = f"{'PASS' if ok else 'FAIL'} {n} {title} ({secs:.1f} s)"
            results.write(line + "\n" + "".join(f"    {d}\n" for d in details))
            results.flush()
            os.fsync(results.fileno())  # the VM may be powered off without unmounting the share
            log(line)
