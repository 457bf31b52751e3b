import CairnJSON
import CairnRecords
import Foundation

/// One cairn run as `cairn-tag list` (from the server's run tags) and `cairn-restore list`
/// (from the local journal) describe it.
package struct RunRecord: Record, Equatable {
  package static let recordType = "run"

  package var runId: String
  /// `server` (a `cairn/v1/run/*` tag) or `journal`.
  package var source: String
  package var startedAt: Date?
  /// The run tag's id on the server, when known.
  package var tagId: String?
  /// Assets the run planned (journal) or that carry its tag (server).
  package var assets: Int
  /// Of those, in the trash now (server) or trashed and not restored (journal).
  package var inTrash: Int
  /// Restored since (journal), or active again (server).
  package var restored: Int
  /// Journal only: the run finished (or was settled by a later run).
  package var completed: Bool?
  package var interrupted: Bool?
  /// Journal only: the plan digest the run carried out.
  package var plan: String?

  package init(
    runId: String, source: String, startedAt: Date? = nil, tagId: String? = nil, assets: Int,
    inTrash: Int, restored: Int, completed: Bool? = nil, interrupted: Bool? = nil,
    plan: String? = nil
  ) {
    self.runId = runId
    self.source = source
    self.startedAt = startedAt
    self.tagId = tagId
    self.assets = assets
    self.inTrash = inTrash
    self.restored = restored
    self.completed = completed
    self.interrupted = interrupted
    self.plan = plan
  }

  package init(_ object: JSONObject) throws(RecordError) {
    runId = try object.string("runId")
    source = try object.optionalString("source") ?? "journal"
    startedAt = try object.optionalDate("startedAt")
    tagId = try object.optionalString("tagId")
    assets = try object.optionalInt("assets") ?? 0
    inTrash = try object.optionalInt("inTrash") ?? 0
    restored = try object.optionalInt("restored") ?? 0
    completed = try object.optionalBool("completed")
    interrupted = try object.optionalBool("interrupted")
    plan = try object.optionalString("plan")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("runId", runId)
    w.field("source", source)
    w.field("startedAt", startedAt)
    w.field("tagId", tagId)
    w.field("assets", assets)
    w.field("inTrash", inTrash)
    w.field("restored", restored)
    w.field("completed", completed)
    w.field("interrupted", interrupted)
    w.field("plan", plan)
  }

  /// A journal run as a record.
  package init(journal run: RunHistory) {
    self.init(
      runId: run.runID, source: "journal", startedAt: run.startedAt, tagId: run.tagID,
      assets: run.planned.count, inTrash: run.inTrash.count, restored: run.restored.count,
      completed: run.completed, interrupted: run.interrupted, plan: run.plan)
  }
}
