// The few SQLite calls Swift cannot make itself (variadic C functions).
#ifndef CAIRN_SQLITE_H
#define CAIRN_SQLITE_H

#include <sqlite3.h>

/// Asks SQLite not to checkpoint the write-ahead log when this connection closes, leaving the
/// log for a later writer's automatic checkpoint. Returns an SQLite result code.
int cairn_sqlite_skip_checkpoint_on_close(sqlite3 *db);

#endif
