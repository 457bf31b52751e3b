// The few SQLite calls Swift cannot make itself (variadic C functions, macros).
#ifndef CAIRN_SQLITE_H
#define CAIRN_SQLITE_H

#include <sqlite3.h>

/// Asks SQLite not to checkpoint the write-ahead log when this connection closes, leaving the
/// log for a later writer's automatic checkpoint. Returns an SQLite result code.
int cairn_sqlite_skip_checkpoint_on_close(sqlite3 *db);

/// sqlite3_bind_text and sqlite3_bind_blob with SQLITE_TRANSIENT (SQLite copies the bytes),
/// a macro Swift cannot import. A null pointer with length 0 binds empty text or an empty blob,
/// not NULL.
int cairn_sqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length);
int cairn_sqlite_bind_blob_copy(sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
