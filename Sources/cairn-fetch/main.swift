// Placeholder entry point; the real command replaces this file.
print("cairn-fetch: not built yet")
