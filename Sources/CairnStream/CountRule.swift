import CairnRecords

/// How a reader compares the end record's per-type counts with the records it read.
///
/// Where a missing line could turn into a deletion (a `file` line lost between `cairn-hash` and
/// `cairn-reconcile` is a photo that looks gone), every count must be exact. Where a subset can
/// only make a stage do less (restore fewer assets, trash fewer candidates of a plan the gate
/// passed, tag fewer), a reader may accept fewer records of those types than the end record
/// counts, so that `jq` or `grep` between stages works; it never accepts more, and `error`
/// records are always counted exactly (a dropped error hides an incomplete scan).
/// `cairn-records(5)` lists which reader accepts a subset of what.
///
/// Readers on the way to a deletion also hold the end record's error totals (`errors`, and
/// `counts.errors` where a stage counts them) to the `error` records read: a total that
/// disagrees with them is malformed, so a scan that says it had errors is never taken for a
/// complete one. The stages that act on results (`cairn-restore`, `cairn-tag`) read
/// `cairn-trash`'s output, whose total counts the items that failed, and do not.
package struct CountRule: Sendable, Equatable {
  /// The record types of which the reader accepts fewer than the end record counts.
  package let subsetTypes: Set<String>
  /// Whether the end record's error totals must equal the `error` records read.
  package let errorTotalsExact: Bool

  /// Every count exact: the rule for readers whose input's absences mean something.
  package static let exact = CountRule(subsetTypes: [], errorTotalsExact: true)

  /// Fewer records of `types` than the end record counts are a filtered subset, not an error.
  package static func subset(of types: Set<String>) -> CountRule {
    CountRule(subsetTypes: types.subtracting([ErrorRecord.recordType]), errorTotalsExact: true)
  }

  /// For stages that act on the assets a stream names (`cairn-restore`, `cairn-tag`): a part
  /// of the asset, result or candidate records names fewer assets to act on.
  package static let assetSelection = CountRule(
    subsetTypes: [AssetRecord.recordType, ResultRecord.recordType, CandidateRecord.recordType],
    errorTotalsExact: false)

  private init(subsetTypes: Set<String>, errorTotalsExact: Bool) {
    self.subsetTypes = subsetTypes
    self.errorTotalsExact = errorTotalsExact
  }

  func allowsFewer(_ type: String) -> Bool { subsetTypes.contains(type) }
}
