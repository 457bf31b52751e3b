import CairnJSON
import CairnRecords
import CairnSafety
import Foundation

/// The plan as a person scans it: one section per bucket, each grouped by the folder the
/// photos were last seen in and then by the day they were taken.
struct ReviewSection {
  var id: String
  var title: String
  var note: String
  /// The boxes its tiles carry: `approve` and/or `exclude`.
  var kinds: [String]
  var folders: [Folder]
  var count: Int

  struct Folder {
    var id: String
    var name: String
    var days: [Day]
    var count: Int { days.reduce(0) { $0 + $1.items.count } }
  }

  struct Day {
    var id: String
    var name: String
    var items: [CandidateRecord]
  }

  /// The sections of `input`'s plan; a Live Photo's video that is a candidate too is shown on
  /// its still's tile, not on one of its own.
  static func all(_ input: ReviewInput) -> [ReviewSection] {
    let halves = input.motionHalves
    var plan = input.plan
    for keyPath in [
      \GatePlan.toTrash, \.approved, \.pending, \.held, \.kept, \.excluded, \.toRestore,
    ] {
      plan[keyPath: keyPath].removeAll { halves[$0.assetId.lowercased()] != nil }
    }
    let approved = Set(plan.approved.map(\.assetId))
    let sections = [
      make(
        "trash", "To trash", "cairn-trash moves these to Immich's trash (approved ones included).",
        ["exclude"], plan.toTrash.filter { !approved.contains($0.assetId) } + plan.approved),
      make(
        "pending", "Pending review",
        "Waiting for your approval; nothing happens to them until then.",
        ["approve", "exclude"], plan.pending),
      make(
        "held", "Held in quarantine",
        "A trash recorded the deletion; they wait until their quarantine ends, or your approval.",
        ["approve", "exclude"], plan.held),
      make(
        "kept", "Kept by the age window",
        "Taken longer ago than CAIRN_MAX_AGE_DAYS: they stay on Immich unless you approve one.",
        ["approve", "exclude"], plan.kept),
      make(
        "excluded", "Excluded", "Protected for good by an exclusion: never trashed.", [],
        plan.excluded),
      make(
        "restore", "To restore from the trash",
        "Back in your library after a cairn run trashed them: cairn-trash restores them.", [],
        plan.toRestore),
    ]
    return sections.filter { $0.count > 0 }
  }

  static func make(
    _ id: String, _ title: String, _ note: String, _ kinds: [String], _ items: [CandidateRecord]
  ) -> ReviewSection {
    let byFolder = Dictionary(grouping: items, by: folder)
    var folders: [Folder] = []
    for (f, folderName) in byFolder.keys.sorted().enumerated() {
      let byDay = Dictionary(grouping: byFolder[folderName] ?? [], by: day)
      let days = byDay.keys.sorted().enumerated().map { d, dayName in
        Day(
          id: "\(id)-\(f)-\(d)", name: dayName,
          items: (byDay[dayName] ?? []).sorted { Self.name($0) < Self.name($1) })
      }
      folders.append(Folder(id: "\(id)-\(f)", name: folderName, days: days))
    }
    return ReviewSection(
      id: id, title: title, note: note, kinds: kinds, folders: folders, count: items.count)
  }

  /// The folder of the first path the photo was last seen at.
  static func folder(_ candidate: CandidateRecord) -> String {
    guard let path = candidate.paths.first else { return "(never seen locally)" }
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "/" : folder
  }

  /// The day it was taken, as Immich's `fileCreatedAt` says it in UTC: the page is grouped when
  /// it is written, before any reader's time zone is known, so the heading says whose day it is
  /// (each tile's own date is shown in the reader's local time).
  static func day(_ candidate: CandidateRecord) -> String {
    candidate.fileCreatedAt.map { String($0.iso8601.prefix(10)) + " (UTC)" } ?? "date unknown"
  }

  static func name(_ candidate: CandidateRecord) -> String {
    candidate.originalFileName ?? candidate.paths.first.map { ($0 as NSString).lastPathComponent }
      ?? candidate.assetId
  }
}
