import Foundation

/// The first record of every stream: who wrote it and the context downstream stages need.
public struct HeaderRecord: Record, Equatable {
  public static let recordType = "header"

  /// `MAJOR.MINOR`; a reader refuses a major newer than `Schema.major`.
  public var schema: String
  /// The tool that wrote this stream, e.g. `cairn-hash`.
  public var tool: String
  public var version: String
  /// Every cairn tool the data has passed through, oldest first, this one last.
  public var pipeline: [String]
  /// Absolute paths of the library roots the scan covered.
  public var roots: [String]
  /// The Immich server and user the stream is about, once a stage has talked to one.
  public var server: ServerIdentity?
  /// Set by stages that act: the run this stream belongs to.
  public var runId: String?
  /// True when the stage ran (or will run) without changing anything.
  public var dryRun: Bool?
  /// The recorded scan the stream's plan was computed from (`cairn-reconcile` writes it,
  /// `cairn-gate` passes it on): a stage that acts refuses a plan from any other scan.
  public var scan: String?
  public var createdAt: Date

  public init(
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

  public init(_ object: JSONObject) throws(RecordError) {
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

  public func writeFields(to w: inout JSONObjectWriter) {
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
  public var schemaMajor: Int? {
    schema.split(separator: ".", maxSplits: 1).first.flatMap { Int($0) }
  }
}

/// Which Immich server and which user a stream concerns: the state partition's key.
public struct ServerIdentity: Sendable, Equatable, Hashable {
  /// The API base URL, normalised (ends in `/api`).
  public var url: String
  public var userId: String
  /// The server version as `MAJOR.MINOR.PATCH`.
  public var version: String?

  public init(url: String, userId: String, version: String? = nil) {
    self.url = url
    self.userId = userId
    self.version = version
  }

  public init(_ object: JSONObject) throws(RecordError) {
    url = try object.string("url")
    userId = try object.string("userId")
    version = try object.optionalString("version")
  }

  public func write(to w: inout JSONObjectWriter) {
    w.field("url", url)
    w.field("userId", userId)
    w.field("version", version)
  }

  public var partition: ServerPartition { ServerPartition(serverURL: url, userId: userId) }
}
