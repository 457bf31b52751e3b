// Placeholder entry point; the real command replaces this file.
print("cairn-trash: not built yet")
