import CairnMarks
import CairnRecords
import CairnSafety
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// What `cairn-gate` does with one stream.
struct Gate {
  var input: RecordInput
  var decisions: GateDecisions
  var overrideDigest: String?
  /// `--threshold`, `--floor`: the threshold rail for this run, over the configuration's.
  var rails = RailOptions()
  var listAll: Bool
  /// `--plan`: act only on the stream whose plan has this digest (see `PlanBinding`).
  var expectedPlan: String? = nil
  /// `--review FILE`: the review page to write before the rails act.
  var review: ReviewWriter? = nil

  func run() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let read = try read()
    clock.lap("read", "\(read.candidates.count) candidates")
    let configuration = try Configuration.load()
    // An invalid setting or flag stops the run before any decision is stored.
    let railSettings = try rails.resolve(configuration)
    let state = try GateStateStore.open(
      partition: read.server.partition, configuration: configuration)
    let stream: Stream
    let passed: Passed
    do throws(CairnError) {
      stream = try read.keepingSightingsPending(try state.store.binding.proposals())
      // Bound to one plan: checked before any decision is stored.
      let binding = PlanBinding(stream.candidates, state: state)
      try binding.check(expectedPlan)
      let resolved = try record(decisions.resolve(stream.candidates), stream.candidates, state)
      if try ReviewInImmich.isOn(configuration) {
        try await ImmichDecisions(
          state: state, partition: stream.server.partition, candidates: stream.candidates
        ).read(configuration)
      }
      try binding.recordShape(expectedPlan)
      clock.lap(
        "decisions", "\(resolved.exclusions.count) excluded, \(resolved.approvals.count) approved")
      passed = try await checkRails(stream, state, configuration, railSettings, binding)
    } catch {
      state.close()
      clock.lap("rails", error.status == .refused ? "refused" : "failed")
      throw error
    }
    state.close()
    clock.lap("rails", "\(passed.plan.toTrash.count) to trash")
    write(passed, stream)
    clock.lap("emit", "\(passed.plan.toTrash.count) candidates")
    return .success
  }

  /// The stream as read: its candidates, and the other records to pass on as they came.
  struct Stream {
    let header: HeaderRecord
    let end: EndRecord?
    let errorRecords: Int
    let candidates: [CandidateRecord]
    let passThrough: [InputLine]
    let server: ServerIdentity
  }

  private func read() throws(CairnError) -> Stream {
    let reader = try input.reader()
    // A filtered candidate stream (jq between the stages) can only make a smaller plan.
    let stream = try RecordStream(
      reader: reader, countRule: .subset(of: [CandidateRecord.recordType]))
    var candidates: [CandidateRecord] = []
    var passThrough: [InputLine] = []
    while let line = try stream.next() {
      switch line.type {
      case CandidateRecord.recordType:
        candidates.append(try stream.decode(CandidateRecord.self, line))
      case ErrorRecord.recordType:
        // Counted by the stream; an error-carrying stream is refused by the rails.
        continue
      default:
        passThrough.append(line)
      }
    }
    guard let server = stream.header.server else {
      throw CairnError(
        .malformedInput,
        "the stream names no Immich server (feed cairn-gate cairn-reconcile's output)",
        at: reader.sourceName)
    }
    return Stream(
      header: stream.header, end: stream.end, errorRecords: stream.errors.count,
      candidates: candidates, passThrough: passThrough, server: server)
  }

  /// Stores the person's decisions first: what a person says holds even if a rail refuses
  /// this run.
  private func record(
    _ resolved: GateDecisions.Resolved, _ candidates: [CandidateRecord], _ state: GateStateStore
  ) throws(CairnError) -> GateDecisions.Resolved {
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
        wanted.contains($0.checksum) && [.pending, .held, .kept].contains($0.bucket)
      }
      try state.approve(approved, plan: PlanDigest.of(candidates))
      Diagnostics.info("approved \(approved.count) candidate(s)")
    }
    return resolved
  }

  /// A plan the rails passed, and what they compared.
  struct Passed {
    let plan: GatePlan
    let inputs: SafetyRails.Inputs
  }

  /// Previews the plan and runs the rails over it; a plan they pass is recorded for
  /// cairn-trash, which acts only on the plan passed here, with the override accepted here.
  private func checkRails(
    _ stream: Stream, _ state: GateStateStore, _ configuration: Configuration,
    _ railSettings: SafetyRails.Settings, _ binding: PlanBinding
  ) async throws(CairnError) -> Passed {
    let plan = GatePlan(
      candidates: stream.candidates, exclusions: try state.exclusions(),
      approvals: try state.approvals())
    let overrideDigest = try override(for: plan, binding)
    // The numbers the rails compare are the ones cairn-reconcile recorded for this scan, not
    // the ones the stream claims.
    let reconciled = try state.reconciled()
    let inputs = SafetyRails.Inputs(
      header: stream.header, end: stream.end, errorRecords: stream.errorRecords,
      planned: plan.toTrash.count, matched: reconciled?.matched,
      serverAssets: reconciled?.serverAssets, lastMatched: try state.lastMatched(),
      settings: railSettings, planDigest: plan.digest, overrideDigest: overrideDigest)
    if Diagnostics.verbosity > .quiet {
      for line in GatePreview.lines(plan, limit: listAll ? Int.max : 20) {
        Diagnostics.writeStderr(line + "\n")
      }
    }
    let refusal = try scanRefusal(stream.header, reconciled, state) ?? SafetyRails.check(inputs)
    // The page is written whether or not the rails pass: a refused plan is the one to look at.
    try await review?.write(
      ReviewWriter.Plan(
        plan: plan, candidates: stream.candidates, header: stream.header,
        refusal: refusal?.description, overThreshold: refusal?.rail == .threshold,
        earlierExclusions: review == nil
          ? [] : try state.earlierExclusions(besides: Set(stream.candidates.map(\.checksum)))),
      configuration)
    if let refusal { throw refusal.error }
    if let matched = inputs.matched, matched > 0 { try state.setLastMatched(matched) }
    try state.recordPass(
      ScanBinding.GatePass(
        scan: reconciled?.scan ?? "", plan: plan.digest,
        overrideDigest: overrideDigest == plan.digest ? overrideDigest : nil,
        rails: rails.overrides ? railSettings : nil),
      members: plan.toTrash + plan.toRestore)
    if overrideDigest != nil && plan.toTrash.count >= inputs.settings.floor {
      Diagnostics.info("threshold overridden for plan \(plan.digest)")
    }
    return Passed(plan: plan, inputs: inputs)
  }

  /// `--override-threshold` names the plan the threshold refusal printed, or the plan a review
  /// page showed (the page's command carries the digest it shows): either way the person
  /// approved this plan, shaped by the decisions they made on that page. It is recorded under
  /// the plan's own digest, the one `cairn-trash` re-runs the threshold rail with.
  private func override(for plan: GatePlan, _ binding: PlanBinding) throws(CairnError)
    -> String?
  {
    guard let overrideDigest else { return nil }
    if overrideDigest != plan.digest, try binding.names(overrideDigest) { return plan.digest }
    return overrideDigest
  }

  /// The header, the candidates to trash and to restore, the records passed through, and an
  /// end record with the plan's digest.
  private func write(_ passed: Passed, _ stream: Stream) {
    let plan = passed.plan
    let writer = RecordWriter()
    let header = stream.header
    writer.write(
      HeaderRecord(
        tool: CairnGate.toolName, pipeline: header.pipeline, roots: header.roots,
        server: header.server, runId: header.runId, dryRun: header.dryRun, scan: header.scan))
    for candidate in plan.toTrash { writer.write(candidate) }
    for candidate in plan.toRestore { writer.write(candidate) }
    for line in stream.passThrough { writer.writeLine(line.bytes, type: line.type) }
    var counts = plan.counts
    if let matched = passed.inputs.matched { counts[SafetyRails.CountKey.matched] = matched }
    if let listed = passed.inputs.serverAssets {
      counts[SafetyRails.CountKey.serverAssets] = listed
    }
    writer.write(
      EndRecord(
        tool: CairnGate.toolName, complete: true, errors: 0, counts: counts,
        roots: stream.end?.roots ?? [], plan: plan.digest))
    writer.flush()
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
