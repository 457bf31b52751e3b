import CairnRecords
import CairnStream
import Foundation

/// Brings assets of cairn runs back from the Immich trash, reads back which are active again,
/// and journals each restore under the run that trashed it.
///
/// Immich checks a restore's ids all or nothing: one id it has purged blocks the whole list
/// (400). A refused list is therefore halved until every id that can be restored is, and each
/// refused one is known; 1,000 ids go in a request, so a run of 100,000 restorable assets takes
/// 100 restores and its read-back about 300 listing pages.
package struct RestoreRun {
  package let server: any RunServer
  package let journal: Journal
  /// Ids per request (Immich sets no limit; 1,000 keeps a request small).
  package var batchSize = 1000

  package init(server: any RunServer, journal: Journal) {
    self.server = server
    self.journal = journal
  }

  /// One asset to restore and the run that trashed it.
  package struct Target: Sendable, Equatable {
    package var id: String
    package var runID: String
    package var checksum: String?
    package var originalFileName: String?
    package var livePhotoVideo: Bool
    /// The run's tag on the server and how many assets it tagged, when known: reading back a
    /// run's many assets then takes one listing.
    package var tagID: String?
    package var runSize: Int

    package init(
      id: String, runID: String, checksum: String? = nil, originalFileName: String? = nil,
      livePhotoVideo: Bool = false, tagID: String? = nil, runSize: Int = 0
    ) {
      self.id = id.lowercased()
      self.runID = runID
      self.checksum = checksum
      self.originalFileName = originalFileName
      self.livePhotoVideo = livePhotoVideo
      self.tagID = tagID
      self.runSize = runSize
    }

    var wanted: ServerSightings.Wanted {
      ServerSightings.Wanted(id: id, tagID: tagID, runSize: runSize)
    }
  }

  package struct Outcome: Sendable {
    package var restored: [Target] = []
    package var failed: [Target] = []
    /// Why each failed asset was not restored, by id.
    package var reasons: [String: String] = [:]
    /// Checksums of restored assets (as the server reports them): the caller excludes them so
    /// the next run doesn't trash them again.
    package var restoredChecksums: [String] = []
    /// What stopped the restore (a missing permission, a failing server); nil when every
    /// request was answered.
    package var failure: CairnError?
  }

  package func execute(_ targets: [Target], dryRun: Bool, emit: (ResultRecord) -> Void) async
    -> Outcome
  {
    var outcome = Outcome()
    if dryRun {
      for target in targets { emit(result(target, "would-restore", nil)) }
      return outcome
    }
    var refused: [String: String] = [:]
    var sent: [Target] = []
    for batch in targets.chunked(batchSize) {
      do throws(CairnError) {
        try journalEach(batch, .restoring)
        try await send(batch.map(\.id)[...], refused: &refused)
        sent += batch
      } catch {
        outcome.failure = error
        break
      }
    }
    // The batch that failed stays `restoring` in the journal: it may have been applied.
    for target in targets.dropFirst(sent.count) {
      let reason = "not restored: \(outcome.failure?.message ?? "stopped")"
      outcome.fail(target, reason, emit)
    }
    await readBack(sent, refused: refused, into: &outcome, emit: emit)
    return outcome
  }

  /// Sends `ids`, halving a list the server refuses until each refused id stands alone.
  private func send(_ ids: ArraySlice<String>, refused: inout [String: String])
    async throws(CairnError)
  {
    do throws(RestoreFailure) {
      try await server.restore(assetIDs: Array(ids))
    } catch {
      guard case .refused(let reason) = error else { throw error.error }
      if ids.count == 1, let id = ids.first {
        refused[id] = reason.message
        return
      }
      let middle = ids.startIndex + ids.count / 2
      try await send(ids[..<middle], refused: &refused)
      try await send(ids[middle...], refused: &refused)
    }
  }

  /// Asks the server which of `sent` are active again (its answers count ids, not restores),
  /// then journals the restored and the failed under their runs. Assets it could not read
  /// back stay `restoring` in the journal: found active later, they count as cairn's restore.
  private func readBack(
    _ sent: [Target], refused: [String: String], into outcome: inout Outcome,
    emit: (ResultRecord) -> Void
  ) async {
    guard !sent.isEmpty else { return }
    var sightings = ServerSightings()
    do throws(CairnError) {
      try await sightings.read(sent.map(\.wanted), on: server)
    } catch {
      outcome.failure = outcome.failure ?? error
      for target in sent { outcome.fail(target, "could not read it back: \(error.message)", emit) }
      return
    }
    var reasons: [String: String] = [:]
    for target in sent {
      if sightings.sighting(target.id) == .active {
        outcome.restored.append(target)
        if let checksum = sightings.seen[target.id]?.checksum ?? target.checksum {
          outcome.restoredChecksums.append(checksum)
        }
        emit(result(target, "restored", nil))
      } else {
        let reason = Self.notRestored(sightings.sighting(target.id), refused: refused[target.id])
        reasons[target.id] = reason
        outcome.fail(target, reason, emit)
      }
    }
    do throws(CairnError) {
      try journalEach(outcome.restored, .restored)
      let failed = sent.filter { reasons[$0.id] != nil }
      for (reason, group) in Dictionary(grouping: failed, by: { reasons[$0.id] ?? "" }).sorted(
        by: { $0.key < $1.key })
      {
        try journalEach(group, .failed, message: reason)
      }
    } catch {
      outcome.failure = outcome.failure ?? error
    }
  }

  /// Why an asset sent for restoring is not active: what the server says of it now, and
  /// whether it refused it.
  package static func notRestored(_ sighting: ServerSighting, refused: String?) -> String {
    switch sighting {
    case .absent:
      return "purged from Immich's trash: it can no longer be restored"
    case .trashed where refused != nil:
      return "the server refused to restore it: \(refused ?? "")"
    case .trashed:
      return "still in the trash after the restore: emptied from Immich's trash, it awaits the "
        + "purge and can no longer be restored"
    case .active:
      return "active"
    }
  }

  /// One journal entry of `event` per run for `targets`.
  private func journalEach(_ targets: [Target], _ event: JournalEntry.Event, message: String? = nil)
    throws(CairnError)
  {
    let byRun = Dictionary(grouping: targets, by: \.runID)
    for (run, group) in byRun.sorted(by: { $0.key < $1.key }) {
      try journal.append(
        JournalEntry(
          event, runID: run, assetIDs: group.map(\.id),
          step: event == .failed ? RestoreStep.restore : nil, message: message))
    }
  }

  private func result(_ target: Target, _ action: String, _ message: String?) -> ResultRecord {
    target.result(action, message)
  }
}

extension RestoreRun.Target {
  /// This asset's result record.
  package func result(_ action: String, _ message: String?) -> ResultRecord {
    ResultRecord(
      assetId: id, action: action, runId: runID, checksum: checksum,
      originalFileName: originalFileName, livePhotoVideo: livePhotoVideo ? true : nil,
      message: message)
  }
}

extension RestoreRun.Outcome {
  /// Counts `target` as failed for `reason` and says so.
  package mutating func fail(
    _ target: RestoreRun.Target, _ reason: String, _ emit: (ResultRecord) -> Void
  ) {
    failed.append(target)
    reasons[target.id] = reason
    emit(target.result("failed", reason))
  }
}
