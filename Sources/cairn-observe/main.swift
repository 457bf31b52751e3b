// Placeholder entry point; the real command replaces this file.
print("cairn-observe: not built yet")
