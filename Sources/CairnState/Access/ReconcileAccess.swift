import CairnCore

/// What the reconcile library (CairnReconcile) asks of the partition a scan was recorded in,
/// beside the scan snapshot's door (`ScanSnapshotPreload`, `LastScan`): where the partition
/// keeps its files, and what this process's last `recordScan` compared and wrote. The lookups
/// a run carries over to the next (`PresenceCache`) hold only against that recording. The
/// sealed-file helpers (`SnapshotFile`, `ByteKey`, `ByteHashFilter`) are `package` where they
/// are declared.
package protocol ReconcileAccess: Sendable {
  /// The partition folder.
  var directory: String { get }
  /// What this process's last `recordScan` compared and wrote, if it recorded one.
  var lastRecording: ScanSnapshotStore.Recording? { get }
}

extension PartitionStore: ReconcileAccess {
  package var lastRecording: ScanSnapshotStore.Recording? { snapshots.lastRecording }
}
