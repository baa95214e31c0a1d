print("pressure-bench: not yet")
