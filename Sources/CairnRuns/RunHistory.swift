import Foundation

/// One run as the journal tells it: what it planned, tagged, trashed, restored, and whether it
/// finished.
package struct RunHistory: Sendable, Equatable {
  package let runID: String
  package var startedAt: Date?
  package var plan: String?
  package var tagID: String?
  /// Every asset planned, in plan order (stills and motion videos).
  package var planned: [JournalAsset] = []
  package var tagged: Set<String> = []
  /// Assets a `DELETE` was sent for, and when the last was sent.
  package var sent: Set<String> = []
  package var lastSentAt: Date?
  /// Sent assets whose outcome is known: trashed, rejected by the server, or found not moved.
  package var settledSends: Set<String> = []
  package var trashed: Set<String> = []
  /// Failed assets and the last reason given.
  package var failed: [String: String] = [:]
  package var untagged: Set<String> = []
  package var restored: Set<String> = []
  /// Assets a restore request was sent for and whose outcome the journal doesn't know yet: an
  /// asset among them found active again was restored by cairn, not by someone else.
  package var restoreSent: Set<String> = []
  /// The latest server clock its `trashed` entries recorded (`JournalEntry.serverTime`).
  private(set) var latestTrashServerTime: Date?
  /// Set when a `trashed` entry recorded no server clock (an older cairn, or no `Date` header).
  private(set) var trashServerTimeMissing = false
  package var completed = false
  package var interrupted = false
  package var recovered = false
  /// This entry only records that a dry run's plan was shown (nothing was done).
  package var reviewedOnly = true
  package var lastActivity: Date?

  package init(runID: String) { self.runID = runID }

  /// A trash run that started and never wrote `completed`: a crash, kill or lost connection
  /// interrupted it, and the next run must settle it before doing anything else.
  package var isUnfinished: Bool { startedAt != nil && !completed }

  /// Assets whose `DELETE` was sent and whose outcome the journal doesn't know: the request may
  /// still be in flight (the run died waiting for it) or its answer was lost.
  package var inDoubt: Set<String> { sent.subtracting(settledSends).subtracting(untagged) }

  /// Trashed by this run and not restored since.
  package var inTrash: Set<String> { trashed.subtracting(restored) }

  /// The server's clock once this run's assets were all found in the trash: no Immich
  /// `deletedAt` of its trashing is later (to the second). Nil when any `trashed` entry lacks
  /// it: then nothing can be told from when an asset was trashed.
  package var trashedByServerTime: Date? {
    trashServerTimeMissing ? nil : latestTrashServerTime
  }

  /// The planned asset with `id`, if this run planned it.
  package func asset(_ id: String) -> JournalAsset? { planned.first { $0.id == id } }

  /// Groups journal entries by run, in order of first appearance.
  package static func reconstruct(_ entries: [JournalEntry]) -> [RunHistory] {
    var order: [String] = []
    var runs: [String: RunHistory] = [:]
    for entry in entries {
      if runs[entry.runID] == nil {
        order.append(entry.runID)
        runs[entry.runID] = RunHistory(runID: entry.runID)
      }
      runs[entry.runID]?.apply(entry)
    }
    return order.compactMap { runs[$0] }
  }

  mutating func apply(_ entry: JournalEntry) {
    lastActivity = entry.at
    if entry.event != .reviewed { reviewedOnly = false }
    switch entry.event {
    case .started:
      startedAt = entry.at
      plan = entry.plan ?? plan
      tagID = entry.tagID ?? tagID
    case .planned:
      let known = Set(planned.map(\.id))
      planned.append(contentsOf: entry.assets.filter { !known.contains($0.id) })
    case .tagged:
      tagID = entry.tagID ?? tagID
      tagged.formUnion(entry.assetIDs)
    case .sending:
      sent.formUnion(entry.assetIDs)
      lastSentAt = entry.at
    case .trashed:
      trashed.formUnion(entry.assetIDs)
      if let time = entry.serverTime {
        latestTrashServerTime = max(latestTrashServerTime ?? time, time)
      } else if !entry.assetIDs.isEmpty {
        trashServerTimeMissing = true
      }
      settledSends.formUnion(entry.assetIDs)
      for id in entry.assetIDs { failed[id] = nil }
    case .failed:
      for id in entry.assetIDs { failed[id] = entry.message ?? entry.step ?? "failed" }
      if entry.step == RestoreStep.restore { restoreSent.subtract(entry.assetIDs) }
      if entry.step == TrashStep.rejected || entry.step == TrashStep.notMoved {
        settledSends.formUnion(entry.assetIDs)
      }
    case .untagged:
      untagged.formUnion(entry.assetIDs)
      tagged.subtract(entry.assetIDs)
    case .restoring:
      restoreSent.formUnion(entry.assetIDs)
    case .restored:
      restored.formUnion(entry.assetIDs)
      restoreSent.subtract(entry.assetIDs)
    case .completed:
      completed = true
      interrupted = interrupted || entry.interrupted == true
      recovered = recovered || entry.recovered == true
    case .reviewed:
      plan = entry.plan ?? plan
    }
  }
}

/// The `step` of a `failed` journal entry of a restore.
package enum RestoreStep {
  /// The server refused the asset or, having answered, did not restore it.
  package static let restore = "restore"
}

/// The `step` of a `failed` journal entry of a trash run.
package enum TrashStep {
  package static let tag = "tag"
  /// The `DELETE` got no answer (lost connection, timeout, kill): it may have been applied.
  package static let trash = "trash"
  /// The server answered the `DELETE` with an error: Immich applies it all or nothing.
  package static let rejected = "trash-rejected"
  /// The server answered, but reading back found the asset not in the trash (Immich #30237).
  package static let notMoved = "verify"
}
