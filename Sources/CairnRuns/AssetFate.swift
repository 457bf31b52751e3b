import Foundation

/// What the server says of an asset now.
package enum ServerSighting: String, Sendable, CaseIterable {
  case trashed, active
  /// The server does not know it (any more): purged from the trash, or out of cairn's reach.
  case absent
}

/// What became of an asset a cairn run trashed, read from the journal and from what cairn has
/// seen of the server since. Only an asset `inCairnTrash` is cairn's: "already in the trash"
/// for a trash run, restorable by `cairn-restore`, put back when its file comes back. Once
/// someone restored it in Immich it is theirs, and stays theirs when they trash it again.
package enum AssetFate: String, Sendable, CaseIterable {
  case inCairnTrash = "in-trash"
  case restoredByCairn = "restored"
  case restoredElsewhere = "restored-elsewhere"
  case trashedElsewhere = "trashed-elsewhere"
  case purged

  /// How `cairn-restore show` says it.
  package var description: String {
    switch self {
    case .inCairnTrash: return "still in cairn's trash"
    case .restoredByCairn: return "restored by cairn"
    case .restoredElsewhere: return "restored by someone else"
    case .trashedElsewhere: return "trashed again by someone else"
    case .purged: return "purged"
    }
  }
}

/// What cairn learned about one asset of one run, beyond the journal.
package struct LearnedFate: Sendable, Equatable {
  package var runID: String
  package var assetID: String
  /// What the server said when cairn last looked, and since when it says so.
  package var lastSeen: ServerSighting
  package var since: Date
  /// When cairn first found it active again without having restored it.
  package var restoredElsewhereAt: Date?
  /// When a scan found its bytes in the library again after that restore: a deletion of the
  /// file from then on is a new deletion.
  package var fileSeenAgainAt: Date?

  package init(
    runID: String, assetID: String, lastSeen: ServerSighting, since: Date,
    restoredElsewhereAt: Date? = nil, fileSeenAgainAt: Date? = nil
  ) {
    self.runID = runID
    self.assetID = assetID
    self.lastSeen = lastSeen
    self.since = since
    self.restoredElsewhereAt = restoredElsewhereAt
    self.fileSeenAgainAt = fileSeenAgainAt
  }
}

/// The journal read against the server as it is now: what cairn learned of its runs' assets
/// (kept in the partition's state), and the fates that follow. An asset without an entry is
/// where the journal says; entries are written only when the server tells something new.
package struct FateLedger: Sendable, Equatable {
  private var entries: [String: LearnedFate] = [:]
  /// Entries learned or changed since the ledger was loaded: what the caller saves.
  package private(set) var changed: [LearnedFate] = []

  package init(_ learned: [LearnedFate] = []) {
    for entry in learned { entries[Self.key(entry.runID, entry.assetID)] = entry }
  }

  package func learned(_ assetID: String, in runID: String) -> LearnedFate? {
    entries[Self.key(runID, assetID)]
  }

  /// The fate of `id` in `run`; nil when that run never trashed it.
  package func fate(of id: String, in run: RunHistory) -> AssetFate? {
    guard run.trashed.contains(id) else { return nil }
    if run.restored.contains(id) { return .restoredByCairn }
    guard let learned = learned(id, in: run.runID) else { return .inCairnTrash }
    let elsewhere = learned.restoredElsewhereAt != nil
    switch learned.lastSeen {
    case .absent: return .purged
    case .active: return elsewhere ? .restoredElsewhere : .restoredByCairn
    case .trashed: return elsewhere ? .trashedElsewhere : .inCairnTrash
    }
  }

  /// Records what the server says now of the assets in `sightings`, each under the latest run
  /// that trashed it, when cairn has not restored it since. An asset active again that cairn
  /// sent no restore for was restored by someone else; one in the trash that the server says
  /// went there after its run put it there (`trashedAgain`, see `TrashedAgain`) was restored
  /// and trashed again by someone else, though no look of cairn's found it active between.
  package mutating func learn(
    _ sightings: [String: ServerSighting], trashedAgain: Set<String> = [],
    history: [RunHistory], at now: Date
  ) {
    let latest = Self.latestRuns(history)
    for (id, sighting) in sightings {
      guard let index = latest[id] else { continue }
      let run = history[index]
      guard run.inTrash.contains(id) else { continue }
      let old = learned(id, in: run.runID)
      let again = sighting == .trashed && trashedAgain.contains(id)
      if old == nil && sighting == .trashed && !again { continue }
      var entry =
        old ?? LearnedFate(runID: run.runID, assetID: id, lastSeen: sighting, since: now)
      if entry.lastSeen != sighting {
        entry.lastSeen = sighting
        entry.since = now
      }
      let restoredElsewhere =
        again || (sighting == .active && !run.restoreSent.contains(id))
      if restoredElsewhere && entry.restoredElsewhereAt == nil {
        entry.restoredElsewhereAt = now
      }
      guard entry != old else { continue }
      record(entry)
    }
  }

  /// Notes that the bytes of assets someone restored are in the library again (`isPresent`
  /// says so of a checksum): from now on, their file's deletion is a deletion like any other.
  package mutating func noteFilesSeenAgain(
    history: [RunHistory], at now: Date, isPresent: (String) -> Bool
  ) {
    for (id, index) in Self.latestRuns(history) {
      let run = history[index]
      guard var entry = learned(id, in: run.runID), entry.restoredElsewhereAt != nil,
        entry.fileSeenAgainAt == nil, let checksum = run.asset(id)?.checksum, isPresent(checksum)
      else { continue }
      entry.fileSeenAgainAt = now
      record(entry)
    }
  }

  /// Checksums not to propose for trashing: assets someone restored in Immich after a cairn
  /// run trashed them, whose bytes no scan has found since. The person wants them on the
  /// server though their file is gone; deleting the file again (after it came back) is what
  /// makes them candidates again.
  package func keptOnServer(_ history: [RunHistory]) -> Set<String> {
    var kept: Set<String> = []
    for (id, index) in Self.latestRuns(history) {
      let run = history[index]
      guard fate(of: id, in: run) == .restoredElsewhere,
        learned(id, in: run.runID)?.fileSeenAgainAt == nil,
        let checksum = run.asset(id)?.checksum
      else { continue }
      kept.insert(checksum)
    }
    return kept
  }

  /// The assets still in the trash cairn put them in (lower-case id to the run's id): the
  /// journal's `inTrash` less what the server showed was restored, trashed by someone else or
  /// purged since.
  package func cairnsTrash(_ history: [RunHistory]) -> [String: String] {
    var result: [String: String] = [:]
    for (id, index) in Self.latestRuns(history) where history[index].inTrash.contains(id) {
      if fate(of: id, in: history[index]) == .inCairnTrash { result[id] = history[index].runID }
    }
    return result
  }

  /// For each asset a run trashed, the index in `history` of the latest run that trashed it.
  package static func latestRuns(_ history: [RunHistory]) -> [String: Int] {
    var latest: [String: Int] = [:]
    for (index, run) in history.enumerated() {
      for id in run.trashed { latest[id.lowercased()] = index }
    }
    return latest
  }

  private mutating func record(_ entry: LearnedFate) {
    entries[Self.key(entry.runID, entry.assetID)] = entry
    changed.append(entry)
  }

  private static func key(_ runID: String, _ assetID: String) -> String {
    runID + " " + assetID
  }
}
