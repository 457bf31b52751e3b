import CairnJSON

/// A problem with one item, carried in-band so downstream stages can see what the scope lacks.
package struct ErrorRecord: Record, Equatable {
  package static let recordType = "error"

  package var tool: String
  package var message: String
  /// The file the problem concerns, if any.
  package var path: String?
  /// The scanned root the problem falls under: that root's scan is incomplete.
  package var root: String?
  /// The server asset the problem concerns, if any.
  package var assetId: String?
  /// A short machine-readable code (`ENOENT`, `EACCES`, `http-500`, ...).
  package var code: String?

  package init(
    tool: String, message: String, path: String? = nil, root: String? = nil,
    assetId: String? = nil, code: String? = nil
  ) {
    self.tool = tool
    self.message = message
    self.path = path
    self.root = root
    self.assetId = assetId
    self.code = code
  }

  package init(_ object: JSONObject) throws(RecordError) {
    tool = try object.optionalString("tool") ?? "unknown"
    message = try object.string("message")
    path = try object.optionalString("path")
    root = try object.optionalString("root")
    assetId = try object.optionalString("assetId")
    code = try object.optionalString("code")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("tool", tool)
    w.field("message", message)
    w.field("path", path)
    w.field("root", root)
    w.field("assetId", assetId)
    w.field("code", code)
  }
}
