"""tools/vmtest's host side: the command line, the guest machine, the builds and boots, the results."""
