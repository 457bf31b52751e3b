import CairnCore
import CairnState
import Foundation

/// One run of cairn-reconcile.
struct Reconcile {
  let options: CairnReconcile

  func run() throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let reader = try options.input.reader()
    let configuration = try Configuration.load()
    let settings = try options.settings.resolve(configuration)
    let now = Date()

    // The listing is read while the scan is read and recorded: recording needs only the
    // server's identity (the partition), which the listing's first line gives.
    let serverFile = options.serverFile
    var fetchArguments: [String] = []
    if options.common.quiet { fetchArguments.append("--quiet") }
    if options.common.verbose { fetchArguments.append("--verbose") }
    let identity = Handoff<ServerIdentity>()
    let paths = configuration.paths
    let server = BackgroundWork("cairn-reconcile-listing") {
      [fetchArguments] () throws(CairnError) in
      let identified = { (server: ServerIdentity) in identity.deliver(.success(server)) }
      do throws(CairnError) {
        if let serverFile {
          return try ServerListing.read(
            path: serverFile, identified: identified, partitions: paths)
        }
        return try ServerListing.fetch(fetchArguments, identified: identified, partitions: paths)
      } catch {
        identity.deliver(.failure(error))
        throw error
      }
    }

    // The last scan's snapshot is read as soon as the listing's first line names the partition.
    let preload = BackgroundWork("cairn-reconcile-snapshot") { () throws(CairnError) in
      ScanSnapshotPreload.read(try identity.value().partition, paths: paths)
    }

    // Lines the last scan had, byte for byte, are known without parsing once it is read: a
    // scan waiting in a file or a pipe is read after it, if it comes soon (a tenth of a second
    // for a million files, once the listing's first line names the partition). A live
    // listing slow to start holds the scan back no longer than that.
    preload.wait(upTo: 0.5)
    let stream = try RecordStream(reader: reader)
    let scan = try ScanInput.read(stream, previous: preload)
    guard scan.end != nil else {
      throw CairnError(
        .malformedInput,
        "truncated scan: no end record after line \(stream.linesRead) (did cairn-hash fail?); "
          + "nothing was recorded", at: reader.sourceName)
    }
    try checkScope(scan)
    clock.lap(
      "read scan", "\(scan.files.count) files (\(scan.recognised) unchanged lines not parsed)")
    // The engine's million lookups of server checksums in the scan need neither the store nor
    // the settings: they are made on the listing's core while this one records the scan, or
    // carried over from the last run's once recording has said what changed.
    let lookup = BackgroundWork("cairn-reconcile-lookup") {
      [files = scan.files] () throws(CairnError) in
      try ScanLookupPlan.prepare(
        files: files, listing: { () throws(CairnError) in try server.value().assets },
        partitionDirectory: paths.partitionDirectory(try identity.value().partition),
        snapshot: try? preload.value())
    }

    let partition = try identity.value().partition
    if let scanned = scan.header.server, scanned.partition != partition {
      throw CairnError(
        .configuration,
        "the scan was observed for \(scanned.partition) but the server listing is for "
          + "\(partition)")
    }
    let store = try PartitionStore.open(
      partition, paths: configuration.paths, checkpointing: false)
    let roots = scan.roots
    var checkpoint: BackgroundWork<Void>?
    if !scan.alreadyObserved {
      ProgressLine.standardError.phase("recording \(scan.files.count) files")
      try store.recordScan(
        scan.files, completeRoots: scan.completeRoots, at: now, preloaded: try? preload.value())
      // What recording wrote reaches the database file while the engine runs.
      checkpoint = store.checkpoint()
      clock.lap("record scan")
    }
    let listing = try server.value()
    clock.lap(
      "read server listing",
      "\(listing.assets.count) assets (\(listing.recognised) unchanged lines not parsed)")
    ProgressLine.standardError.phase("loading the state")
    // The store's part of the engine's input is loaded while the lookups may still run.
    var input = try store.reconciliationInput(
      files: scan.files, roots: roots, assets: listing.assets, settings: settings, now: now)
    clock.lap("load the state")
    // The trash folders' signals, unless cairn-observe looked already: the four-stage
    // pipeline then holds a trashed photo for its quarantine as the five-stage one does.
    if !options.noTrash && !scan.alreadyObserved {
      let found = try store.recordTrashSignals(
        roots: scan.roots.map(\.path), configuration: configuration)
      if found > 0 { input.confirmations = try store.signals.confirmations() }
      clock.lap("trash signals", "\(found) new")
    }
    let plan = try lookup.value()
    let scanLookup = store.lookup(plan, files: scan.files, assets: listing.assets)
    input.lookup = scanLookup
    // What cairn runs trashed: such an asset back in the library is put back (`restore`).
    input.trashedByRuns = RunHistory.inTrash(
      try Journal(path: Journal.path(configuration.paths, partition)).read().runs)
    clock.lap(
      "look up server checksums",
      scanLookup.isCarriedOver ? "carried over from the last run" : "made")
    ProgressLine.standardError.phase("reconciling with \(listing.assets.count) assets")
    var output = try store.reconcile(input)
    clock.lap("reconcile", "\(output.candidates.count) candidates")
    if !options.noTrash {
      // Android's trash beside the candidates, which are few, rather than beside every
      // checksum ever deleted; a signal found decides again (rarely: nothing else changed).
      let found = try store.recordAndroidTrash(
        lastPaths: output.candidates.flatMap(\.paths), paths: configuration.paths)
      if found > 0 {
        input.confirmations = try store.signals.confirmations()
        output = try store.reconcile(input)
      }
      clock.lap("Android trash", "\(found) new")
    }
    store.keepLookups(scanLookup, listing: plan.listing)
    // The plan is bound to this scan: the stages that act check it against what is kept here.
    let scanID = try store.binding.latestScan()
    if let scanID {
      try store.binding.recordReconciliation(
        scan: scanID, matched: output.summary.matched, serverAssets: output.summary.serverAssets,
        candidates: output.candidates)
    }
    // Free the partition before writing: the next stage may open it as soon as it reads.
    store.close()

    let writer = RecordWriter()
    writer.write(
      HeaderRecord(
        tool: "cairn-reconcile", pipeline: scan.header.pipeline, roots: scan.header.roots,
        server: listing.identity, scan: scanID, createdAt: now))
    for candidate in output.candidates { writer.write(candidate) }
    writer.write(
      EndRecord(
        tool: "cairn-reconcile", complete: true, errors: 0, counts: output.summary.counts,
        roots: roots))
    writer.flush()
    clock.lap("write the candidates")
    // The recording reaches the database file (and the disk) before the run ends.
    if let checkpoint {
      _ = try? checkpoint.value()
      clock.lap("checkpoint")
    }
    summarize(output.summary, skipped: roots.filter { !output.completeRoots.contains($0.path) })
    return .success
  }

  /// Refuses a scan whose scope is in doubt, unless told to leave the doubtful roots out.
  private func checkScope(_ scan: ScanInput) throws(CairnError) {
    let doubtful = scan.roots.filter { !$0.complete || $0.problem != nil }
    let stray = scan.errors.filter { $0.root == nil }
    if !stray.isEmpty && !options.skipIncompleteRoots {
      throw CairnError.refused(
        "the scan carries \(stray.count) error record(s) outside any root; nothing was recorded")
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
