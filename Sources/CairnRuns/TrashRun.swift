import CairnRecords
import CairnStream
import Foundation

/// One trash run: tag, then trash, batch by batch, journalling every step.
///
/// Order per run: `started` and `planned` are journalled, the run tag is upserted
/// (`PUT /api/tags`), then for each batch the assets are tagged (`PUT /api/tags/assets`), the tag
/// journalled, the intent to trash journalled (`sending`) and the batch trashed
/// (`DELETE /api/assets`, `force:false`); then what the server moved is read back (one listing
/// of the run's tag for all batches) and journalled:
/// `trashed` for what is in the trash, `failed` (step `verify`) and untagged for what a 2xx
/// answer left where it was (Immich #30237). An asset is therefore never trashed untagged, and
/// never trashed without the journal knowing it planned to. A failing request stops the run where it is and leaves it unfinished; the next
/// run settles it through the server (see `RunRecovery`).
package struct TrashRun {
  package let server: any RunServer
  package let journal: Journal
  package var batchSize: Int

  package init(server: any RunServer, journal: Journal, batchSize: Int = 1000) {
    self.server = server
    self.journal = journal
    self.batchSize = min(max(batchSize, 2), 1000)
  }

  package struct Outcome: Sendable {
    package var counts: [String: Int] = [:]
    package var interrupted = false
    package var failure: CairnError?
    package var complete: Bool { !interrupted && failure == nil }
  }

  /// Runs `plan` as `runID`. `emit` receives one result per asset; `shouldStop` is polled
  /// between batches (SIGINT).
  package func execute(
    _ plan: TrashPlan, planDigest: String, runID: RunID, emit: (ResultRecord) -> Void,
    shouldStop: () -> Bool
  ) async -> Outcome {
    let run = runID.description
    var outcome = Outcome()
    do throws(CairnError) {
      try journalStart(plan, planDigest: planDigest, run: run)
    } catch {
      outcome.failure = error
      for unit in plan.units { emitUnit(unit, "failed", run, emit, error.message) }
      return outcome
    }
    let sending = await send(
      plan.batches(size: batchSize), runID: runID, emit: emit, shouldStop: shouldStop)
    outcome.interrupted = sending.interrupted
    outcome.failure = sending.failure
    let (trashed, videos) = await readBackSent(sending, run: run, emit: emit, outcome: &outcome)
    outcome.counts = ["trashed": trashed, "livePhotoVideos": videos]
    if outcome.failure != nil { return outcome }
    do throws(CairnError) {
      try journal.append(
        JournalEntry(
          .completed, runID: run, tagID: sending.tagID, counts: outcome.counts,
          interrupted: outcome.interrupted ? true : nil))
    } catch {
      outcome.failure = error
    }
    return outcome
  }

  /// What sending the batches left: the batches the server answered, to be read back together
  /// once the sending is over (one listing of the run's tag instead of one per batch, which
  /// would grow with the run), the run's tag once it exists, and why sending stopped early.
  struct Sending {
    var sent: [[TrashPlan.Unit]] = []
    var tagID: String?
    var interrupted = false
    var failure: CairnError?
  }

  /// Journals that the run started and every asset it plans, before anything is sent.
  private func journalStart(_ plan: TrashPlan, planDigest: String, run: String)
    throws(CairnError)
  {
    try journal.append(JournalEntry(.started, runID: run, plan: planDigest))
    for chunk in plan.journalAssets.chunked(1000) {
      try journal.append(JournalEntry(.planned, runID: run, assets: chunk))
    }
  }

  /// Sends the batches one by one until all are sent, one fails or `shouldStop` says so; the
  /// batches not attempted are emitted as skipped.
  private func send(
    _ batches: [[TrashPlan.Unit]], runID: RunID, emit: (ResultRecord) -> Void,
    shouldStop: () -> Bool
  ) async -> Sending {
    let run = runID.description
    var sending = Sending()
    for (index, batch) in batches.enumerated() {
      if index > 0 && shouldStop() {
        sending.interrupted = true
        skip(batches[index...], run, emit, "not attempted: interrupted")
        break
      }
      let ids = batch.flatMap(\.ids)
      var step = TrashStep.tag
      do throws(CairnError) {
        sending.tagID = try await sendBatch(ids, tagID: sending.tagID, runID: runID, step: &step)
        sending.sent.append(batch)
      } catch {
        sending.failure = error
        // Best effort: the run stays unfinished either way, and the next run asks the server.
        try? journal.append(
          JournalEntry(.failed, runID: run, assetIDs: ids, step: step, message: error.message))
        for unit in batch { emitUnit(unit, "failed", run, emit, error.message) }
        skip(batches[(index + 1)...], run, emit, "not attempted: \(step) failed")
        break
      }
    }
    return sending
  }

  /// Tags one batch (upserting the run's tag first, once), journals it and the intent to trash
  /// it, and sends its `DELETE`. `step` says how far it got, for the journal's `failed` entry.
  /// Returns the run's tag id.
  private func sendBatch(_ ids: [String], tagID: String?, runID: RunID, step: inout String)
    async throws(CairnError) -> String
  {
    let run = runID.description
    let tag: String
    if let tagID {
      tag = tagID
    } else {
      tag = try await server.upsertTag(RunTag(runID).value)
      try journal.append(JournalEntry(.tagged, runID: run, tagID: tag))
    }
    try await server.tagAssets(tagID: tag, assetIDs: ids)
    try journal.append(JournalEntry(.tagged, runID: run, tagID: tag, assetIDs: ids))
    // From here until an outcome is journalled, the DELETE may be in flight: a run that
    // dies now leaves its successor to wait for the server's answer (`RunRecovery`).
    try journal.append(JournalEntry(.sending, runID: run, tagID: tag, assetIDs: ids))
    step = TrashStep.trash
    do throws(TrashFailure) {
      try await server.trash(assetIDs: ids)
    } catch {
      if case .rejected = error { step = TrashStep.rejected }
      throw error.error
    }
    return tag
  }

  /// Reads back the batches sent (see `settle`); when that fails, they are emitted as failed
  /// and left in doubt for the next run. Returns the stills and videos trashed.
  private func readBackSent(
    _ sending: Sending, run: String, emit: (ResultRecord) -> Void, outcome: inout Outcome
  ) async -> (Int, Int) {
    guard let tag = sending.tagID, !sending.sent.isEmpty else { return (0, 0) }
    do throws(CairnError) {
      return try await settle(sending.sent, tagID: tag, run: run, emit: emit)
    } catch {
      if outcome.failure == nil { outcome.failure = error }
      // Nothing journalled for them: they stay in doubt, and the next run asks the server.
      for unit in sending.sent.joined() {
        emitUnit(unit, "failed", run, emit, "sent, but not read back: \(error.message)")
      }
      return (0, 0)
    }
  }

  private func skip(
    _ batches: ArraySlice<[TrashPlan.Unit]>, _ run: String, _ emit: (ResultRecord) -> Void,
    _ message: String
  ) {
    for unit in batches.joined() { emitUnit(unit, "skipped", run, emit, message) }
  }

  /// Reads back what the server did with the batches `sent`, journals it and emits a result
  /// per asset: `trashed` for what is in the trash; `failed` (step `verify`), with its tag
  /// removed, for what a 2xx answer left where it was. Returns the stills and videos trashed.
  func settle(
    _ sent: [[TrashPlan.Unit]], tagID: String, run: String, emit: (ResultRecord) -> Void
  ) async throws(CairnError) -> (Int, Int) {
    let ids = sent.joined().flatMap(\.ids)
    let moved = try await readBack(ids, tagID: tagID)
    // The server's clock now bounds when Immich marked them trashed: a later mark is someone
    // else's (they restored it and trashed it again). Without it, that is never told.
    let serverTime = await server.trashBound(of: ids.filter(moved.contains), taggedWith: tagID)
    for chunk in ids.filter(moved.contains).chunked(1000) {
      try journal.append(
        JournalEntry(.trashed, runID: run, tagID: tagID, assetIDs: chunk, serverTime: serverTime))
    }
    let stayed = ids.filter { !moved.contains($0) }
    for chunk in stayed.chunked(1000) {
      try journal.append(
        JournalEntry(
          .failed, runID: run, assetIDs: chunk, step: TrashStep.notMoved,
          message: Self.notMovedMessage))
      // Not in the trash, so not tagged either: the next run plans it afresh.
      try await server.untagAssets(tagID: tagID, assetIDs: chunk)
      try journal.append(JournalEntry(.untagged, runID: run, tagID: tagID, assetIDs: chunk))
    }
    var trashed = 0
    var videos = 0
    for unit in sent.joined() {
      if unit.ids.allSatisfy(moved.contains) {
        emitUnit(unit, "trashed", run, emit, nil)
        trashed += 1
        if unit.videoID != nil { videos += 1 }
      } else {
        emitUnit(unit, "failed", run, emit, Self.notMovedMessage)
      }
    }
    return (trashed, videos)
  }

  static let notMovedMessage =
    "the server answered the DELETE but did not move it to the trash (Immich #30237)"

  /// Which of `ids` the server now has in its trash. A DELETE answered 2xx is not proof
  /// (Immich #30237): the run's tag lists what it moved, and an id the listing lacks (its tag
  /// lost) is asked about on its own and, when trashed, tagged again.
  func readBack(_ ids: [String], tagID: String) async throws(CairnError) -> Set<String> {
    let wanted = Set(ids)
    var moved = Set(
      try await server.assets(taggedWith: tagID).filter { $0.isTrashed && wanted.contains($0.id) }
        .map(\.id))
    var retag: [String] = []
    for id in ids where !moved.contains(id) {
      if let asset = try await server.asset(id: id), asset.isTrashed {
        moved.insert(id)
        retag.append(id)
      }
    }
    if !retag.isEmpty { try await server.tagAssets(tagID: tagID, assetIDs: retag) }
    return moved
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
