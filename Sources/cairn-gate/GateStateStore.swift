import CairnRecords
import CairnReviewPage
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// The gate's view of the partition's state: exclusions, approvals, the last matched count and
/// the rail settings.
///
/// Opened without the partition lock: the gate is not a run, and it sits in one pipeline with
/// the stages that do lock (SQLite keeps concurrent writers apart).
struct GateStateStore {
  let store: PartitionStore
  let configuration: Configuration

  static func open(partition: ServerPartition, configuration: Configuration) throws(CairnError)
    -> GateStateStore
  {
    let store = try PartitionStore.open(partition, paths: configuration.paths, locking: false)
    return GateStateStore(store: store, configuration: configuration)
  }

  func exclusions() throws(CairnError) -> Set<String> { try store.exclusions.checksums() }

  /// The stored exclusions of checksums not among `shown` (the stream's), newest first, with
  /// where the library last had each: what the review page lists as excluded earlier.
  func earlierExclusions(besides shown: Set<String>) throws(CairnError) -> [EarlierExclusion] {
    var earlier: [EarlierExclusion] = []
    let stored = try store.exclusions.all().reversed()
    for exclusion in stored where !shown.contains(exclusion.checksum) {
      earlier.append(
        EarlierExclusion(
          checksum: exclusion.checksum, reason: exclusion.reason, createdAt: exclusion.createdAt,
          lastPath: try store.observed.entry(exclusion.checksum)?.paths.first))
    }
    return earlier
  }

  /// Approved checksums and asset ids, whichever plan they were given for: a person approved
  /// the item, not one arrangement of the plan around it.
  func approvals() throws(CairnError) -> Set<String> {
    var approved: Set<String> = []
    for approval in try store.approvals.all() {
      approved.insert(approval.checksum)
      approved.insert(approval.assetId.lowercased())
    }
    return approved
  }

  func exclude(_ checksums: [String]) throws(CairnError) {
    try store.exclusions.add(checksums, reason: "excluded at cairn-gate", at: Date())
  }

  func approve(_ candidates: [CandidateRecord], plan: String) throws(CairnError) {
    try store.approvals.add(
      candidates.map {
        Approval(assetId: $0.assetId, checksum: $0.checksum, plan: plan, approvedAt: Date())
      })
  }

  func lastMatched() throws(CairnError) -> Int? { try store.meta.int(.lastMatchedCount) }

  func setLastMatched(_ count: Int) throws(CairnError) {
    try store.meta.set(.lastMatchedCount, count)
  }

  func latestScan() throws(CairnError) -> String? { try store.binding.latestScan() }

  func reconciled() throws(CairnError) -> ScanBinding.Reconciled? {
    try store.binding.reconciled()
  }

  /// Records the plan the rails passed, with its items (what it trashes and restores), which
  /// `cairn-trash` checks a filtered part of the plan against.
  func recordPass(_ pass: ScanBinding.GatePass, members: [CandidateRecord]) throws(CairnError) {
    try store.binding.recordGatePass(pass, members: members)
  }

  func shapedPlan(_ reviewed: String) throws(CairnError) -> String? {
    try store.planShapes.shaped(reviewed)
  }

  func recordShape(reviewed: String, shaped: String) throws(CairnError) {
    try store.planShapes.record(reviewed: reviewed, shaped: shaped)
  }

  func close() { store.close() }
}
