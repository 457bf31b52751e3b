import CairnImmich
import CairnMarks
import CairnRecords
import CairnRuns
import CairnSafety
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// What `cairn-trash` does with one plan.
struct Trash {
  var input: RecordInput
  var dryRun: Bool
  var yes: Bool
  var batchSize: Int

  func run() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let plan = try readPlan()
    clock.lap("read plan", "\(plan.candidates.count) candidates, digest checked")

    let configuration = try Configuration.load()
    let connection = try await connect(for: plan, configuration)
    let state = try PartitionAccess.lock(connection.partition, configuration)
    defer { state.store.close() }
    let items = try await check(plan, state, configuration, connection.runServer)
    clock.lap("check plan", "\(items.count) items checked against the state")
    let trashDays = try await checkTrashIsOn(connection.runServer)
    clock.lap(
      "server checks", "trash on, kept \(trashDays.map { "\($0) days" } ?? "as configured")")

    let journal = Journal(path: Journal.path(configuration.paths, connection.partition))
    var history = try journal.read().runs
    // The journal and the state both remember a reviewed dry run; either will do.
    let firstRun =
      !state.dryRunReviewed && !history.contains { $0.reviewedOnly && $0.plan != nil }
      && !history.contains { $0.startedAt != nil }
    let isDry = dryRun || firstRun
    if try await settleInterrupted(history, dry: isDry, journal, connection, configuration) {
      history = try journal.read().runs
    }
    let trashPlan = try await screen(items, history: history, state, connection)
    clock.lap("plan", "\(trashPlan.units.count) to trash, \(trashPlan.skipped.count) skipped")

    let runID = RunID.next(after: history.compactMap { RunID($0.runID) })
    let writer = startOutput(plan, trashPlan, runID: isDry ? nil : runID)
    let putBack = try await PutBack(
      server: connection.runServer, userID: connection.identity.userId, journal: journal,
      state: state
    ).run(PutBack.split(plan.candidates).restore, history: history, dryRun: isDry, writer: writer)
    if try ReviewInImmich.isOn(configuration) {
      try await ReviewMarking(server: connection.runServer, state: state).run(dryRun: isDry)
      clock.lap("review marks", isDry ? "dry run: none sent" : "set")
    }

    if isDry || trashPlan.units.isEmpty {
      try finishWithoutTrashing(
        trashPlan, plan: plan, firstRun: firstRun, isDry: isDry, runID: runID, putBack: putBack,
        journal: journal, state: state, writer: writer)
      return .success
    }
    if !yes { try confirm(trashPlan, runID: runID) }
    let outcome = await execute(
      trashPlan, plan: plan, runID: runID, putBack: putBack, server: connection.runServer,
      journal: journal, writer: writer)
    clock.lap("trash", "\(outcome.counts["trashed"] ?? 0) trashed")
    return Self.report(outcome, runID: runID)
  }

  /// The plan as read from the input, with the stream's rails and its digest checked: nothing
  /// has talked to the server yet.
  struct PlanInput {
    let header: HeaderRecord
    let end: EndRecord?
    let errorRecords: Int
    let candidates: [CandidateRecord]
    let digest: String
    let server: ServerIdentity
    /// When the stream is a filtered part of a plan: the digest of the whole plan its end
    /// record names (`digest` is then the part's).
    let partOf: String?
  }

  private func readPlan() throws(CairnError) -> PlanInput {
    // A part of the plan (jq between cairn-gate and cairn-trash) can only trash less; what
    // part of which plan is checked against the state (`PlanVerification`).
    let stream = try RecordStream(
      reader: try input.reader(), countRule: .subset(of: [CandidateRecord.recordType]))
    var candidates: [CandidateRecord] = []
    while let line = try stream.next() {
      guard line.type == CandidateRecord.recordType else { continue }
      candidates.append(try stream.decode(CandidateRecord.self, line))
    }
    let inputs = SafetyRails.Inputs(
      header: stream.header, end: stream.end, errorRecords: stream.errors.count, planned: 0,
      planDigest: "")
    if let refusal = SafetyRails.stream(inputs) ?? SafetyRails.roots(inputs) {
      throw refusal.error
    }
    let digest = PlanDigest.of(candidates)
    let part = stream.filteredOut[CandidateRecord.recordType] != nil
    // A whole plan must be the one its end record names; a part is checked item by item.
    if !part, let refusal = SafetyRails.planDigest(stated: stream.end?.plan, computed: digest) {
      throw refusal.error
    }
    guard let server = stream.header.server else {
      throw CairnError(
        .malformedInput, "the plan names no Immich server (feed cairn-trash cairn-gate's output)",
        at: stream.reader.sourceName)
    }
    return PlanInput(
      header: stream.header, end: stream.end, errorRecords: stream.errors.count,
      candidates: candidates, digest: digest, server: server,
      partOf: part ? stream.end?.plan : nil)
  }

  /// Connects to the configured server, which must be the one the plan was made for.
  private func connect(for plan: PlanInput, _ configuration: Configuration)
    async throws(CairnError) -> ServerConnection
  {
    let connection = try await ServerConnection.open(configuration)
    guard connection.partition == plan.server.partition else {
      throw SafetyRails.Refusal(
        .planMismatch,
        "the plan was made for \(plan.server.partition), but the configuration points at "
          + "\(connection.partition)", "rerun the pipeline against this server and user"
      ).error
    }
    return connection
  }

  /// Checks everything the plan claims against the state before anything changes, and each
  /// item at the point of action. Returns the items, their motion videos as the server links
  /// them.
  private func check(
    _ plan: PlanInput, _ state: PartitionAccess, _ configuration: Configuration,
    _ server: ImmichRunServer
  ) async throws(CairnError) -> [CandidateRecord] {
    let verification = PlanVerification(state: state, configuration: configuration)
    try verification.verifyPlan(
      header: plan.header, end: plan.end, errorRecords: plan.errorRecords,
      candidates: plan.candidates, digest: plan.digest, partOf: plan.partOf)
    return try await verification.checkItems(
      PlanVerification.trashItems(plan.candidates), server: server)
  }

  /// The trash rail: the server's trash must be on and keep what it holds. Returns how many
  /// days it keeps it, when the server says.
  private func checkTrashIsOn(_ server: ImmichRunServer) async throws(CairnError) -> Int? {
    let settings = try await server.trashSettings()
    if let refusal = SafetyRails.trash(enabled: settings.enabled, days: settings.days) {
      throw refusal.error
    }
    return settings.days
  }

  /// Settles the runs an interruption left unfinished, before a real run starts anew; a dry
  /// run only warns. Returns whether the journal changed.
  private func settleInterrupted(
    _ history: [RunHistory], dry: Bool, _ journal: Journal, _ connection: ServerConnection,
    _ configuration: Configuration
  ) async throws(CairnError) -> Bool {
    let unfinished = history.filter(\.isUnfinished)
    guard !unfinished.isEmpty else { return false }
    if dry {
      Diagnostics.warning(
        "run \(unfinished[0].runID) was interrupted; the next real run settles it first")
      return false
    }
    Diagnostics.info(
      "settling interrupted run(s) \(unfinished.map(\.runID).joined(separator: ", ")): "
        + "keeping what the server trashed, untagging the rest")
    let recovery = RunRecovery(
      server: connection.runServer, journal: journal,
      inFlightWait: try Self.inFlightWait(configuration))
    for settled in try await recovery.settle(unfinished) {
      Diagnostics.info(
        "run \(settled.runID): \(settled.adopted.count + settled.confirmedTrashed.count) "
          + "found in the trash, \(settled.untagged.count) untagged")
    }
    return true
  }

  /// What may be trashed of the checked items: owned by the user and not locked (asked of the
  /// server where the stream did not say), not excluded, not already in the trash, and a
  /// motion video only when its bytes are not in the library.
  private func screen(
    _ items: [CandidateRecord], history: [RunHistory], _ state: PartitionAccess,
    _ connection: ServerConnection
  ) async throws(CairnError) -> TrashPlan {
    let screened = try await connection.runServer.completeOwnership(items)
    let runs = try await state.readRuns(
      history,
      about: Set(screened.flatMap { [$0.assetId] + ($0.livePhotoVideoId.map { [$0] } ?? []) }),
      on: connection.runServer)
    // A motion video whose bytes the library holds now (or may: a snapshot that can't be read)
    // stays, whatever the stream says.
    let videos = try state.store.presence(of: Set(screened.compactMap(\.livePhotoVideoChecksum)))
    // Someone restored these in Immich after a cairn run trashed them, and their files have
    // not come back since: they want them on the server.
    let kept = screened.filter { runs.keptOnServer.contains($0.checksum) }
    // Which proposed motion videos go only with their still: the state's word, not the stream's.
    let livePhotos = ScanBinding.livePhotos(among: try state.store.binding.proposals())
    var plan = TrashPlan(
      candidates: screened.filter { !runs.keptOnServer.contains($0.checksum) },
      userID: connection.identity.userId, inTrash: runs.inCairnTrash,
      excluded: state.exclusions, inLibrary: { !videos.isAbsent($0) },
      stillOf: livePhotos.stillsOfVideos)
    plan.skipped += kept.map {
      (
        $0,
        "restored in Immich by someone after a cairn run trashed it; kept while its file is gone"
      )
    }
    for (candidate, reason) in plan.skipped {
      Diagnostics.warning("\(candidate.originalFileName ?? candidate.assetId): skipped: \(reason)")
    }
    return plan
  }

  /// Starts the output: the header (with the run id of a real run) and a result for each
  /// skipped item.
  private func startOutput(_ plan: PlanInput, _ trashPlan: TrashPlan, runID: RunID?)
    -> RecordWriter
  {
    let writer = RecordWriter()
    // A closed downstream must not stop a run before its journal is complete.
    writer.onDownstreamClosed = .discard
    let header = plan.header
    writer.write(
      HeaderRecord(
        tool: CairnTrash.toolName, pipeline: header.pipeline, roots: header.roots,
        server: header.server, runId: runID?.description, dryRun: runID == nil,
        scan: header.scan))
    for (candidate, reason) in trashPlan.skipped {
      writer.write(
        ResultRecord(
          assetId: candidate.assetId.lowercased(), action: "skipped", checksum: candidate.checksum,
          originalFileName: candidate.originalFileName, message: reason))
    }
    return writer
  }

  /// A dry run, or nothing to trash: says what would be trashed, and remembers a reviewed dry
  /// run so that the next run may be a real one.
  private func finishWithoutTrashing(
    _ trashPlan: TrashPlan, plan: PlanInput, firstRun: Bool, isDry: Bool, runID: RunID,
    putBack: [String: Int], journal: Journal, state: PartitionAccess, writer: RecordWriter
  ) throws(CairnError) {
    for unit in trashPlan.units { writeUnit(unit, "would-trash", nil, writer) }
    if firstRun && !trashPlan.units.isEmpty {
      Diagnostics.info(
        "first run on this partition: a dry run whatever the flags; \(trashPlan.assetCount) "
          + "asset(s) would be trashed. Review them, then run again to trash them.")
    } else if isDry {
      Diagnostics.info(
        "dry run: \(trashPlan.assetCount) asset(s) would be trashed; nothing changed")
    }
    if isDry && !trashPlan.units.isEmpty {
      try journal.append(JournalEntry(.reviewed, runID: runID.description, plan: plan.digest))
      try state.recordDryRunReviewed()
    }
    writer.write(
      EndRecord(
        tool: CairnTrash.toolName, complete: true,
        counts: [
          "wouldTrash": trashPlan.units.count, "skipped": trashPlan.skipped.count,
          "livePhotoVideos": trashPlan.units.filter { $0.videoID != nil }.count,
        ].merging(putBack) { $1 },
        plan: plan.digest))
    writer.flush()
  }

  /// The confirmation rail: a person says yes on the terminal (or passed `--yes`).
  private func confirm(_ trashPlan: TrashPlan, runID: RunID) throws(CairnError) {
    guard let terminal = Terminal.open() else {
      throw CairnError.refused(
        "refused by the confirmation rail: no terminal to confirm on; "
          + "pass --yes to trash without asking")
    }
    let question =
      "\(CairnTrash.toolName): move \(trashPlan.units.count) asset(s) "
      + "(\(trashPlan.assetCount) with motion videos) to Immich's trash as run \(runID)?"
    guard terminal.confirm(question) else {
      throw CairnError.refused("not confirmed; nothing was trashed")
    }
  }

  /// Trashes the plan batch by batch (see `TrashRun`), writing a result per asset and the end
  /// record; SIGINT stops it after the batch in flight.
  private func execute(
    _ trashPlan: TrashPlan, plan: PlanInput, runID: RunID, putBack: [String: Int],
    server: ImmichRunServer, journal: Journal, writer: RecordWriter
  ) async -> Outcome {
    let interruption = Interruption()
    var failures = 0
    // Counted once: the plan's size is asked for with every result, and counting it each time
    // made a run grow with the square of its plan.
    let total = trashPlan.assetCount
    let run = await TrashRun(server: server, journal: journal, batchSize: batchSize).execute(
      trashPlan, planDigest: plan.digest, runID: runID,
      emit: { result in
        if result.action == "failed" { failures += 1 }
        ProgressLine.standardError.advance("assets", of: total)
        writer.write(result)
      }, shouldStop: { interruption.isRaised })
    var counts = run.counts
    counts["skipped"] = trashPlan.skipped.count
    counts["failed"] = failures
    counts.merge(putBack) { $1 }
    writer.write(
      EndRecord(
        tool: CairnTrash.toolName, complete: run.complete, errors: failures, counts: counts,
        plan: plan.digest, runId: runID.description))
    writer.flush()
    return Outcome(run: run, counts: counts, failures: failures)
  }

  /// What a real run did, for its last words and exit status.
  struct Outcome {
    let run: TrashRun.Outcome
    let counts: [String: Int]
    let failures: Int
  }

  private static func report(_ outcome: Outcome, runID: RunID) -> ExitStatus {
    if let failure = outcome.run.failure {
      Diagnostics.error(
        "run \(runID) stopped: \(failure.message); rerun to finish it (the journal knows where "
          + "it stopped)")
      return failure.status
    }
    if outcome.run.interrupted {
      Diagnostics.info("interrupted: run \(runID) stopped after the batch in flight")
      return .interrupted
    }
    if outcome.failures > 0 {
      Diagnostics.error(
        "run \(runID): \(outcome.failures) asset(s) not moved to the trash (see the failed "
          + "results); the next run plans them again")
      return .partial
    }
    Diagnostics.info(
      "run \(runID): \(outcome.counts["trashed"] ?? 0) asset(s) and "
        + "\(outcome.counts["livePhotoVideos"] ?? 0) motion video(s) moved to the trash; undo "
        + "with: cairn-restore --run-id \(runID)")
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
    TimeInterval(try SettingsTable.settleWait.value(in: configuration))
  }
}
