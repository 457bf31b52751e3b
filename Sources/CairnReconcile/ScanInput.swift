import CairnEngine
import CairnJSON
import CairnRecords
import CairnState
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// A scan stream read to its end: the files, the header, the end record, the errors.
package struct ScanInput: Sendable {
  package var header: HeaderRecord
  package var files: ScanFiles
  package var end: EndRecord?
  package var errors: [ErrorRecord]
  /// Files known from the last scan's snapshot without parsing their lines (see `read`).
  package var recognised = 0

  /// The per-root statuses: the end record's, or (when it lists none) the header's roots with
  /// any root that has an error record marked incomplete.
  package var roots: [RootStatus] {
    var statuses = end?.roots ?? []
    if statuses.isEmpty {
      statuses = header.roots.map { root in
        RootStatus(path: root, complete: end?.complete ?? false, files: 0)
      }
    }
    let broken = Set(errors.compactMap(\.root))
    // An end record that calls the scan incomplete yet names no incomplete root says too
    // little to trust any root.
    let incompleteScan = end?.complete == false && statuses.allSatisfy(\.complete)
    return statuses.map { status in
      var status = status
      if incompleteScan {
        status.complete = false
        status.problem = status.problem ?? "the end record says the scan is incomplete"
      }
      if broken.contains(status.path) && status.complete {
        status.complete = false
        status.problem = status.problem ?? "error records for this root"
      }
      return status
    }
  }

  /// Roots whose scan is recorded as complete: no problem, and nothing out of scope. (A root
  /// with a volume away is recorded as a partial scan, which only adds: the paths last seen on
  /// the volume stay known, so a copy of one of its photos deleted elsewhere meanwhile is not
  /// judged gone. The engine judges the rest of the root from the root statuses.)
  package var completeRoots: Set<String> {
    roots.paths(.whole)
  }

  /// Roots scanned completely apart from folders out of scope: recorded as partial scans, but
  /// covered by the scan's snapshot (see `PartitionStore.recordScan`).
  package var scopedRoots: Set<String> {
    roots.paths(.scoped)
  }

  /// Whether a stage upstream already recorded this scan in the observed store.
  package var alreadyObserved: Bool { header.pipeline.contains("cairn-observe") }

  /// Reads `stream` to its end. `passThrough` sees every line (header and end included) as it
  /// comes, for filters.
  ///
  /// `previous`, once it has finished reading the last scan's snapshot, lets unchanged lines
  /// go unparsed: a line whose digest is that of the line one of the snapshot's next files was
  /// read from is that file (its bytes are the same, so its record is). The snapshot is
  /// followed in order, a file or two skipped where files were deleted; after a line that had
  /// to be parsed, the follower moves to that line's path if the snapshot has it (found by
  /// bisection, as the walk lists paths in order: a folder deleted, a file edited) and stays
  /// otherwise (a new file, a scan in another order). Where the guess is wrong, lines are only
  /// parsed. (Not with `passThrough`, which needs every line parsed.)
  package static func read(
    _ stream: RecordStream, passThrough: ((InputLine) -> Void)? = nil,
    previous: BackgroundWork<ScanSnapshotPreload>? = nil
  ) throws(CairnError) -> ScanInput {
    var files = ScanFiles()
    var follower = passThrough == nil ? previous.map(SnapshotFollower.init) : nil
    let known: ((UnsafeBufferPointer<UInt8>) -> Bool)? =
      follower == nil
      ? nil
      : { line in
        guard let (index, snapshot) = follower?.expected(line) else { return false }
        files.append(index, of: snapshot)
        return true
      }
    while let line = try stream.next(skipping: known, claimedAs: FileRecord.recordType) {
      passThrough?(line)
      guard line.type == FileRecord.recordType else { continue }
      do {
        let digest = line.bytes.withUnsafeBufferPointer(LineDigest.init)
        let file = try ScannedFile(fileRecord: line.object, lineDigest: digest)
        follower?.passed(file)
        files.append(file)
      } catch {
        throw CairnError(
          .malformedInput, "invalid file record: \(error)",
          at: "\(stream.reader.sourceName):\(line.number)")
      }
    }
    return ScanInput(
      header: stream.header, files: files, end: stream.end, errors: stream.errors,
      recognised: follower?.recognised ?? 0)
  }
}

/// Follows the last scan's snapshot along a new scan (see `ScanInput.read`).
private struct SnapshotFollower {
  let loading: BackgroundWork<ScanSnapshotPreload>
  var previous: LastScan?
  var next = 0
  var recognised = 0
  /// Lines until the snapshot is looked for again while it is still being read.
  var wait = 0

  init(_ loading: BackgroundWork<ScanSnapshotPreload>) { self.loading = loading }

  /// The file `line` was read from, when it is one of the snapshot's next few: its index
  /// there, and the snapshot.
  mutating func expected(_ line: UnsafeBufferPointer<UInt8>) -> (Int, any ScanFileSource)? {
    guard let previous = loaded(), next < previous.count else { return nil }
    let digest = LineDigest(line)
    for candidate in next..<min(next + 3, previous.count)
    where previous.files.lineDigest(candidate) == digest {
      next = candidate + 1
      recognised += 1
      return (candidate, previous.files)
    }
    return nil
  }

  /// After a line that was parsed: moves past the snapshot's file at its path, if there is one
  /// ahead (see `ScanInput.read`).
  mutating func passed(_ file: ScannedFile) {
    guard let previous = loaded() else { return }
    file.path.withBytes { path in
      var low = next
      var high = previous.count
      while low < high {
        let middle = (low + high) / 2
        if LastScan.walkOrder(previous.files.pathBytes(middle), path) < 0 {
          low = middle + 1
        } else {
          high = middle
        }
      }
      if low < previous.count && previous.files.pathBytes(low).sameBytes(as: path) {
        next = low + 1
      }
    }
  }

  private mutating func loaded() -> LastScan? {
    if previous != nil { return previous }
    guard wait == 0 else {
      wait -= 1
      return nil
    }
    wait = 1024
    previous = loading.finishedValue?.lastScan
    return previous
  }
}
