import CairnEngine
import CairnJSON
import CairnRecords
import Foundation

/// The plan as a person wants to read it before anything is trashed: counts per bucket, then the
/// items with file name, date and reason; held items say when they become eligible.
package enum GatePreview {
  /// The preview's lines (no trailing newlines). `limit` caps the items listed per section.
  package static func lines(_ plan: GatePlan, now: Date = Date(), limit: Int = 20) -> [String] {
    var out: [String] = []
    let approvedNote = plan.approved.isEmpty ? "" : " (\(plan.approved.count) approved by you)"
    out.append(
      "plan \(plan.digest.prefix(12)): \(plan.toTrash.count) to trash\(approvedNote), "
        + "\(plan.pending.count) pending review, \(plan.held.count) held, "
        + "\(plan.excluded.count) excluded"
        + (plan.kept.isEmpty ? "" : ", \(plan.kept.count) kept by the age window")
        + (plan.toRestore.isEmpty ? "" : ", \(plan.toRestore.count) to restore"))
    section(&out, "to trash", plan.toTrash, limit: limit) { describe($0) }
    section(
      &out, "pending review (cairn-gate --approve ID|CHECKSUM|all-pending, or --exclude)",
      plan.pending, limit: limit
    ) { describe($0) }
    section(&out, "held in quarantine", plan.held, limit: limit) { candidate in
      describe(candidate) + ", " + eligibility(candidate.eligibleAt, now: now)
    }
    section(
      &out,
      "kept by the age window (taken longer ago than CAIRN_MAX_AGE_DAYS; cairn-gate --approve "
        + "ID|CHECKSUM trashes one)", plan.kept, limit: limit
    ) { describe($0) }
    section(
      &out, "to restore from the trash (back in your library after a cairn run trashed them)",
      plan.toRestore, limit: limit
    ) { describe($0) }
    if !plan.burst.isEmpty {
      out.append(
        "\(plan.burst.count) deletions were confirmed at once, as after offloading photos to free "
          + "space; to keep them all on the server, rerun with: cairn-gate --exclude burst")
    }
    if let seen = seenHappening(plan) { out.append(seen) }
    let android = plan.pending.filter { $0.knownReason == .androidTrash }
    if !android.isEmpty {
      out.append(
        "\(android.count) of those pending sit in Android's trash (.trashed-): a gallery's delete "
          + "leaves that name, and so does the Immich app's \"Free up space\", which keeps them "
          + "on the server; approve only what you deleted on the phone, exclude the rest")
    }
    let sighted = plan.pending.filter { $0.knownReason == .seenUnhashed }
    if !sighted.isEmpty {
      out.append(
        "\(sighted.count) of those pending were matched by name and time to files cairn-observe "
          + "watch saw arrive and never hashed: cairn cannot tell they held these bytes, so "
          + "they go only if you approve them")
    }
    return out
  }

  /// Which deletions `cairn-observe watch` saw happen, and which the scan merely found missing
  /// (nil when the watcher saw none: then there is nothing to tell apart).
  static func seenHappening(_ plan: GatePlan) -> String? {
    let items = plan.toTrash + plan.pending + plan.held
    let seen = items.filter { $0.confirmedBy == DeletionConfirmation.watcherSource }.compactMap(
      \.confirmedAt
    ).sorted()
    guard let first = seen.first, let last = seen.last else { return nil }
    let missing = items.filter { $0.confirmedBy == nil }.count
    let when =
      first == last ? "on \(first.iso8601)" : "between \(first.iso8601) and \(last.iso8601)"
    return "\(seen.count) of these deletions were seen happening by cairn-observe watch (\(when)); "
      + "\(missing) were only found missing by a scan"
  }

  static func section(
    _ out: inout [String], _ title: String, _ items: [CandidateRecord], limit: Int,
    _ line: (CandidateRecord) -> String
  ) {
    guard !items.isEmpty else { return }
    out.append("\(title): \(items.count)")
    for candidate in items.prefix(limit) { out.append("  " + line(candidate)) }
    if items.count > limit { out.append("  ... and \(items.count - limit) more (-v lists all)") }
  }

  static func describe(_ c: CandidateRecord) -> String {
    let name =
      c.originalFileName ?? c.paths.first.map { ($0 as NSString).lastPathComponent }
      ?? c.assetId
    let date = c.fileCreatedAt.map { String($0.iso8601.prefix(10)) } ?? "----------"
    var text = "\(name)  \(date)  \(c.detail ?? c.reason)"
    if c.livePhotoVideoId != nil {
      if c.bucket == .restore {
        text += " (with its motion video, if a cairn run trashed it)"
      } else if c.livePhotoVideoKept == true {
        text += " (its motion video stays on the server)"
      } else if c.livePhotoVideoChecksum != nil {
        text += " (with its motion video)"
      } else {
        text += " (its motion video is not listed and stays)"
      }
    }
    if let path = c.paths.first { text += "  [was \(path)]" }
    return text
  }

  /// `eligible in 3 days`, `eligible today`, or `eligible now`.
  package static func eligibility(_ date: Date?, now: Date) -> String {
    guard let date else { return "eligibility unknown" }
    let seconds = date.timeIntervalSince(now)
    if seconds <= 0 { return "eligible now" }
    let days = Int((seconds / 86_400).rounded(.up))
    return days <= 1 && seconds < 86_400 ? "eligible in 1 day" : "eligible in \(days) days"
  }
}
