import CairnJSON
import CairnSupport

/// The last line a failed stage writes, instead of an end record: which tool stopped, with
/// which exit status, and its one-line reason.
///
/// Every later stage that reads one stops without acting, passes it on (adding itself to
/// `via`) and exits with the same status, so the exit status of a whole pipeline tells a
/// refusal (25) from malformed input (65) from a server failure (69).
package struct AbortRecord: Record, Equatable {
  package static let recordType = "abort"

  /// The tool that failed first.
  package var tool: String
  /// Its exit status (one of `ExitStatus`, never 0).
  package var status: ExitStatus
  /// Its one-line diagnostic, as printed on its stderr.
  package var message: String
  /// The stages that passed the abort on, in order.
  package var via: [String]

  package init(tool: String, status: ExitStatus, message: String, via: [String] = []) {
    self.tool = tool
    self.status = status
    self.message = message
    self.via = via
  }

  package init(_ object: JSONObject) throws(RecordError) {
    tool = try object.string("tool")
    let code = try object.int("status")
    guard let status = Int32(exactly: code).flatMap(ExitStatus.init(rawValue:)),
      status != .success
    else { throw RecordError("field 'status' must be a cairn exit status other than 0") }
    self.status = status
    message = try object.string("message")
    via = try object.stringArray("via")
  }

  package func writeFields(to w: inout JSONObjectWriter) {
    w.field("tool", tool)
    w.field("status", Int(status.rawValue))
    w.field("message", message)
    if !via.isEmpty { w.field("via", via) }
  }
}
