import CairnJSON
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The append-only record of every run on one partition: `journal.ndjson` in the partition's
/// state folder, mode 0600.
///
/// Each entry is one line, written with a single `write` on an `O_APPEND` descriptor and
/// `fsync`'d before the step it records is taken as done. A crash can therefore leave at most a
/// torn last line; readers ignore it and the next writer cuts it off before appending, so the
/// file always parses. One writer at a time is the caller's business (the partition lock).
package final class Journal {
  package let path: String
  private var fd: Int32 = -1

  /// The journal file of a partition.
  package static func path(_ paths: CairnPaths, _ partition: ServerPartition) -> String {
    CairnPaths.journal(inPartitionFolder: paths.partitionDirectory(partition))
  }

  package init(path: String) {
    self.path = path
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Appends one entry and makes it durable.
  package func append(_ entry: JournalEntry) throws(CairnError) {
    try openForAppend()
    var line = entry.jsonBytes()
    line.append(0x0A)
    var offset = 0
    while offset < line.count {
      let n = line.withUnsafeBufferPointer { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return write(fd, base + offset, buffer.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw CairnError(.stateFailure, "cannot write the journal: \(lastError())", at: path)
      }
      offset += n
    }
    guard fsync(fd) == 0 else {
      throw CairnError(.stateFailure, "cannot sync the journal: \(lastError())", at: path)
    }
  }

  /// Every entry in order. A torn last line (a crash mid-write) is left out.
  package func read() throws(CairnError) -> JournalContents {
    guard let data = FileManager.default.contents(atPath: path) else {
      if access(path, F_OK) != 0 {
        return JournalContents(entries: [], tornTail: false, skipped: [])
      }
      throw CairnError(.stateFailure, "cannot read the journal", at: path)
    }
    return JournalContents.parse(Array(data))
  }

  private func openForAppend() throws(CairnError) {
    guard fd < 0 else { return }
    let directory = (path as NSString).deletingLastPathComponent
    try CairnPaths.makePrivateDirectory(directory)
    let opened = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard opened >= 0 else {
      throw CairnError(.stateFailure, "cannot open the journal: \(lastError())", at: path)
    }
    fd = opened
    try repairTornTail()
  }

  /// Cuts a last line that has no newline: it is an entry whose write a crash interrupted, so
  /// the step it describes was never taken as done.
  private func repairTornTail() throws(CairnError) {
    let size = lseek(fd, 0, SEEK_END)
    guard size > 0 else { return }
    var last: UInt8 = 0
    guard pread(fd, &last, 1, size - 1) == 1 else { return }
    if last == 0x0A { return }
    // Find the last newline, reading backwards in chunks.
    var end = size
    var keep: off_t = 0
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    search: while end > 0 {
      let start = max(0, end - off_t(chunk.count))
      let count = Int(end - start)
      let n = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return pread(fd, base, count, start)
      }
      guard n == count else { break }
      for i in stride(from: count - 1, through: 0, by: -1) where chunk[i] == 0x0A {
        keep = start + off_t(i) + 1
        break search
      }
      end = start
    }
    guard ftruncate(fd, keep) == 0, fsync(fd) == 0 else {
      throw CairnError(.stateFailure, "cannot repair the journal: \(lastError())", at: path)
    }
  }

  private func lastError() -> String { String(cString: strerror(errno)) }
}

/// What a journal file holds.
package struct JournalContents: Sendable {
  package var entries: [JournalEntry]
  /// True when the file ended in a line without a newline (left out of `entries`).
  package var tornTail: Bool
  /// Line numbers of complete lines that did not parse (left out; reported, never fatal).
  package var skipped: [Int]

  package static func parse(_ bytes: [UInt8]) -> JournalContents {
    var entries: [JournalEntry] = []
    var skipped: [Int] = []
    var lineNumber = 0
    var start = 0
    var tornTail = false
    while start < bytes.count {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
        tornTail = true
        break
      }
      lineNumber += 1
      let line = Array(bytes[start..<newline])
      start = newline + 1
      if line.isEmpty { continue }
      guard let object = try? JSONObject(parsing: line), let entry = try? JournalEntry(object)
      else {
        skipped.append(lineNumber)
        continue
      }
      entries.append(entry)
    }
    return JournalContents(entries: entries, tornTail: tornTail, skipped: skipped)
  }

  /// The runs the journal describes, oldest first.
  package var runs: [RunHistory] { RunHistory.reconstruct(entries) }
}
