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
public final class RecordWriter: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private let limit: Int
  private let lock = Locked(())
  /// What happens when the reader of our output has gone away.
  public var onDownstreamClosed: DownstreamClosedPolicy = .exitQuietly
  public private(set) var downstreamClosed = false
  public private(set) var recordsWritten = 0

  public enum DownstreamClosedPolicy: Sendable {
    /// Exit at once with status 141, as a process killed by SIGPIPE would.
    case exitQuietly
    /// Drop further output and keep going (tools that must finish their journal).
    case discard
  }

  public init(fileDescriptor: Int32 = 1, bufferLimit: Int = 1 << 16) {
    self.fd = fileDescriptor
    self.limit = bufferLimit
    buffer.reserveCapacity(bufferLimit + 4096)
    // EPIPE instead of death by signal, so the policy above decides.
    signal(SIGPIPE, SIG_IGN)
  }

  public func write<R: Record>(_ record: R) {
    writeLine(record.jsonBytes())
  }

  /// Passes a line on exactly as it was read.
  public func writeLine(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { writeLine($0) }
  }

  /// Writes a line (without its newline) that is already an encoded record.
  public func writeLine(_ bytes: UnsafeRawBufferPointer) {
    lock.withLock { _ in
      buffer.append(contentsOf: bytes)
      buffer.append(0x0A)
      recordsWritten += 1
      if buffer.count >= limit { flushLocked() }
    }
  }

  public func flush() {
    lock.withLock { _ in flushLocked() }
  }

  private func flushLocked() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !downstreamClosed, !buffer.isEmpty else { return }
    guard buffer.withUnsafeBytes({ POSIXIO.writeAll(fd, $0) }) != 0 else { return }
    downstreamClosed = true
    if onDownstreamClosed == .exitQuietly { exit(ExitStatus.downstreamClosed.rawValue) }
  }
}
