import CairnCore
import Foundation

extension ScannedFile {
  /// Reads the fields the engine needs straight from a `file` record, skipping the rest (the
  /// record's size and mtime cost a date parse per line that a million-file scan can't afford).
  public init(fileRecord object: JSONObject) throws(RecordError) {
    let path = try object.string("path")
    self.init(
      root: try object.optionalString("root") ?? "", path: path,
      checksum: try object.string("checksum"),
      identity: FileIdentity(
        device: try object.optionalUInt64("dev"), inode: try object.optionalUInt64("ino"),
        path: path))
  }
}

/// A scan stream read to its end: the files, the header, the end record, the errors.
public struct ScanInput: Sendable {
  public var header: HeaderRecord
  public var files: [ScannedFile]
  public var end: EndRecord?
  public var errors: [ErrorRecord]

  /// The per-root statuses: the end record's, or (when it lists none) the header's roots with
  /// any root that has an error record marked incomplete.
  public var roots: [RootStatus] {
    var statuses = end?.roots ?? []
    if statuses.isEmpty {
      statuses = header.roots.map { root in
        RootStatus(path: root, complete: end?.complete ?? false, files: 0)
      }
    }
    let broken = Set(errors.compactMap(\.root))
    return statuses.map { status in
      var status = status
      if broken.contains(status.path) && status.complete {
        status.complete = false
        status.problem = status.problem ?? "error records for this root"
      }
      return status
    }
  }

  /// Roots that can make something gone: complete, no problem.
  public var completeRoots: Set<String> {
    Set(roots.filter { $0.complete && $0.problem == nil }.map(\.path))
  }

  /// Whether a stage upstream already recorded this scan in the observed store.
  public var alreadyObserved: Bool { header.pipeline.contains("cairn-observe") }

  /// Reads `stream` to its end. `passThrough` sees every line (header and end included) as it
  /// comes, for filters.
  public static func read(
    _ stream: RecordStream, passThrough: ((InputLine) -> Void)? = nil
  ) throws(CairnError) -> ScanInput {
    var files: [ScannedFile] = []
    while let line = try stream.next() {
      passThrough?(line)
      guard line.type == FileRecord.recordType else { continue }
      do {
        files.append(try ScannedFile(fileRecord: line.object))
      } catch {
        throw CairnError(
          .malformedInput, "invalid file record: \(error)",
          at: "\(stream.reader.sourceName):\(line.number)")
      }
    }
    return ScanInput(header: stream.header, files: files, end: stream.end, errors: stream.errors)
  }
}
