import CairnJSON

/// The last record of every stream. A stream without one was cut short.
package struct EndRecord: Record, Equatable {
  package static let recordType = "end"

  package var tool: String
  /// True only when the stage saw all of its input and finished every item it was given.
  package var complete: Bool
  /// How many `error` records the stream carried (its own and those passed through).
  package var errors: Int
  /// What the stage counted, by name (`files`, `bytes`, `candidates`, `delete`, ...).
  package var counts: [String: Int]
  /// How many records of each type the stream carried between its header and this record.
  /// `RecordWriter` fills it in; a reader compares it with what it read, so a line lost or
  /// added on the way (a stray `grep -v`) is malformed input, not a deletion. Nil when absent.
  package var records: [String: Int]?
  /// Per-root scan status, from the tool that scanned the library.
  package var roots: [RootStatus]
  /// The digest of the plan this stream carries (from `cairn-gate`).
  package var plan: String?
  package var runId: String?

  package init(
    tool: String, complete: Bool, errors: Int = 0, counts: [String: Int] = [:],
    roots: [RootStatus] = [], plan: String? = nil, runId: String? = nil,
    records: [String: Int]? = nil
  ) {
    self.tool = tool
    self.complete = complete
    self.errors = errors
    self.counts = counts
    self.records = records
    self.roots = roots
    self.plan = plan
    self.runId = runId
  }

  package init(_ object: JSONObject) throws(RecordError) {
    tool = try object.optionalString("tool") ?? "unknown"
    complete = try object.bool("complete")
    errors = try object.optionalInt("errors") ?? 0
    counts = try object.intMap("counts")
    records = object["records"].map(\.isNull) == false ? try object.intMap("records") : nil
    roots = []
    for root in try object.objectArray("roots") { roots.append(try RootStatus(root)) }
    plan = try object.optionalString("plan")
    runId = try object.optionalString("runId")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("tool", tool)
    w.field("complete", complete)
    w.field("errors", errors)
    w.field("counts", counts)
    if let records { w.field("records", records) }
    if !roots.isEmpty { w.objects("roots", roots) { $1.write(to: &$0) } }
    w.field("plan", plan)
    w.field("runId", runId)
  }
}

/// How the scan of one library root went. Only a complete, non-empty root can yield deletions,
/// and none under its subtrees out of scope.
package struct RootStatus: Sendable, Equatable {
  /// A folder under the root whose volume is away or replaced since the last scan: nothing
  /// last seen under it can be judged gone, while the rest of the root is judged as usual.
  package struct OutOfScope: Sendable, Equatable {
    /// The folder (a mount point, or the root itself), as the scan names paths.
    package var path: String
    /// `volume away`, `volume replaced` or `volume emptied`.
    package var problem: String
    /// Media files the volume held at its last scan.
    package var files: Int

    package init(path: String, problem: String, files: Int) {
      self.path = path
      self.problem = problem
      self.files = files
    }

    init(_ object: JSONObject) throws(RecordError) {
      path = try object.string("path")
      problem = try object.string("problem")
      files = try object.optionalInt("files") ?? 0
    }

    func write(to w: inout JSONObjectWriter) {
      w.field("path", path)
      w.field("problem", problem)
      w.field("files", files)
    }

    /// Whether `path` is this folder or lies under it.
    package func contains(_ path: String) -> Bool {
      path == self.path || path.hasPrefix(self.path.hasSuffix("/") ? self.path : self.path + "/")
    }
  }

  package var path: String
  /// Every file under the root was listed and read without error (those out of scope aside).
  package var complete: Bool
  /// Media files found under the root.
  package var files: Int
  /// Why the root is incomplete or suspicious (missing, unreadable, empty), if it is.
  package var problem: String?
  /// Folders under the root that are out of scope this scan.
  package var outOfScope: [OutOfScope]
  /// The `CAIRN_IGNORE_PATHS` patterns the scan left out of this root (`IgnoredPaths`): a
  /// judging stage ignores what they match as well as what its own configuration says.
  package var ignored: [String] = []

  package init(
    path: String, complete: Bool, files: Int, problem: String? = nil,
    outOfScope: [OutOfScope] = []
  ) {
    self.path = path
    self.complete = complete
    self.files = files
    self.problem = problem
    self.outOfScope = outOfScope
  }

  package init(_ object: JSONObject) throws(RecordError) {
    path = try object.string("path")
    complete = try object.bool("complete")
    files = try object.optionalInt("files") ?? 0
    problem = try object.optionalString("problem")
    outOfScope = []
    for folder in try object.objectArray("outOfScope") { outOfScope.append(try OutOfScope(folder)) }
    ignored = try object.stringArray("ignored")
  }

  package func write(to w: inout JSONObjectWriter) {
    w.field("path", path)
    w.field("complete", complete)
    w.field("files", files)
    w.field("problem", problem)
    if !outOfScope.isEmpty { w.objects("outOfScope", outOfScope) { $1.write(to: &$0) } }
    if !ignored.isEmpty { w.field("ignored", ignored) }
  }
}

extension EndRecord {
  /// What makes this end record's statistics impossible, in words, or nil when they can be:
  /// a negative count anywhere, a count of records no stream carries between its header and
  /// its end (`header`, `end`, `abort`), or a root holding a negative number of files.
  /// Such a record was not written by cairn, and no count in it can be trusted.
  package var impossibleStatistic: String? {
    if errors < 0 { return "errors is \(errors)" }
    for (name, value) in counts.sorted(by: { $0.key < $1.key }) where value < 0 {
      return "counts.\(name) is \(value)"
    }
    for (type, value) in (records ?? [:]).sorted(by: { $0.key < $1.key }) {
      if value < 0 { return "records.\(type) is \(value)" }
      if Self.uncounted.contains(type) && value != 0 {
        return "records.\(type) is \(value), but \(type) records are never counted"
      }
    }
    if let root = roots.first(where: { $0.files < 0 }) {
      return "root \(root.path) holds \(root.files) files"
    }
    return nil
  }

  /// Record types a stream never counts: its frame, and the abort that replaces its end.
  private static let uncounted: Set<String> = [
    HeaderRecord.recordType, EndRecord.recordType, AbortRecord.recordType,
  ]
}
