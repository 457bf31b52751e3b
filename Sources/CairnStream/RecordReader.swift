import CairnJSON
import CairnRecords

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// One line of input: where it came from, its bytes, and the parsed object.
package struct InputLine: Sendable {
  /// 1-based line number, for `<stdin>:17:` diagnostics.
  package let number: Int
  /// The line without its newline: pass these bytes on to keep a record exactly as it came.
  package let bytes: [UInt8]
  package let object: JSONObject
  /// The record's `type` field.
  package let type: String

  /// Decodes the line as a specific record type.
  package func decode<R: Record>(_: R.Type) throws(InputError) -> R {
    do {
      return try R(object)
    } catch {
      throw InputError(
        source: "", line: number, message: "invalid \(type) record: \(error.message)")
    }
  }
}

/// Malformed or truncated input: `<stdin>:17: invalid record: ...`.
package struct InputError: Error, Sendable, CustomStringConvertible {
  package var source: String
  package let line: Int
  package let message: String

  package init(source: String, line: Int, message: String) {
    self.source = source
    self.line = line
    self.message = message
  }

  package var description: String {
    line > 0 ? "\(source):\(line): \(message)" : "\(source): \(message)"
  }
}

/// Reads newline-delimited JSON records from a file descriptor in constant memory.
package final class RecordReader {
  /// The longest line accepted, newline excluded. The longest legitimate records are a header
  /// and an end record listing every root of a scan (a few hundred bytes a root) and a
  /// candidate with the paths of every copy of a photo; 8 MiB leaves room for tens of
  /// thousands of either, and bounds what one line can make a reader hold.
  package static let maximumLineLength = 8 << 20

  package let sourceName: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEOF = false
  private var lineNumber = 0
  /// Where `buffer` starts in the input.
  private var bufferOffset = 0
  /// Where the last line read starts in the input (see `lastLineOffset`).
  private var lineOffset = 0
  /// Lines a `known` closure claimed (see `next(skipping:)`).
  package private(set) var linesClaimed = 0
  /// Called before a read that may block, so a filter can flush what it has written: records
  /// reach the next stage as soon as they are made, without a system call per record.
  package var willBlock: (() -> Void)?

  package init(fileDescriptor: Int32 = 0, sourceName: String = "<stdin>", bufferSize: Int = 1 << 20)
  {
    self.fd = fileDescriptor
    self.sourceName = sourceName
    self.ownsDescriptor = false
    self.buffer = [UInt8](repeating: 0, count: bufferSize)
  }

  /// Opens a file of records (e.g. `--server FILE`); `-` means standard input.
  package init(path: String) throws(InputError) {
    if path == "-" {
      self.fd = 0
      self.sourceName = "<stdin>"
      self.ownsDescriptor = false
    } else {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw InputError(source: path, line: 0, message: String(cString: strerror(errno)))
      }
      self.fd = fd
      self.sourceName = path
      self.ownsDescriptor = true
    }
    self.buffer = [UInt8](repeating: 0, count: 1 << 20)
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// The next non-blank line, parsed; nil at the end of input.
  package func next() throws(InputError) -> InputLine? { try next(skipping: nil) }

  /// The next non-blank line, parsed, that `known` does not claim; nil at the end of input.
  /// `known` sees each line's bytes in place, before anything is copied or parsed: a line it
  /// claims is passed over (and counted), for a reader that knows it already.
  package func next(skipping known: ((UnsafeBufferPointer<UInt8>) -> Bool)?) throws(InputError)
    -> InputLine?
  {
    while true {
      guard let range = try nextLineRange() else { return nil }
      lineNumber += 1
      lineOffset = bufferOffset + range.lowerBound
      if let known {
        let claimed = buffer.withUnsafeBufferPointer {
          known(UnsafeBufferPointer(rebasing: $0[range]))
        }
        if claimed {
          linesClaimed += 1
          continue
        }
      }
      let bytes = Array(buffer[range])
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let object: JSONObject
      do {
        object = try JSONObject(parsing: bytes)
      } catch {
        throw InputError(
          source: sourceName, line: lineNumber,
          message: "invalid record: \(Self.explain(error, bytes))")
      }
      guard let type = object["type"]?.string else {
        throw InputError(
          source: sourceName, line: lineNumber, message: "invalid record: no string 'type' field")
      }
      return InputLine(number: lineNumber, bytes: bytes, object: object, type: type)
    }
  }

  /// A syntax error, said in terms of the stream where a plain JSON message would puzzle.
  private static func explain(_ error: JSONSyntaxError, _ line: [UInt8]) -> String {
    if line.contains(0x0D) {
      return "carriage return in the line (cairn lines end with a newline alone)"
    }
    if line.contains(0) { return "NUL byte in the line" }
    return error.description
  }

  /// The number of the last line read (blank and passed-over lines included).
  package var lastLineNumber: Int { lineNumber }

  /// Where the last line read (or passed to `known`) starts, in bytes from where this reader
  /// began reading: with `readsFile`, where to read it again.
  package var lastLineOffset: Int { lineOffset }

  /// Whether this reader opened a regular file itself (`init(path:)`), which can be read again
  /// at an offset while it is open; a pipe or a terminal cannot.
  package var readsFile: Bool {
    guard ownsDescriptor else { return false }
    var status = stat()
    return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// A descriptor of its own for the file this reader reads (see `readsFile`), or nil.
  package func duplicateDescriptor() -> Int32? {
    guard readsFile else { return nil }
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
    return copy >= 0 ? copy : nil
  }

  /// Wraps an error found while decoding `line` with this reader's name.
  package func error(at line: InputLine, _ message: String) -> InputError {
    InputError(source: sourceName, line: line.number, message: message)
  }

  /// Where the next line lies in `buffer` (valid until the next read), without its newline.
  private func nextLineRange() throws(InputError) -> Range<Int>? {
    while true {
      if let newline = findNewline() {
        let line = start..<newline
        start = newline + 1
        if line.count > Self.maximumLineLength { throw lineTooLong() }
        return line
      }
      if atEOF {
        guard start < end else { return nil }
        // A last line without its newline: the writer was cut off mid-record.
        throw InputError(
          source: sourceName, line: lineNumber + 1,
          message: "truncated stream: the last line has no newline")
      }
      try fill()
    }
  }

  private func lineTooLong() -> InputError {
    InputError(
      source: sourceName, line: lineNumber + 1,
      message: "invalid record: the line is longer than \(Self.maximumLineLength >> 20) MiB")
  }

  private func findNewline() -> Int? {
    guard start < end else { return nil }
    return buffer.withUnsafeBufferPointer { b -> Int? in
      guard let base = b.baseAddress,
        let found = memchr(base + start, 0x0A, end - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  private func fill() throws(InputError) {
    if start > 0 {
      // Slide the partial line to the front.
      let remaining = end - start
      if remaining > 0 {
        let from = start
        buffer.withUnsafeMutableBytes { b in
          b.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[from..<(from + remaining)]))
        }
      }
      bufferOffset += start
      start = 0
      end = remaining
    }
    if end > Self.maximumLineLength { throw lineTooLong() }
    if end == buffer.count {
      // One line longer than the buffer: grow rather than fail on a long path list.
      buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
    }
    willBlock?()
    while true {
      let filled = end
      let count = buffer.withUnsafeMutableBytes { b in
        let free = UnsafeMutableRawBufferPointer(rebasing: b[filled...])
        return read(fd, free.baseAddress, free.count)
      }
      if count > 0 {
        end += count
        return
      }
      if count == 0 {
        atEOF = true
        return
      }
      if errno == EINTR { continue }
      throw InputError(source: sourceName, line: 0, message: String(cString: strerror(errno)))
    }
  }
}
