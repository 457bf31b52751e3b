import CairnCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--list` and `--show`: the local journal, read without a server. Records on standard output;
/// a table when standard output is a terminal.
struct JournalView {
  var showRun: String?

  func run() throws(CairnError) -> ExitStatus {
    let configuration = try Configuration.load()
    let servers = configuration.paths.stateHome + "/servers"
    let partitions =
      ((try? FileManager.default.contentsOfDirectory(atPath: servers)) ?? []).sorted()
    let table = isatty(1) == 1
    let writer = RecordWriter()
    var found = false
    for partition in partitions {
      let path = servers + "/" + partition + "/journal.ndjson"
      guard FileManager.default.fileExists(atPath: path) else { continue }
      let contents = try Journal(path: path).read()
      if contents.tornTail {
        Diagnostics.warning("the last line was cut short by a crash; it is ignored", at: path)
      }
      for run in contents.runs where !run.reviewedOnly {
        if let wanted = showRun {
          guard run.runID == wanted else { continue }
          found = true
          show(run, table: table, writer: writer)
        } else {
          found = true
          let record = RunRecord(journal: run)
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
      throw CairnError(.usage, "no run \(wanted) in the local journal (try cairn-tag --run-id)")
    }
    if !found && showRun == nil { Diagnostics.info("the journal holds no runs yet") }
    return .success
  }

  private func show(_ run: RunHistory, table: Bool, writer: RecordWriter) {
    for asset in run.planned {
      let state: String
      if run.restored.contains(asset.id) {
        state = "restored"
      } else if run.trashed.contains(asset.id) {
        state = "trashed"
      } else if let reason = run.failed[asset.id] {
        state = "failed: \(reason)"
      } else {
        state = "planned"
      }
      if table {
        let name = asset.originalFileName ?? (asset.stillID.map { "motion video of \($0)" } ?? "")
        print("\(asset.id)  \(state)  \(name)")
      } else {
        writer.write(
          ResultRecord(
            assetId: asset.id, action: state.hasPrefix("failed") ? "failed" : state,
            runId: run.runID, checksum: asset.checksum, originalFileName: asset.originalFileName,
            livePhotoVideo: asset.stillID != nil ? true : nil,
            message: state.hasPrefix("failed") ? state : nil))
      }
    }
  }
}
