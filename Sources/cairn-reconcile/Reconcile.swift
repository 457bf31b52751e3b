import CairnEngine
import CairnReconcile
import CairnRecords
import CairnRuns
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// One run of cairn-reconcile: a function per phase `-v` prints, in order.
struct Reconcile {
  let options: CairnReconcile
  let configuration: Configuration
  let settings: ReconciliationSettings
  let now = Date()
  var clock = PhaseClock()

  init(options: CairnReconcile) throws(CairnError) {
    self.options = options
    configuration = try Configuration.load()
    settings = try options.settings.resolve(configuration)
  }

  mutating func run() throws(CairnError) -> ExitStatus {
    // The input is opened first: a terminal on stdin is a usage error before cairn-fetch starts.
    let reader = try options.input.reader()
    // The listing is read while the scan is read and recorded: recording needs only the
    // server's identity (the partition), which the listing's first line gives.
    let reading = ReconcileReading(
      listing: listingSource, paths: configuration.paths, recognition: .byDigest)
    let scan = try readScan(reader, reading)
    let store = try openStore(reading, for: scan)
    let checkpoint = try recordScan(scan, in: store, reading)
    let listing = try reading.readServerListing()
    clock.lap(
      "read server listing",
      "\(listing.assets.count) assets (\(listing.recognised) unchanged lines not parsed)")
    let (lookup, listingKey) = try lookUpServerChecksums(reading, store)
    var input = try loadTheState(store, scan: scan, lookup: lookup, listing: listing)
    try recordTrashSignals(scan, store, &input)
    let output = try reconcile(store, &input)
    reading.keepLookups(lookup, listing: listingKey, in: store)
    // The plan is bound to this scan: the stages that act check it against what is kept here.
    let scanID = try store.binding.latestScan()
    if let scanID {
      try store.binding.recordReconciliation(
        scan: scanID, matched: output.summary.matched, serverAssets: output.summary.serverAssets,
        candidates: output.candidates, sighted: output.sightedAssets)
    }
    // Free the partition before writing: the next stage may open it as soon as it reads.
    store.close()
    writeTheCandidates(output, scan: scan, server: listing.identity, scanID: scanID)
    // The recording reaches the database file (and the disk) before the run ends.
    if let checkpoint {
      _ = try? checkpoint.value()
      clock.lap("checkpoint")
    }
    summarize(
      output.summary, skipped: scan.roots.filter { !output.completeRoots.contains($0.path) })
    return .success
  }

  /// `--server FILE`, or a live cairn-fetch told how loud to be.
  private var listingSource: ListingSource {
    if let serverFile = options.serverFile { return .file(serverFile) }
    return .fetch(options.common.forwarded)
  }

  /// "read scan": the whole scan from stdin, refused when it has no end or its scope is in
  /// doubt.
  private mutating func readScan(_ reader: RecordReader, _ reading: ReconcileReading)
    throws(CairnError) -> ScanInput
  {
    let stream = try RecordStream(reader: reader)
    let scan = try reading.readScan(stream)
    guard scan.end != nil else {
      throw CairnError(
        .malformedInput,
        "truncated scan: no end record after line \(stream.linesRead) (did cairn-hash fail?); "
          + "nothing was recorded", at: reader.sourceName)
    }
    try checkScope(scan)
    clock.lap(
      "read scan", "\(scan.files.count) files (\(scan.recognised) unchanged lines not parsed)")
    return scan
  }

  /// The partition the listing names, which must be the one the scan was observed for.
  private func openStore(_ reading: ReconcileReading, for scan: ScanInput) throws(CairnError)
    -> PartitionStore
  {
    let partition = try reading.server().partition
    if let scanned = scan.header.server, scanned.partition != partition {
      throw CairnError(
        .configuration,
        "the scan was observed for \(scanned.partition) but the server listing is for "
          + "\(partition)")
    }
    return try PartitionStore.open(partition, paths: configuration.paths, checkpointing: false)
  }

  /// "record scan", unless cairn-observe did; what recording wrote reaches the database file
  /// on a connection of its own while the engine runs (the work returned).
  private mutating func recordScan(
    _ scan: ScanInput, in store: PartitionStore, _ reading: ReconcileReading
  ) throws(CairnError) -> BackgroundWork<Void>? {
    guard !scan.alreadyObserved else { return nil }
    ProgressLine.standardError.phase("recording \(scan.files.count) files")
    try store.recordScan(
      scan.files, completeRoots: scan.completeRoots, scopedRoots: scan.scopedRoots, at: now,
      preloaded: reading.lastScan())
    let checkpoint = store.checkpoint()
    clock.lap("record scan")
    return checkpoint
  }

  /// "look up server checksums": carried over from the last run's or made.
  private mutating func lookUpServerChecksums(
    _ reading: ReconcileReading, _ store: PartitionStore
  ) throws(CairnError) -> (ScanLookup, ListingKey) {
    let (lookup, key) = try reading.lookUpServerChecksums(in: store)
    clock.lap(
      "look up server checksums",
      lookup.isCarriedOver ? "carried over from the last run" : "made")
    return (lookup, key)
  }

  /// "load the state": the store's part of the engine's input, and what cairn runs trashed
  /// (such an asset back in the library is put back).
  private mutating func loadTheState(
    _ store: PartitionStore, scan: ScanInput, lookup: ScanLookup, listing: ListingInput
  ) throws(CairnError) -> ReconciliationInput {
    ProgressLine.standardError.phase("loading the state")
    // The scan's header was written as its walk began: a file the watcher saw before then
    // and the walk did not find is gone.
    var input = try store.reconciliationInput(
      files: scan.files, scan: lookup, roots: scan.roots, assets: listing.assets,
      settings: settings, now: now, scanStartedAt: scan.header.createdAt)
    // The journal read against the listing: what someone restored in Immich is no longer in
    // cairn's trash, and while its file stays gone it is no candidate either.
    let history = try Journal(path: Journal.path(configuration.paths, store.partition)).read()
      .runs
    let runs = try store.readRuns(
      history, against: listing.assets, isPresent: { [scan = input.scan] in scan.contains($0) },
      at: now)
    if let summary = runs.summary { Diagnostics.info(summary) }
    input.trashedByRuns = runs.inCairnTrash
    input.exclusions.formUnion(runs.keptOnServer)
    try WatchGapNotice.say(store, roots: scan.roots.map(\.path), now: now)
    clock.lap("load the state")
    return input
  }

  /// "trash signals": the trash folders' signals, unless cairn-observe looked already: the
  /// four-stage pipeline then holds a trashed photo for its quarantine as the five-stage one
  /// does.
  private mutating func recordTrashSignals(
    _ scan: ScanInput, _ store: PartitionStore, _ input: inout ReconciliationInput
  ) throws(CairnError) {
    guard !options.noTrash && !scan.alreadyObserved else { return }
    let found = try store.recordTrashSignals(
      roots: scan.roots.map(\.path), configuration: configuration)
    if found > 0 { input.confirmations = try store.trustedConfirmations(now: now) }
    clock.lap("trash signals", "\(found) new")
  }

  /// "reconcile", then "Android trash": Android's trash beside the candidates, which are few,
  /// rather than beside every checksum ever deleted; a signal found decides again (rarely:
  /// nothing else changed).
  private mutating func reconcile(_ store: PartitionStore, _ input: inout ReconciliationInput)
    throws(CairnError) -> ReconciliationOutput
  {
    ProgressLine.standardError.phase("reconciling with \(input.assets.count) assets")
    var output = try store.reconcile(input)
    clock.lap("reconcile", "\(output.candidates.count) candidates")
    for count in output.ambiguousSightings {
      // The count only: the ids of many assets say nothing a person can act on.
      Diagnostics.verbose(
        "a file cairn-observe watch saw arrive and could not hash matches \(count) assets by "
          + "name and time; none is proposed")
    }
    guard !options.noTrash else { return output }
    let found = try store.recordAndroidTrash(
      lastPaths: output.candidates.flatMap(\.paths), paths: configuration.paths)
    if found > 0 {
      input.confirmations = try store.trustedConfirmations(now: now)
      output = try store.reconcile(input)
    }
    clock.lap("Android trash", "\(found) new")
    return output
  }

  /// "write the candidates": header, candidates, end.
  private mutating func writeTheCandidates(
    _ output: ReconciliationOutput, scan: ScanInput, server: ServerIdentity, scanID: String?
  ) {
    let writer = RecordWriter()
    writer.write(
      HeaderRecord(
        tool: CairnReconcile.toolName, pipeline: scan.header.pipeline, roots: scan.header.roots,
        server: server, scan: scanID, createdAt: now))
    for candidate in output.candidates { writer.write(candidate) }
    writer.write(
      EndRecord(
        tool: CairnReconcile.toolName, complete: true, errors: 0, counts: output.summary.counts,
        roots: scan.roots))
    writer.flush()
    clock.lap("write the candidates")
  }

  /// Refuses a scan whose scope is in doubt, unless told to leave the doubtful roots out.
  private func checkScope(_ scan: ScanInput) throws(CairnError) {
    let doubtful = scan.roots.filter { $0.coverage == .doubtful }
    // An error that names no root of this scan could be under any of them: no root can be
    // left out for it, so none is complete (not even with --skip-incomplete-roots).
    let rootPaths = Set(scan.roots.map(\.path))
    let stray = scan.errors.filter { $0.root.map { !rootPaths.contains($0) } ?? true }
    if !stray.isEmpty {
      throw CairnError.refused(
        "incomplete scan: the scan carries \(stray.count) error record(s) outside any of its "
          + "roots; nothing was recorded")
    }
    for root in scan.roots {
      for folder in root.outOfScope {
        Diagnostics.warning(
          "leaving out \(folder.path) (\(folder.problem), \(folder.files) media files at its "
            + "last scan): nothing under it counts as gone until it is back")
      }
    }
    guard !doubtful.isEmpty else { return }
    let names = doubtful.map { "\($0.path) (\($0.problem ?? "incomplete"))" }
    if options.skipIncompleteRoots {
      for name in names {
        Diagnostics.warning("leaving out \(name): nothing under it counts as gone")
      }
      return
    }
    throw CairnError.refused(
      "incomplete scan: \(names.joined(separator: ", ")); nothing was recorded "
        + "(fix the scan, or --skip-incomplete-roots to leave those roots out)")
  }

  private func summarize(_ summary: ReconciliationSummary, skipped: [RootStatus]) {
    Diagnostics.info(
      "\(summary.localFiles) local files, \(summary.observed) observed, "
        + "\(summary.serverAssets) server assets (\(summary.matched) matched): "
        + "\(summary.delete) to delete, \(summary.pending) pending review, "
        + "\(summary.held) held in quarantine"
        + (summary.excluded > 0 ? ", \(summary.excluded) excluded" : "")
        + (summary.restore > 0 ? ", \(summary.restore) to restore" : ""))
  }
}
