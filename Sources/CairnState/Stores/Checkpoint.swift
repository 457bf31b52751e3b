import CairnSQLite
import CairnTool
import Foundation

#if canImport(GRDBSQLite)
  import GRDBSQLite
#else
  import SQLite3
#endif

extension PartitionStore {
  /// Copies the write-ahead log into the database file on a thread and a connection of its
  /// own, for a store opened without `checkpointing`: the copy and its two syncs (a tenth of
  /// a second after a scan that changed thousands of rows) overlap what the run does next,
  /// reads and writes included, instead of lengthening the commit. A checkpoint that cannot
  /// be made now is left to the close of the last connection, which makes one anyway.
  package func checkpoint() -> BackgroundWork<Void> {
    let path = path
    return BackgroundWork("cairn-state-checkpoint") {
      var handle: OpaquePointer?
      defer { sqlite3_close(handle) }
      guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
        return
      }
      // Syncs as the store's own connections make them (see `StateDatabase`).
      sqlite3_exec(handle, "PRAGMA synchronous = NORMAL", nil, nil, nil)
      // Passive: readers and the writer go on; what cannot be copied yet waits for the close.
      sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }
  }
}
