import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

/// The partition's state as the tools that change the server use it (cairn-trash,
/// cairn-restore): the lock (one run per partition), the exclusions, and the record that a dry
/// run was reviewed.
package struct PartitionAccess {
  package let store: PartitionStore

  /// Opens the state and takes the partition lock (busy: exit 75).
  package static func lock(_ partition: ServerPartition, _ configuration: Configuration)
    throws(CairnError) -> PartitionAccess
  {
    PartitionAccess(store: try PartitionStore.open(partition, paths: configuration.paths))
  }

  package var exclusions: Set<String> { (try? store.exclusions.checksums()) ?? [] }

  package var dryRunReviewed: Bool {
    ((try? store.meta.date(.firstDryRunReviewedAt)) ?? nil) != nil
  }

  package func recordDryRunReviewed() throws(CairnError) {
    if !dryRunReviewed { try store.meta.set(.firstDryRunReviewedAt, Date()) }
  }

  /// Protects `checksums` for good: a restored asset's, because the person wants it on the
  /// server, so the next run must not trash it again while the local file is still gone.
  package func exclude(_ checksums: [String], reason: String) throws(CairnError) {
    try store.exclusions.add(checksums, reason: reason, at: Date())
  }
}
