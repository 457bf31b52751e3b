import CairnImmich
import CairnRecords
import CairnRuns
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// Brings back from Immich's trash what a person put back in the library after a cairn run
/// trashed it (the stream's `restore` candidates; see `PutBackPlan`). Each restore is read back
/// from the server (its answer counts the ids sent, not the assets restored) and journalled
/// under the run that trashed the asset. A dry run only says what it would restore.
struct PutBack {
  /// The candidates to trash and those to restore.
  static func split(_ candidates: [CandidateRecord]) -> (
    trash: [CandidateRecord], restore: [CandidateRecord]
  ) {
    (candidates.filter { $0.bucket != .restore }, candidates.filter { $0.bucket == .restore })
  }

  let server: ImmichRunServer
  let userID: String
  let journal: Journal
  let state: PartitionAccess

  /// Restores what may be restored now, writes a result per asset, and returns the counts
  /// for the end record. A failed request stops the run (the next run tries again).
  func run(
    _ candidates: [CandidateRecord], history: [RunHistory], dryRun: Bool, writer: RecordWriter
  ) async throws(CairnError) -> [String: Int] {
    guard !candidates.isEmpty else { return [:] }
    // Only what is still in cairn's trash is put back: an asset someone restored and trashed
    // again since is theirs.
    let runs = try await state.readRuns(
      history,
      about: Set(candidates.flatMap { [$0.assetId] + ($0.livePhotoVideoId.map { [$0] } ?? []) }),
      on: server)
    let inTrash = runs.inCairnTrash
    let presence = try state.store.presence(of: Set(candidates.map(\.checksum)))
    let journalled = RunHistory.inTrash(history)
    let theirs = candidates.filter {
      let id = $0.assetId.lowercased()
      return journalled[id] != nil && inTrash[id] == nil
    }
    let theirIDs = Set(theirs.map(\.assetId))
    var plan = PutBackPlan(
      candidates: candidates.filter { !theirIDs.contains($0.assetId) },
      userID: userID, inTrash: inTrash, inLibrary: presence.isPresent)
    plan.skipped += theirs.map {
      (
        $0,
        "restored by someone in Immich since a cairn run trashed it; no longer cairn's to restore"
      )
    }
    for (candidate, reason) in plan.skipped {
      Diagnostics.warning(
        "\(candidate.originalFileName ?? candidate.assetId): not restored: \(reason)")
      writer.write(
        ResultRecord(
          assetId: candidate.assetId.lowercased(), action: "skipped",
          checksum: candidate.checksum, originalFileName: candidate.originalFileName,
          message: reason))
    }
    let outcome = await RestoreRun(server: server, journal: journal).execute(
      plan.targets, dryRun: dryRun, emit: { writer.write($0) })
    if let failure = outcome.failure { throw failure }
    if !dryRun && !outcome.restored.isEmpty {
      Diagnostics.info(
        "restored \(outcome.restored.count) asset(s) put back in the library from the trash")
    }
    return dryRun
      ? ["wouldRestore": plan.targets.count, "restoreSkipped": plan.skipped.count]
      : [
        "restored": outcome.restored.count, "restoreFailed": outcome.failed.count,
        "restoreSkipped": plan.skipped.count,
      ]
  }
}
