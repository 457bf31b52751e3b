// Placeholder entry point; the real command replaces this file.
print("cairn-restore: not built yet")
