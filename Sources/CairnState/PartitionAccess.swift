import CairnCore
import CairnState
import Foundation

/// The partition's state as cairn-trash uses it: the lock (one run per partition), exclusions,
/// and the record that a dry run was reviewed.
struct PartitionAccess {
  let store: PartitionStore

  /// Opens the state and takes the partition lock (busy: exit 75).
  static func lock(_ partition: ServerPartition, _ configuration: Configuration) throws(CairnError)
    -> PartitionAccess
  {
    PartitionAccess(store: try PartitionStore.open(partition, paths: configuration.paths))
  }

  var exclusions: Set<String> { (try? store.exclusions.checksums()) ?? [] }

  var dryRunReviewed: Bool { ((try? store.meta.date(.firstDryRunReviewedAt)) ?? nil) != nil }

  func recordDryRunReviewed() throws(CairnError) {
    if !dryRunReviewed { try store.meta.set(.firstDryRunReviewedAt, Date()) }
  }
}
