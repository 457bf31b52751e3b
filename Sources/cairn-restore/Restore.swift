import CairnImmich
import CairnRecords
import CairnRuns
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// What `cairn-restore` does: find the assets, restore them, verify, journal, exclude.
struct Restore {
  var runIDs: [String]
  var assetIDs: [String]
  var fileNamePattern: String?
  var dryRun: Bool
  var input: RecordInput

  func run() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let wanted = try assetsNamed()

    let configuration = try Configuration.load()
    let connection = try await ServerConnection.open(configuration)
    clock.lap("connect", connection.identity.url)
    let state = try PartitionAccess.lock(connection.partition, configuration)
    defer { state.store.close() }
    let journal = Journal(path: Journal.path(configuration.paths, connection.partition))
    let history = try journal.read().runs.filter { !$0.reviewedOnly }

    let selected = try await select(wanted, history: history, server: connection.runServer)
    clock.lap("select", "\(selected.count) assets of cairn runs")
    let checked = try await check(selected, history: history, connection: connection, state)
    clock.lap(
      "check", "\(checked.targets.count) in cairn's trash, \(checked.purged.count) purged")

    let outcome = try await restore(
      checked, connection: connection, journal: journal, state: state)
    clock.lap(dryRun ? "plan" : "restore", "\(outcome.restored.count) restored and verified")
    let targets = checked.targets
    if targets.isEmpty && checked.purged.isEmpty {
      Diagnostics.info("nothing to restore: no selected asset is in cairn's trash")
    } else if dryRun {
      Diagnostics.info("dry run: \(targets.count) asset(s) would be restored")
    } else {
      Diagnostics.info(
        "restored \(outcome.restored.count) asset(s); their checksums are now excluded from "
          + "future runs")
    }
    for target in outcome.failed.prefix(20) {
      Diagnostics.warning(
        "\(target.originalFileName ?? target.id): not restored: "
          + (outcome.reasons[target.id] ?? "unknown"))
    }
    if outcome.failed.count > 20 {
      Diagnostics.warning("\(outcome.failed.count - 20) more not restored (see the results)")
    }
    if let failure = outcome.failure { throw failure }
    return outcome.failed.isEmpty ? .success : .partial
  }

  /// The assets named by id, and by the records read (a file named, or standard input when
  /// nothing else says what to restore), with the run each record says it came from.
  private func assetsNamed() throws(CairnError) -> (ids: [String], runHints: [String: String]) {
    var ids = assetIDs.map { $0.lowercased() }
    var runHints: [String: String] = [:]
    if input.isNamed || (runIDs.isEmpty && ids.isEmpty && fileNamePattern == nil) {
      let reader = try input.reader(
        whenTerminal:
          "say what to restore: --run-id, --asset-id, --file-name-matches, or records on stdin")
      for (id, run) in try readRecords(reader) {
        ids.append(id)
        if let run { runHints[id] = run }
      }
    }
    return (ids, runHints)
  }

  /// The assets of cairn runs that the selection names, as the journal (or the run tags) say.
  private func select(
    _ wanted: (ids: [String], runHints: [String: String]), history: [RunHistory],
    server: ImmichRunServer
  ) async throws(CairnError) -> [RestoreRun.Target] {
    var selector = RestoreSelector(history: history, server: server)
    for run in runIDs { try await selector.add(run: run) }
    for id in wanted.ids { try await selector.add(assetID: id, runHint: wanted.runHints[id]) }
    if let pattern = fileNamePattern { try await selector.add(fileNamesMatching: pattern) }
    for note in selector.notes { Diagnostics.warning(note) }
    return selector.targets
  }

  /// The selection read against the server now (see `RestoreCheck`), and what that taught
  /// about the runs kept in the partition's state, dry run or not: it is knowledge, not a
  /// change.
  private func check(
    _ selected: [RestoreRun.Target], history: [RunHistory], connection: ServerConnection,
    _ state: PartitionAccess
  ) async throws(CairnError) -> RestoreCheck.Result {
    guard !selected.isEmpty else { return RestoreCheck.Result() }
    var ledger = try state.store.fates.ledger()
    let checked = try await RestoreCheck(server: connection.runServer, history: history).check(
      selected, ledger: &ledger, at: Date())
    try state.store.fates.save(ledger)
    for note in checked.notes { Diagnostics.warning(note) }
    return checked
  }

  /// Restores `targets` (see `RestoreRun`), writing a result per asset and the end record,
  /// and excludes the restored checksums: the person wants these on the server, so the next
  /// run must not trash them again.
  private func restore(
    _ checked: RestoreCheck.Result, connection: ServerConnection, journal: Journal,
    state: PartitionAccess
  ) async throws(CairnError) -> RestoreRun.Outcome {
    let targets = checked.targets
    let writer = RecordWriter()
    writer.onDownstreamClosed = .discard
    writer.write(
      HeaderRecord(
        tool: CairnRestore.toolName,
        server: ServerIdentity(
          url: connection.partition.serverURL, userId: connection.identity.userId),
        dryRun: dryRun))
    var outcome = await RestoreRun(server: connection.runServer, journal: journal).execute(
      targets, dryRun: dryRun,
      emit: {
        writer.write($0)
        ProgressLine.standardError.advance("assets", of: targets.count)
      })
    try reportPurged(checked.purged, journal: journal, writer: writer, into: &outcome)
    if !dryRun && !outcome.restoredChecksums.isEmpty {
      try state.exclude(
        outcome.restoredChecksums, reason: "restored by \(CairnRestore.toolName)")
    }
    let complete = outcome.failure == nil && outcome.failed.isEmpty
    writer.write(
      EndRecord(
        tool: CairnRestore.toolName, complete: complete, errors: outcome.failed.count,
        counts: dryRun
          ? ["wouldRestore": targets.count, "failed": outcome.failed.count]
          : ["restored": outcome.restored.count, "failed": outcome.failed.count]))
    writer.flush()
    return outcome
  }

  /// Selected assets the server no longer has: a failed result each, journalled (unless a dry
  /// run) so the run's history says they are gone for good.
  private func reportPurged(
    _ purged: [RestoreRun.Target], journal: Journal, writer: RecordWriter,
    into outcome: inout RestoreRun.Outcome
  ) throws(CairnError) {
    guard !purged.isEmpty else { return }
    let reason = RestoreRun.notRestored(.absent, refused: nil)
    for target in purged { outcome.fail(target, reason, { writer.write($0) }) }
    guard !dryRun else { return }
    for (run, group) in Dictionary(grouping: purged, by: \.runID).sorted(by: { $0.key < $1.key }) {
      try journal.append(
        JournalEntry(
          .failed, runID: run, assetIDs: group.map(\.id), step: RestoreStep.restore,
          message: reason))
    }
  }

  /// Asset ids (and the run they came from, when the record says) from asset, result or
  /// candidate records.
  private func readRecords(_ reader: RecordReader) throws(CairnError) -> [(String, String?)] {
    // Restoring a filtered part of a run (jq between the stages) only restores less.
    try AssetSelection.read(reader).map { ($0.assetId, $0.runId) }
  }
}
