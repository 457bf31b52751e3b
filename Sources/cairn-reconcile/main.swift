// Placeholder entry point; the real command replaces this file.
print("cairn-reconcile: not built yet")
