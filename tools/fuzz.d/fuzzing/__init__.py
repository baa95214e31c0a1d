"""tools/fuzz: its targets (listed once, targets.py), their seeds, their builds and the run."""
