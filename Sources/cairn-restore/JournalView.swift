import CairnRecords
import CairnRuns
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// `list` and `show RUN`: the local journal, read without a server, as records or a table.
struct JournalView {
  var showRun: String?
  /// A table for people instead of records (`ListFormat`).
  var table: Bool

  func run() throws(CairnError) -> ExitStatus {
    let configuration = try Configuration.load()
    let writer = RecordWriter()
    var found = false
    for (partition, folder) in configuration.paths.partitionDirectories() {
      let path = CairnPaths.journal(inPartitionFolder: folder)
      guard FileManager.default.fileExists(atPath: path) else { continue }
      let contents = try Journal(path: path).read()
      if contents.tornTail {
        Diagnostics.warning("the last line was cut short by a crash; it is ignored", at: path)
      }
      let ledger = try FateStore.ledger(inPartitionFolder: folder)
      // In trash: still in cairn's trash, as far as cairn has seen the server.
      var inCairnTrash: [String: Int] = [:]
      for (_, run) in ledger.cairnsTrash(contents.runs) { inCairnTrash[run, default: 0] += 1 }
      for run in contents.runs where !run.reviewedOnly {
        if let wanted = showRun {
          guard run.runID == wanted else { continue }
          found = true
          show(run, later: contents.runs, ledger: ledger, table: table, writer: writer)
        } else {
          found = true
          var record = RunRecord(journal: run)
          record.inTrash = inCairnTrash[run.runID] ?? 0
          if table {
            print(
              "\(run.runID)  \(partition)  planned \(record.assets), in trash \(record.inTrash), "
                + "restored \(record.restored)"
                + (run.completed ? (run.interrupted ? "  (interrupted)" : "") : "  (unfinished)"))
          } else {
            writer.write(record)
          }
        }
      }
    }
    writer.flush()
    if let wanted = showRun, !found {
      throw CairnError(.usage, "no run \(wanted) in the local journal (try cairn-tag show)")
    }
    if !found && showRun == nil { Diagnostics.info("the journal holds no runs yet") }
    return .success
  }

  /// Each asset the run planned and what happened to it since, as far as cairn knows: from
  /// the journal, and from what the server showed the runs and restores after it (`fates`).
  private func show(
    _ run: RunHistory, later runs: [RunHistory], ledger: FateLedger, table: Bool,
    writer: RecordWriter
  ) {
    let latest = FateLedger.latestRuns(runs)
    for asset in run.planned {
      let (action, message) = Self.state(of: asset.id, in: run, runs, latest, ledger)
      if table {
        let name = asset.originalFileName ?? (asset.stillID.map { "motion video of \($0)" } ?? "")
        print("\(asset.id)  \(message ?? action)  \(name)")
      } else {
        writer.write(
          ResultRecord(
            assetId: asset.id, action: action, runId: run.runID, checksum: asset.checksum,
            originalFileName: asset.originalFileName,
            livePhotoVideo: asset.stillID != nil ? true : nil, message: message))
      }
    }
  }

  /// The result action and the words for one asset: `trashed` with what became of it since
  /// (still in cairn's trash, restored by someone else, trashed again by someone else,
  /// purged, trashed again by a later run), `restored` (by cairn), `failed` with why (never
  /// trashed), or `planned`.
  static func state(
    of id: String, in run: RunHistory, _ runs: [RunHistory], _ latest: [String: Int],
    _ ledger: FateLedger
  ) -> (action: String, message: String?) {
    guard let fate = ledger.fate(of: id, in: run) else {
      if let reason = run.failed[id] { return ("failed", "failed: \(reason)") }
      return ("planned", nil)
    }
    // A later run's trashing comes first, however this run's asset came back: restored by
    // cairn (`cairn-restore` or a put-back) or by someone in Immich.
    if let index = latest[id.lowercased()], runs[index].runID != run.runID {
      return ("trashed", "trashed again by run \(runs[index].runID)")
    }
    if fate == .restoredByCairn { return ("restored", fate.description) }
    if fate == .inCairnTrash, let reason = run.failed[id] {
      // A restore that could not bring it back: purged, emptied from the trash, refused.
      if reason.hasPrefix("purged") { return ("trashed", AssetFate.purged.description) }
      return ("trashed", "\(fate.description); restore failed: \(reason)")
    }
    return ("trashed", fate.description)
  }
}
