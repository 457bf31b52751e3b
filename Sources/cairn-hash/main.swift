// Placeholder entry point; the real command replaces this file.
print("cairn-hash: not built yet")
