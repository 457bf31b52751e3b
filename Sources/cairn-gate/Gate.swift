import CairnCore
import CairnState
import Foundation

/// What `cairn-gate` does with one stream.
struct Gate {
  var decisions: GateDecisions
  var overrideDigest: String?
  var listAll: Bool
  /// `--plan`: act only on the stream whose plan has this digest (see `PlanBinding`).
  var expectedPlan: String? = nil
  /// `--review FILE`: the review page to write before the rails act.
  var review: ReviewWriter? = nil

  func run() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let reader = RecordReader()
    let stream = try RecordStream(reader: reader)
    var candidates: [CandidateRecord] = []
    var passThrough: [InputLine] = []
    while let line = try stream.next() {
      switch line.type {
      case CandidateRecord.recordType:
        candidates.append(try stream.decode(CandidateRecord.self, line))
      case ErrorRecord.recordType:
        // Counted by the stream; an error-carrying stream is refused below.
        continue
      default:
        passThrough.append(line)
      }
    }
    clock.lap("read", "\(candidates.count) candidates")
    guard let server = stream.header.server else {
      throw CairnError(
        .malformedInput,
        "the stream names no Immich server (feed cairn-gate cairn-reconcile's output)",
        at: reader.sourceName)
    }
    try PlanBinding.check(expectedPlan, candidates)
    let configuration = try Configuration.load()
    let state = try GateStateStore.open(
      partition: server.partition, configuration: configuration)

    // Decisions first: what a person says holds even if a rail refuses this run.
    let resolved = decisions.resolve(candidates)
    for argument in resolved.unmatched {
      Diagnostics.warning("'\(argument)' matches no candidate in this stream and is not a checksum")
    }
    if !resolved.exclusions.isEmpty {
      try state.exclude(resolved.exclusions)
      Diagnostics.info("excluded \(resolved.exclusions.count) checksum(s) for good")
    }
    if !resolved.approvals.isEmpty {
      let wanted = Set(resolved.approvals)
      let approved = candidates.filter {
        wanted.contains($0.checksum) && ($0.bucket == .pending || $0.bucket == .held)
      }
      try state.approve(approved, plan: PlanDigest.of(candidates))
      Diagnostics.info("approved \(approved.count) candidate(s)")
    }

    clock.lap(
      "decisions", "\(resolved.exclusions.count) excluded, \(resolved.approvals.count) approved")

    let plan = GatePlan(
      candidates: candidates, exclusions: try state.exclusions(), approvals: try state.approvals())
    // The numbers the rails compare are the ones cairn-reconcile recorded for this scan, not
    // the ones the stream claims.
    let reconciled = try state.reconciled()
    let inputs = SafetyRails.Inputs(
      header: stream.header, end: stream.end, errorRecords: stream.errors.count,
      planned: plan.toTrash.count, matched: reconciled?.matched,
      serverAssets: reconciled?.serverAssets, lastMatched: try state.lastMatched(),
      settings: try state.railSettings(), planDigest: plan.digest, overrideDigest: overrideDigest)

    if Diagnostics.verbosity > .quiet {
      for line in GatePreview.lines(plan, limit: listAll ? Int.max : 20) {
        Diagnostics.writeStderr(line + "\n")
      }
    }
    let refusal = try scanRefusal(stream.header, reconciled, state) ?? SafetyRails.check(inputs)
    try await review?.write(
      ReviewWriter.Plan(
        plan: plan, candidates: candidates, header: stream.header, refusal: refusal?.description),
      configuration)
    if let refusal {
      state.close()
      clock.lap("rails", "refused")
      throw refusal.error
    }
    clock.lap("rails", "\(plan.toTrash.count) to trash")
    if let matched = inputs.matched, matched > 0 { try state.setLastMatched(matched) }
    // cairn-trash acts only on the plan passed here, with the override accepted here.
    try state.recordPass(
      ScanBinding.GatePass(
        scan: reconciled?.scan ?? "", plan: plan.digest,
        overrideDigest: overrideDigest == plan.digest ? overrideDigest : nil))
    state.close()
    if overrideDigest != nil && plan.toTrash.count >= inputs.settings.floor {
      Diagnostics.info("threshold overridden for plan \(plan.digest)")
    }

    let writer = RecordWriter()
    let header = stream.header
    writer.write(
      HeaderRecord(
        tool: "cairn-gate", pipeline: header.pipeline, roots: header.roots, server: header.server,
        runId: header.runId, dryRun: header.dryRun, scan: header.scan))
    for candidate in plan.toTrash { writer.write(candidate) }
    for candidate in plan.toRestore { writer.write(candidate) }
    for line in passThrough { writer.writeLine(line.bytes, type: line.type) }
    var counts = plan.counts
    if let matched = inputs.matched { counts[SafetyRails.CountKey.matched] = matched }
    if let listed = inputs.serverAssets { counts[SafetyRails.CountKey.serverAssets] = listed }
    writer.write(
      EndRecord(
        tool: "cairn-gate", complete: true, errors: 0, counts: counts,
        roots: stream.end?.roots ?? [], plan: plan.digest))
    writer.flush()
    clock.lap("emit", "\(plan.toTrash.count) candidates")
    return .success
  }

  /// The scan rail: the stream must come from the latest recorded scan, which cairn-reconcile
  /// must have recorded its candidates for.
  private func scanRefusal(
    _ header: HeaderRecord, _ reconciled: ScanBinding.Reconciled?, _ state: GateStateStore
  ) throws(CairnError) -> SafetyRails.Refusal? {
    if let refusal = SafetyRails.scanBinding(stated: header.scan, latest: try state.latestScan()) {
      return refusal
    }
    guard reconciled != nil else {
      return SafetyRails.Refusal(
        .scan, "no cairn-reconcile run is recorded for scan \(header.scan ?? "")",
        "rerun the whole pipeline")
    }
    return nil
  }
}
