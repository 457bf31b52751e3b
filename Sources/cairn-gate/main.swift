// Placeholder entry point; the real command replaces this file.
print("cairn-gate: not built yet")
