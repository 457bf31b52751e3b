// Placeholder entry point; the real command replaces this file.
print("immich-testserver: not built yet")
