import CairnRecords
import CairnSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Writes records to standard output, one line each, and nothing else.
///
/// Records are buffered and flushed whenever the tool is about to wait (see
/// `RecordReader.willBlock`) and when the buffer fills, so downstream stages see each record
/// without a system call per record. A closed downstream pipe ends the tool quietly.
///
/// The writer counts the records it writes by type and puts the counts in the end record
/// (`EndRecord.records`), so no tool counts by hand and a reader can tell a lost line.
package final class RecordWriter: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private let limit: Int
  private let lock = Locked(())
  /// What happens when the reader of our output has gone away.
  package var onDownstreamClosed: DownstreamClosedPolicy = .exitQuietly
  package private(set) var downstreamClosed = false
  package private(set) var recordsWritten = 0
  private var tally = RecordTally()

  /// The writer on standard output, once a tool has made one: `Tool.run` ends its output
  /// with an abort record through it, after the records it still holds.
  static let standardOutput = Locked<RecordWriter?>(nil)

  package enum DownstreamClosedPolicy: Sendable {
    /// Exit at once with status 141, as a process killed by SIGPIPE would.
    case exitQuietly
    /// Drop further output and keep going (tools that must finish their journal).
    case discard
  }

  package init(fileDescriptor: Int32 = 1, bufferLimit: Int = 1 << 16) {
    self.fd = fileDescriptor
    self.limit = bufferLimit
    buffer.reserveCapacity(bufferLimit + 4096)
    // EPIPE instead of death by signal, so the policy above decides.
    signal(SIGPIPE, SIG_IGN)
    if fileDescriptor == 1 { Self.standardOutput.withLock { $0 = self } }
  }

  package func write<R: Record>(_ record: R) {
    if R.self == EndRecord.self, let end = record as? EndRecord {
      write(end)
      return
    }
    writeLine(record.jsonBytes(), type: R.recordType)
  }

  /// The end record, with the counts of the records written before it.
  package func write(_ end: EndRecord) {
    lock.withLock { _ in
      var end = end
      end.records = tally.counts
      append(end.jsonBytes())
    }
  }

  /// Passes a record on exactly as it was read; `type` is its `type` field.
  package func writeLine(_ bytes: [UInt8], type: String) {
    bytes.withUnsafeBytes { writeLine($0, type: type) }
  }

  /// Writes a line (without its newline) that is already an encoded record of `type` (not an
  /// end record: those go through `write(_:)`, which counts).
  package func writeLine(_ bytes: UnsafeRawBufferPointer, type: String) {
    assert(type != EndRecord.recordType, "an end record must be written with write(_:)")
    lock.withLock { _ in
      if type != HeaderRecord.recordType { tally.add(type) }
      append(bytes)
    }
  }

  /// A line of text that is not a record (a table for a terminal): not counted.
  package func writeText(_ line: String) {
    var line = line
    line.withUTF8 { text in lock.withLock { _ in append(UnsafeRawBufferPointer(text)) } }
  }

  /// Ends the output with `record` after everything written so far, even if the reader has
  /// gone (a failing tool must exit with its own status, not 141).
  package func writeAbort(_ record: AbortRecord) {
    lock.withLock { _ in
      onDownstreamClosed = .discard
      append(record.jsonBytes())
      flushLocked()
    }
  }

  package func flush() {
    lock.withLock { _ in flushLocked() }
  }

  private func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  private func append(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
    buffer.append(0x0A)
    recordsWritten += 1
    if buffer.count >= limit { flushLocked() }
  }

  private func flushLocked() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !downstreamClosed, !buffer.isEmpty else { return }
    guard buffer.withUnsafeBytes({ POSIXIO.writeAll(fd, $0) }) != 0 else { return }
    downstreamClosed = true
    if onDownstreamClosed == .exitQuietly { exit(ExitStatus.downstreamClosed.rawValue) }
  }
}
