import CairnCore
import CairnState
import Foundation

/// The partition's state as cairn-restore uses it: the lock and the exclusions.
struct PartitionAccess {
  let store: PartitionStore

  /// Opens the state and takes the partition lock (busy: exit 75).
  static func lock(_ partition: ServerPartition, _ configuration: Configuration) throws(CairnError)
    -> PartitionAccess
  {
    PartitionAccess(store: try PartitionStore.open(partition, paths: configuration.paths))
  }

  /// A restored asset's checksum is excluded: the person wants it on the server, so the next
  /// run must not trash it again while the local file is still gone.
  func exclude(_ checksums: [String]) throws(CairnError) {
    try store.exclusions.add(checksums, reason: "restored by cairn-restore", at: Date())
  }
}
