import Foundation

/// One trash run: tag, then trash, batch by batch, journalling every step.
///
/// Order per run: `started` and `planned` are journalled, the run tag is upserted
/// (`PUT /api/tags`), then for each batch the assets are tagged (`PUT /api/tags/assets`), the tag
/// journalled, the batch trashed (`DELETE /api/assets`, `force:false`) and the trash journalled.
/// An asset is therefore never trashed untagged, and never trashed without the journal knowing
/// it planned to. A failing request stops the run where it is and leaves it unfinished; the next
/// run settles it through the server (see `RunRecovery`).
public struct TrashRun {
  public let server: any RunServer
  public let journal: Journal
  public var batchSize: Int

  public init(server: any RunServer, journal: Journal, batchSize: Int = 1000) {
    self.server = server
    self.journal = journal
    self.batchSize = min(max(batchSize, 2), 1000)
  }

  public struct Outcome: Sendable {
    public var counts: [String: Int] = [:]
    public var interrupted = false
    public var failure: CairnError?
    public var complete: Bool { !interrupted && failure == nil }
  }

  /// Runs `plan` as `runID`. `emit` receives one result per asset; `shouldStop` is polled
  /// between batches (SIGINT).
  public func execute(
    _ plan: TrashPlan, planDigest: String, runID: RunID, emit: (ResultRecord) -> Void,
    shouldStop: () -> Bool
  ) async -> Outcome {
    let run = runID.description
    var outcome = Outcome()
    var trashed = 0
    var videos = 0
    let batches = plan.batches(size: batchSize)
    do {
      try journal.append(JournalEntry(.started, runID: run, plan: planDigest))
      for chunk in plan.journalAssets.chunked(1000) {
        try journal.append(JournalEntry(.planned, runID: run, assets: chunk))
      }
    } catch {
      outcome.failure = error
      for unit in plan.units { emitUnit(unit, "failed", run, emit, outcome.failure?.message) }
      return outcome
    }
    var tagID: String?
    for (index, batch) in batches.enumerated() {
      if index > 0 && shouldStop() {
        outcome.interrupted = true
        for rest in batches[index...] {
          for unit in rest { emitUnit(unit, "skipped", run, emit, "not attempted: interrupted") }
        }
        break
      }
      let ids = batch.flatMap(\.ids)
      var step = "tag"
      do {
        if tagID == nil {
          let id = try await server.upsertTag(RunTag(runID).value)
          try journal.append(JournalEntry(.tagged, runID: run, tagID: id))
          tagID = id
        }
        guard let tag = tagID else { break }
        try await server.tagAssets(tagID: tag, assetIDs: ids)
        try journal.append(JournalEntry(.tagged, runID: run, tagID: tag, assetIDs: ids))
        step = "trash"
        try await server.trash(assetIDs: ids)
        try journal.append(JournalEntry(.trashed, runID: run, tagID: tag, assetIDs: ids))
        for unit in batch {
          emitUnit(unit, "trashed", run, emit, nil)
          trashed += 1
          if unit.videoID != nil { videos += 1 }
        }
      } catch {
        let failure = error as? CairnError ?? CairnError(.serverFailure, "\(error)")
        outcome.failure = failure
        // Best effort: the run stays unfinished either way, and the next run asks the server.
        try? journal.append(
          JournalEntry(.failed, runID: run, assetIDs: ids, step: step, message: failure.message))
        for unit in batch { emitUnit(unit, "failed", run, emit, failure.message) }
        for rest in batches[(index + 1)...] {
          for unit in rest { emitUnit(unit, "skipped", run, emit, "not attempted: \(step) failed") }
        }
        outcome.counts = ["trashed": trashed, "livePhotoVideos": videos]
        return outcome
      }
    }
    outcome.counts = ["trashed": trashed, "livePhotoVideos": videos]
    do {
      try journal.append(
        JournalEntry(
          .completed, runID: run, tagID: tagID, counts: outcome.counts,
          interrupted: outcome.interrupted ? true : nil))
    } catch {
      outcome.failure = error
    }
    return outcome
  }

  private func emitUnit(
    _ unit: TrashPlan.Unit, _ action: String, _ run: String, _ emit: (ResultRecord) -> Void,
    _ message: String?
  ) {
    emit(
      ResultRecord(
        assetId: unit.assetID, action: action, runId: run, checksum: unit.candidate.checksum,
        originalFileName: unit.candidate.originalFileName, message: message))
    if let video = unit.videoID {
      emit(
        ResultRecord(
          assetId: video, action: action, runId: run, livePhotoVideo: true,
          message: message ?? "motion video of \(unit.assetID)"))
    }
  }
}
