"""Runs a table of scenarios in order and writes their results: per scenario a line `PASS|FAIL <n> <title>
(<seconds> s)` and indented details (tools/vmtest reads the lines back; CI parses its summary). Shared by the
chroot boot (guest.py) and the systemd boot (systemd_guest.py), which append to the same results file."""
import importlib
import os
import time
import traceback

import scenarios as registry  # tools/vmtest.d/scenarios.py, beside the driver scripts

from .harness import OUT, Failure, log


def table(boot):
    """{n: (title, fn(details))} for the boot's scenarios of the registry, their modules imported."""
    return {s.number: (s.title, getattr(importlib.import_module(f"{__package__}.{s.module}"), s.function))
            for s in registry.in_boot(registry.SCENARIOS, boot)}


def run_boot(boot, numbers, mode="w"):
    """Runs the boot's scenarios among `numbers` in the registry's order (a scenario that must run first or
    last in its boot does, whatever order they were asked in)."""
    chosen = registry.run_order([registry.BY_NUMBER[n] for n in numbers])
    run(table(boot), [s.number for s in registry.in_boot(chosen, boot)], mode)


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
