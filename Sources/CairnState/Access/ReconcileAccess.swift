/// CairnState's door for the reconcile library (CairnReconcile), which names nothing else of
/// the state (`StateDoorTests` holds it so):
///
/// - `ReconcileAccess`: what this process's last `recordScan` compared and wrote, against
///   which the lookups a run carries over to the next (`PresenceCache`) hold;
/// - `ScanSnapshotPreload`: the last scan's snapshot, read ahead before the store is open;
/// - `LastScan`: that snapshot as a reader of a new scan follows it (its files, its key, the
///   walk's order of paths);
/// - `ScanSnapshotStore`, for its `FileKey` (a snapshot file's length and digest) and
///   `Recording` (what a recording compared and wrote).
///
/// The sealed-file format the state's files and reconcile's share lies below both, in
/// CairnSealedFiles.
package protocol ReconcileAccess: Sendable {
  /// What this process's last `recordScan` compared and wrote, if it recorded one.
  var lastRecording: ScanSnapshotStore.Recording? { get }
}

extension PartitionStore: ReconcileAccess {
  package var lastRecording: ScanSnapshotStore.Recording? { snapshots.lastRecording }
}
