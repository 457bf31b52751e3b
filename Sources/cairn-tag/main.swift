// Placeholder entry point; the real command replaces this file.
print("cairn-tag: not built yet")
