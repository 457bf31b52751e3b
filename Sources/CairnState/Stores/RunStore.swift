import CairnJSON
import CairnStream
import Foundation
import GRDB

/// One run of a stage that acts (`cairn-gate`, `cairn-trash`), as the partition remembers it.
package struct RunEntry: Sendable, Equatable {
  package enum Status: String, Sendable, CaseIterable {
    /// Started and not finished (or the process died).
    case running
    /// Finished as planned.
    case finished
    /// Finished, but some items failed.
    case partial
    /// A safety rail or the person said no.
    case refused
    case failed
    case interrupted
  }

  package var id: String
  package var tool: String
  package var startedAt: Date
  package var finishedAt: Date?
  package var dryRun: Bool
  /// The digest of the plan the run carried out or previewed.
  package var plan: String?
  package var counts: [String: Int]
  package var status: Status

  package init(
    id: String, tool: String, startedAt: Date, finishedAt: Date? = nil, dryRun: Bool,
    plan: String? = nil, counts: [String: Int] = [:], status: Status = .running
  ) {
    self.id = id
    self.tool = tool
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.dryRun = dryRun
    self.plan = plan
    self.counts = counts
    self.status = status
  }
}

/// The runs table: what ran, when, dry or not, on which plan, with which outcome.
package struct RunStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Records the start of a run (or replaces the row of the same id).
  package func start(_ run: RunEntry) throws(CairnError) {
    try database.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO run VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        arguments: [
          run.id, run.tool, run.startedAt.stateValue, run.finishedAt?.stateValue, run.dryRun,
          run.plan, Self.encode(run.counts), run.status.rawValue,
        ])
    }
  }

  /// Records how a run ended.
  package func finish(
    _ id: String, status: RunEntry.Status, counts: [String: Int], plan: String? = nil,
    at now: Date
  ) throws(CairnError) {
    try database.write { db in
      try db.execute(
        sql: """
          UPDATE run SET finishedAt = ?, status = ?, counts = ?, plan = coalesce(?, plan)
          WHERE id = ?
          """,
        arguments: [now.stateValue, status.rawValue, Self.encode(counts), plan, id])
      if db.changesCount == 0 {
        throw CairnError(.stateFailure, "no run \(id) to finish")
      }
    }
  }

  package func run(_ id: String) throws(CairnError) -> RunEntry? {
    try database.read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM run WHERE id = ?", arguments: [id]).map(Self.entry)
    }
  }

  /// Runs, newest first.
  package func all(limit: Int? = nil) throws(CairnError) -> [RunEntry] {
    try database.read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM run ORDER BY startedAt DESC, id DESC LIMIT ?",
        arguments: [limit ?? -1]
      ).map(Self.entry)
    }
  }

  /// The newest run matching `dryRun` (any when nil) that finished as planned.
  package func lastFinished(dryRun: Bool? = nil) throws(CairnError) -> RunEntry? {
    try all().first { $0.status == .finished && (dryRun == nil || $0.dryRun == dryRun) }
  }

  static func encode(_ counts: [String: Int]) -> String {
    // Stored as `{"counts":{...}}`, readable with the same codec as the records.
    var writer = JSONObjectWriter()
    writer.field("counts", counts)
    return String(decoding: writer.finish(), as: UTF8.self)
  }

  static func decode(_ text: String) -> [String: Int] {
    guard let object = try? JSONObject(parsing: Array(text.utf8)) else { return [:] }
    return (try? object.intMap("counts")) ?? [:]
  }

  private static func entry(_ row: Row) -> RunEntry {
    RunEntry(
      id: row["id"], tool: row["tool"], startedAt: Date(stateValue: row["startedAt"]),
      finishedAt: (row["finishedAt"] as Double?).map(Date.init(stateValue:)),
      dryRun: row["dryRun"], plan: row["plan"], counts: decode(row["counts"]),
      status: RunEntry.Status(rawValue: row["status"]) ?? .failed)
  }
}
