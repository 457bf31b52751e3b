#include "CairnSQLite.h"

int cairn_sqlite_skip_checkpoint_on_close(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
#else
  (void)db;
  return SQLITE_OK;
#endif
}

int cairn_sqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
  return sqlite3_bind_text(statement, index, text ? text : "", length, SQLITE_TRANSIENT);
}

int cairn_sqlite_bind_blob_copy(sqlite3_stmt *statement, int index, const void *bytes, int length) {
  if (!bytes) return sqlite3_bind_zeroblob(statement, index, 0);
  return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
