import CairnRecords
import CairnSupport

/// An error that ends a tool: a one-line message and the status to exit with.
package struct CairnError: Error, Sendable, CustomStringConvertible {
  package let status: ExitStatus
  /// Where the problem is (a path, `<stdin>:17`, a URL); printed before the message.
  package let location: String?
  package let message: String
  /// Set when the input carried an upstream stage's `abort` record: this tool stops for that
  /// reason, passes the record on and exits with its status (see `Tool.run`).
  package let abort: AbortRecord?

  package init(_ status: ExitStatus, _ message: String, at location: String? = nil) {
    self.status = status
    self.message = message
    self.location = location
    self.abort = nil
  }

  /// Stopping because an upstream stage failed, as `record` says.
  package init(aborted record: AbortRecord, at location: String? = nil) {
    self.status = record.status
    self.message =
      "stopped: \(record.tool) failed (exit status \(record.status.rawValue)): "
      + record.message
    self.location = location
    self.abort = record
  }

  package var description: String {
    location.map { "\($0): \(message)" } ?? message
  }

  package static func refused(_ message: String) -> CairnError { CairnError(.refused, message) }
  package static func malformed(_ error: InputError) -> CairnError {
    CairnError(.malformedInput, error.description)
  }
}
