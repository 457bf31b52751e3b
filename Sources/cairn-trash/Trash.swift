import CairnCore
import CairnImmich
import CairnState
import Foundation

/// What `cairn-trash` does with one plan.
struct Trash {
  var dryRun: Bool
  var yes: Bool
  var batchSize: Int

  func run() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    // The plan, checked before anything talks to the server.
    let stream = try RecordStream(reader: RecordReader())
    var candidates: [CandidateRecord] = []
    while let line = try stream.next() {
      guard line.type == CandidateRecord.recordType else { continue }
      candidates.append(try stream.decode(CandidateRecord.self, line))
    }
    let header = stream.header
    let inputs = SafetyRails.Inputs(
      header: header, end: stream.end, errorRecords: stream.errors.count, planned: 0,
      planDigest: "")
    if let refusal = SafetyRails.stream(inputs) ?? SafetyRails.roots(inputs) {
      throw refusal.error
    }
    let digest = PlanDigest.of(candidates)
    if let refusal = SafetyRails.planDigest(stated: stream.end?.plan, computed: digest) {
      throw refusal.error
    }
    guard let identity = header.server else {
      throw CairnError(
        .malformedInput, "the plan names no Immich server (feed cairn-trash cairn-gate's output)",
        at: "<stdin>")
    }
    clock.lap("read plan", "\(candidates.count) candidates, digest checked")

    let configuration = try Configuration.load()
    let connection = try await ServerConnection.open(configuration)
    guard connection.partition == identity.partition else {
      throw SafetyRails.Refusal(
        .planMismatch,
        "the plan was made for \(identity.partition), but the configuration points at "
          + "\(connection.partition)", "rerun the pipeline against this server and user"
      ).error
    }
    let state = try PartitionAccess.lock(connection.partition, configuration)
    defer { state.store.close() }
    // Everything the plan claims is checked against the state before anything changes.
    let verification = PlanVerification(state: state, configuration: configuration)
    try verification.verifyPlan(
      header: header, end: stream.end, errorRecords: stream.errors.count,
      candidates: candidates, digest: digest)
    let items = try await verification.checkItems(
      PlanVerification.trashItems(candidates), server: connection.runServer)
    clock.lap("check plan", "\(items.count) items checked against the state")

    let trashSettings: TrashSettings
    do { trashSettings = try await connection.runServer.trashSettings() } catch {
      throw asCairnError(error, .serverFailure)
    }
    if let refusal = SafetyRails.trash(enabled: trashSettings.enabled, days: trashSettings.days) {
      throw refusal.error
    }
    clock.lap(
      "server checks",
      "trash on, kept \(trashSettings.days.map { "\($0) days" } ?? "as configured")")

    let journal = Journal(path: Journal.path(configuration.paths, connection.partition))
    var history = try journal.read().runs
    // The journal and the state both remember a reviewed dry run; either will do.
    let firstRun =
      !state.dryRunReviewed && !history.contains { $0.reviewedOnly && $0.plan != nil }
      && !history.contains { $0.startedAt != nil }
    let isDry = dryRun || firstRun

    let unfinished = history.filter(\.isUnfinished)
    if !unfinished.isEmpty {
      if isDry {
        Diagnostics.warning(
          "run \(unfinished[0].runID) was interrupted; the next real run settles it first")
      } else {
        Diagnostics.info(
          "settling interrupted run(s) \(unfinished.map(\.runID).joined(separator: ", ")): "
            + "keeping what the server trashed, untagging the rest")
        do {
          for settled in try await RunRecovery(
            server: connection.runServer, journal: journal,
            inFlightWait: try Self.inFlightWait(configuration)
          )
          .settle(unfinished) {
            Diagnostics.info(
              "run \(settled.runID): \(settled.adopted.count + settled.confirmedTrashed.count) "
                + "found in the trash, \(settled.untagged.count) untagged")
          }
        } catch {
          throw asCairnError(error, .serverFailure)
        }
        history = try journal.read().runs
      }
    }

    var inTrash: [String: String] = [:]
    for run in history { for id in run.inTrash { inTrash[id] = run.runID } }
    let toRestore = PutBack.split(candidates).restore
    let screened: [CandidateRecord]
    do { screened = try await connection.runServer.completeOwnership(items) } catch {
      throw asCairnError(error, .serverFailure)
    }
    // A motion video whose bytes the library holds now (or may: a snapshot that can't be read)
    // stays, whatever the stream says.
    let videos = try state.store.presence(of: Set(screened.compactMap(\.livePhotoVideoChecksum)))
    let plan = TrashPlan(
      candidates: screened, userID: connection.identity.userId, inTrash: inTrash,
      excluded: state.exclusions, inLibrary: { !videos.isAbsent($0) })
    for (candidate, reason) in plan.skipped {
      Diagnostics.warning("\(candidate.originalFileName ?? candidate.assetId): skipped: \(reason)")
    }
    clock.lap("plan", "\(plan.units.count) to trash, \(plan.skipped.count) skipped")

    let runID = RunID.next(after: history.compactMap { RunID($0.runID) })
    let writer = RecordWriter()
    // A closed downstream must not stop a run before its journal is complete.
    writer.onDownstreamClosed = .discard
    writer.write(
      HeaderRecord(
        tool: "cairn-trash", pipeline: header.pipeline, roots: header.roots, server: header.server,
        runId: isDry ? nil : runID.description, dryRun: isDry, scan: header.scan))
    for (candidate, reason) in plan.skipped {
      writer.write(
        ResultRecord(
          assetId: candidate.assetId.lowercased(), action: "skipped", checksum: candidate.checksum,
          originalFileName: candidate.originalFileName, message: reason))
    }

    let putBack = try await PutBack(
      server: connection.runServer, userID: connection.identity.userId, journal: journal,
      state: state
    ).run(toRestore, history: history, dryRun: isDry, writer: writer)

    if isDry || plan.units.isEmpty {
      for unit in plan.units { writeUnit(unit, "would-trash", nil, writer) }
      if firstRun && !plan.units.isEmpty {
        Diagnostics.info(
          "first run on this partition: a dry run whatever the flags; \(plan.assetCount) "
            + "asset(s) would be trashed. Review them, then run again to trash them.")
      } else if isDry {
        Diagnostics.info("dry run: \(plan.assetCount) asset(s) would be trashed; nothing changed")
      }
      if isDry && !plan.units.isEmpty {
        try journal.append(JournalEntry(.reviewed, runID: runID.description, plan: digest))
        try state.recordDryRunReviewed()
      }
      writer.write(
        EndRecord(
          tool: "cairn-trash", complete: true,
          counts: [
            "wouldTrash": plan.units.count, "skipped": plan.skipped.count,
            "livePhotoVideos": plan.units.filter { $0.videoID != nil }.count,
          ].merging(putBack) { $1 },
          plan: digest))
      writer.flush()
      return .success
    }

    if !yes {
      let question =
        "cairn-trash: move \(plan.units.count) asset(s) (\(plan.assetCount) with motion videos) "
        + "to Immich's trash as run \(runID)?"
      switch Confirmation.ask(question) {
      case nil:
        throw CairnError.refused(
          "refused by the confirmation rail: no terminal to confirm on; "
            + "pass --yes to trash without asking")
      case false?:
        throw CairnError.refused("not confirmed; nothing was trashed")
      case true?:
        break
      }
    }

    let interruption = Interruption()
    var failures = 0
    let outcome = await TrashRun(
      server: connection.runServer, journal: journal, batchSize: batchSize
    )
    .execute(
      plan, planDigest: digest, runID: runID,
      emit: { result in
        if result.action == "failed" { failures += 1 }
        ProgressLine.standardError.advance("assets", of: plan.assetCount)
        writer.write(result)
      }, shouldStop: { interruption.isRaised })
    clock.lap("trash", "\(outcome.counts["trashed"] ?? 0) trashed")
    var counts = outcome.counts
    counts["skipped"] = plan.skipped.count
    counts["failed"] = failures
    counts.merge(putBack) { $1 }
    writer.write(
      EndRecord(
        tool: "cairn-trash", complete: outcome.complete, errors: failures, counts: counts,
        plan: digest, runId: runID.description))
    writer.flush()
    if let failure = outcome.failure {
      Diagnostics.error(
        "run \(runID) stopped: \(failure.message); rerun to finish it (the journal knows where "
          + "it stopped)")
      return failure.status
    }
    if outcome.interrupted {
      Diagnostics.info("interrupted: run \(runID) stopped after the batch in flight")
      return .interrupted
    }
    if failures > 0 {
      Diagnostics.error(
        "run \(runID): \(failures) asset(s) not moved to the trash (see the failed results); "
          + "the next run plans them again")
      return .partial
    }
    Diagnostics.info(
      "run \(runID): \(counts["trashed"] ?? 0) asset(s) and \(counts["livePhotoVideos"] ?? 0) "
        + "motion video(s) moved to the trash; undo with: cairn-restore --run-id \(runID)")
    return .success
  }

  private func writeUnit(
    _ unit: TrashPlan.Unit, _ action: String, _ runID: String?, _ writer: RecordWriter
  ) {
    writer.write(
      ResultRecord(
        assetId: unit.assetID, action: action, runId: runID, checksum: unit.candidate.checksum,
        originalFileName: unit.candidate.originalFileName))
    if let video = unit.videoID {
      writer.write(
        ResultRecord(
          assetId: video, action: action, runId: runID, livePhotoVideo: true,
          message: "motion video of \(unit.assetID)"))
    }
  }
}

extension Trash {
  /// How long recovery waits for the answer to an interrupted run's `DELETE`:
  /// `CAIRN_SETTLE_WAIT` seconds, by default the request timeout (`CAIRN_HTTP_TIMEOUT`) and 5 s,
  /// the longest the interrupted run itself would have waited.
  static func inFlightWait(_ configuration: Configuration) throws(CairnError) -> TimeInterval {
    let timeout = try configuration.integer("CAIRN_HTTP_TIMEOUT", in: 1...600, default: 30)
    return TimeInterval(
      try configuration.integer("CAIRN_SETTLE_WAIT", in: 0...3600, default: timeout + 5))
  }
}

func asCairnError(_ error: any Error, _ status: ExitStatus) -> CairnError {
  error as? CairnError ?? CairnError(status, "\(error)")
}
