import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation
import GRDB

/// The state of one (server, user) partition: `<state>/servers/<partition>/state.sqlite`.
///
/// Opening takes the partition's lock (a second concurrent run gets `busy`, exit 75), creates
/// the folder (0700) and database (0600), and migrates it. A database written by a newer cairn
/// or one SQLite cannot read is refused with `stateFailure` (exit 74), never reset.
///
/// The typed stores share one connection pool:
/// - `observed`: checksums ever seen, their roots, paths, first and last seen
/// - `signals`: first-missing times and positive deletion signals (first write wins)
/// - `anchors`: the first checksum of each file identity (edit semantics)
/// - `exclusions`: checksums never to trash (survive `observed.reset()`)
/// - `approvals`: pending items a person approved for a plan
/// - `runs`: one row per run of a stage that acts (`cairn-gate`, `cairn-trash`)
/// - `fates`: what the server showed of the assets runs trashed, beyond the journal
/// - `meta`: small named values (`lastMatchedCount`, `firstDryRunReviewedAt`, ...)
package final class PartitionStore: Sendable {
  package let partition: ServerPartition
  /// The partition folder.
  package let directory: String
  /// The database file.
  package let path: String
  let database: StateDatabase
  /// The last recorded scan's snapshot (see `ScanSnapshotStore`).
  let snapshots: ScanSnapshotStore
  private let lock: PartitionLock?

  package let observed: ObservedStore
  package let signals: DeletionSignalStore
  package let anchors: EditAnchorStore
  package let exclusions: ExclusionStore
  package let approvals: ApprovalStore
  package let runs: RunStore
  package let fates: FateStore
  package let meta: MetaStore

  /// Opens (creating if needed) the partition's state.
  ///
  /// - Parameter locking: false only for read-only inspection that may run beside a run.
  /// - Parameter checkpointing: false leaves the write-ahead log to `checkpoint()` (or to the
  ///   close of the last connection) rather than to the commit that fills it.
  /// - Parameter brief: the caller writes for a moment and closes (see `PartitionLock`).
  package static func open(
    _ partition: ServerPartition, paths: CairnPaths, locking: Bool = true,
    checkpointing: Bool = true, brief: Bool = false
  ) throws(CairnError) -> PartitionStore {
    try open(
      partition, paths: paths, locking: locking, checkpointing: checkpointing, brief: brief,
      snapshots: ScanSnapshotStore.Options())
  }

  /// Opens the partition's state with its snapshot store's `options` (tests vary them).
  static func open(
    _ partition: ServerPartition, paths: CairnPaths, locking: Bool = true,
    checkpointing: Bool = true, brief: Bool = false, snapshots options: ScanSnapshotStore.Options
  ) throws(CairnError) -> PartitionStore {
    let directory = paths.partitionDirectory(partition)
    try CairnPaths.makePrivateDirectory(directory)
    let lock =
      locking
      ? try PartitionLock(directory: directory, partition: partition, brief: brief) : nil
    return try PartitionStore(
      partition: partition, directory: directory, lock: lock, checkpointing: checkpointing,
      snapshots: options)
  }

  private init(
    partition: ServerPartition, directory: String, lock: PartitionLock?, checkpointing: Bool,
    snapshots options: ScanSnapshotStore.Options
  ) throws(CairnError) {
    self.partition = partition
    self.directory = directory
    self.path = CairnPaths.stateDatabase(inPartitionFolder: directory)
    self.lock = lock
    database = try StateDatabase(path: path, checkpointing: checkpointing)
    snapshots = ScanSnapshotStore(database, options: options)
    observed = ObservedStore(database, snapshots: snapshots)
    signals = DeletionSignalStore(database)
    anchors = EditAnchorStore(database)
    exclusions = ExclusionStore(database)
    fates = FateStore(database)
    approvals = ApprovalStore(database)
    runs = RunStore(database)
    meta = MetaStore(database)
  }

  /// Releases the lock before the process ends (it is released at exit anyway).
  package func close() {
    lock?.release()
  }
}
