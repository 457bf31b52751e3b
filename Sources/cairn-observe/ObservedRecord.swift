import CairnEngine
import CairnJSON
import CairnRecords
import Foundation

/// One remembered checksum, as `cairn-observe list` writes it.
struct ObservedRecord: CairnRecords.Record {
  static let recordType = "observed"

  var checksum: String
  var roots: [String]
  var paths: [String]
  var firstSeen: Date
  var lastSeen: Date
  var missingSince: Date?
  var confirmedAt: Date?
  var confirmedBy: String?
  var excluded: Bool

  init(
    _ entry: ObservedEntry, missingSince: Date?, confirmation: DeletionConfirmation?,
    excluded: Bool
  ) {
    checksum = entry.checksum
    roots = entry.roots.sorted()
    paths = entry.paths
    firstSeen = entry.firstSeen
    lastSeen = entry.lastSeen
    self.missingSince = missingSince
    confirmedAt = confirmation?.confirmedAt
    confirmedBy = confirmation?.source
    self.excluded = excluded
  }

  init(_ object: JSONObject) throws(RecordError) {
    checksum = try object.string("checksum")
    roots = try object.stringArray("roots")
    paths = try object.stringArray("paths")
    firstSeen = try object.date("firstSeen")
    lastSeen = try object.date("lastSeen")
    missingSince = try object.optionalDate("missingSince")
    confirmedAt = try object.optionalDate("confirmedAt")
    confirmedBy = try object.optionalString("confirmedBy")
    excluded = try object.optionalBool("excluded") ?? false
  }

  func writeFields(to w: inout JSONObjectWriter) {
    w.field("checksum", checksum)
    w.field("roots", roots)
    w.field("paths", paths)
    w.field("firstSeen", firstSeen)
    w.field("lastSeen", lastSeen)
    w.field("missingSince", missingSince)
    w.field("confirmedAt", confirmedAt)
    w.field("confirmedBy", confirmedBy)
    w.field("excluded", excluded)
  }
}

/// One exclusion, as `cairn-observe list --exclusions` writes it.
struct ExclusionRecord: CairnRecords.Record {
  static let recordType = "exclusion"
  var exclusion: Exclusion

  init(_ exclusion: Exclusion) { self.exclusion = exclusion }

  init(_ object: JSONObject) throws(RecordError) {
    exclusion = Exclusion(
      checksum: try object.string("checksum"), reason: try object.string("reason"),
      createdAt: try object.date("createdAt"))
  }

  func writeFields(to w: inout JSONObjectWriter) {
    w.field("checksum", exclusion.checksum)
    w.field("reason", exclusion.reason)
    w.field("createdAt", exclusion.createdAt)
  }
}
