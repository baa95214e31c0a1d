"""The vmtest guest driver's modules (tools/vmtest.d/guest.py runs them)."""
