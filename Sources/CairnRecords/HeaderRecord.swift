import CairnJSON
import CairnSupport
import Foundation

/// The first record of every stream: who wrote it and the context downstream stages need.
package struct HeaderRecord: Record, Equatable {
  package static let recordType = "header"

  /// `MAJOR.MINOR`; a reader refuses a major newer than `Schema.major`.
  package var schema: String
  /// The tool that wrote this stream, e.g. `cairn-hash`.
  package var tool: String
  package var version: String
  /// Every cairn tool the data has passed through, oldest first, this one last.
  package var pipeline: [String]
  /// Absolute paths of the library roots the scan covered.
  package var roots: [String]
  /// The Immich server and user the stream is about, once a stage has talked to one.
  package var server: ServerIdentity?
  /// Set by stages that act: the run this stream belongs to.
  package var runId: String?
  /// True when the stage ran (or will run) without changing anything.
  package var dryRun: Bool?
  /// The recorded scan the stream's plan was computed from (`cairn-reconcile` writes it,
  /// `cairn-gate` passes it on): a stage that acts refuses a plan from any other scan.
  package var scan: String?
  package var createdAt: Date

  package init(
    tool: String, pipeline upstream: [String] = [], roots: [String] = [],
    server: ServerIdentity? = nil, runId: String? = nil, dryRun: Bool? = nil,
    scan: String? = nil, createdAt: Date = Date()
  ) {
    self.schema = Schema.current
    self.tool = tool
    self.version = CairnVersion.current
    self.pipeline = upstream + [tool]
    self.roots = roots
    self.server = server
    self.runId = runId
    self.dryRun = dryRun
    self.scan = scan
    self.createdAt = createdAt
  }

  package init(_ object: JSONObject) throws(RecordError) {
    schema = try object.string("schema")
    tool = try object.string("tool")
    version = try object.optionalString("version") ?? "unknown"
    pipeline = try object.stringArray("pipeline")
    roots = try object.stringArray("roots")
    server = try object.optionalObject("server").map { (o) throws(RecordError) in
      try ServerIdentity(o)
    }
    runId = try object.optionalString("runId")
    dryRun = try object.optionalBool("dryRun")
    scan = try object.optionalString("scan")
    createdAt = try object.optionalDate("createdAt") ?? Date(timeIntervalSince1970: 0)
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("schema", schema)
    w.field("tool", tool)
    w.field("version", version)
    w.field("pipeline", pipeline)
    w.field("roots", roots)
    if let server { w.object("server") { server.write(to: &$0) } }
    w.field("runId", runId)
    w.field("dryRun", dryRun)
    w.field("scan", scan)
    w.field("createdAt", createdAt)
  }

  /// The schema's major version, or nil when the field is not `MAJOR.MINOR`.
  package var schemaMajor: Int? {
    schema.split(separator: ".", maxSplits: 1).first.flatMap { Int($0) }
  }
}

/// Which Immich server and which user a stream concerns: the state partition's key.
package struct ServerIdentity: Sendable, Equatable, Hashable {
  /// The API base URL, normalised (ends in `/api`).
  package var url: String
  package var userId: String
  /// The server version as `MAJOR.MINOR.PATCH`.
  package var version: String?

  package init(url: String, userId: String, version: String? = nil) {
    self.url = url
    self.userId = userId
    self.version = version
  }

  package init(_ object: JSONObject) throws(RecordError) {
    url = try object.string("url")
    userId = try object.string("userId")
    version = try object.optionalString("version")
  }

  package func write(to w: inout JSONObjectWriter) {
    w.field("url", url)
    w.field("userId", userId)
    w.field("version", version)
  }

  package var partition: ServerPartition { ServerPartition(serverURL: url, userId: userId) }
}
