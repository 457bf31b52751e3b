import CairnRecords
import CairnSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Where a failing tool's abort record goes: after the records its writer still holds, or
/// straight to standard output when it made no writer; nowhere when standard output is a
/// terminal (a person reads the stderr line) or the status is 1 or 141 (see `Tool.run`).
package enum AbortOutput {
  package static func write(_ record: AbortRecord) {
    guard record.status != .partial, record.status != .downstreamClosed, isatty(1) != 1 else {
      return
    }
    if let writer = RecordWriter.standardOutput.current {
      writer.writeAbort(record)
      return
    }
    var line = record.jsonBytes()
    line.append(0x0A)
    _ = line.withUnsafeBytes { POSIXIO.writeAll(1, $0) }
  }
}

extension AbortRecord {
  /// The record a tool writes when `error` ends it.
  package init(_ tool: String, _ error: CairnError) {
    self.init(tool: tool, status: error.status, message: error.description)
  }

  /// The same abort, passed on by `tool`.
  package func passed(on tool: String) -> AbortRecord {
    var record = self
    record.via.append(tool)
    return record
  }
}
