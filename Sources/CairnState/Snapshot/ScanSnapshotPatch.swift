import CairnSealedFiles
import CairnSettings
import Foundation

/// A scan snapshot written as its difference from the last full one, when the scan differs
/// from the last in a few files: runs of the full file's files, and the files the patch lists
/// itself. Rewriting a hundred megabytes for a million unchanged files would cost more than
/// everything else recording does; the patch costs a pass over the scan and a few kilobytes.
///
/// The full file stays as it was; the database names the patch (its length and digest, as it
/// would name a full file), and the patch names the full file it was made over. Each patch is
/// made over the same full file, so it holds everything that changed since that file was
/// written; once that is much (an eighth of the scan listed by the patch, or half the full
/// file's files gone), a full file is written instead and the patch removed.
///
/// The file: a magic line and a version, the full file's length and digest (64-bit), the
/// roots, the absent checksums and the identities listed more than once (as in the full
/// file), the number of files, then pieces: `0`, start and count (a run of the full file's
/// files), or `1` and a file as the full file writes one. It ends with its own digest.
extension ScanSnapshot {
  struct Patch: SnapshotFile.Encoding {
    static let fileName = CairnPaths.scanSnapshotPatchName
    static let magic = Array("cairn-scan-patch\n".utf8)
    static let version: UInt32 = 2

    /// When a patch is written rather than a full file (tests ask for one or the other).
    enum Policy: Sendable { case whenSmall, always, never }

    private enum Piece {
      case run(start: Int, count: Int)
      case file(Int)
    }

    let snapshot: Contents
    let full: ScanSnapshot.FullFile
    private let pieces: [Piece]

    /// The patch that gives `snapshot` over the full file under `previous`; `sources` holds,
    /// for each of the snapshot's files, the index of the file of `previous` it may be
    /// unchanged from, or -1. Nil when a full file is called for (see the type).
    init?(
      _ snapshot: ScanSnapshot.Contents, over previous: ScanSnapshot, sources: [Int32],
      policy: Policy
    ) {
      guard policy != .never, previous.roots == snapshot.roots,
        sources.count == snapshot.files.count
      else { return nil }
      var pieces: [Piece] = []
      var listed = 0
      var kept = 0
      for index in snapshot.files.indices {
        let source = Int(sources[index])
        guard source >= 0, let at = previous.fullIndex(source),
          previous.isSame(source, as: snapshot.files, index)
        else {
          listed += 1
          pieces.append(.file(index))
          continue
        }
        kept += 1
        if case .run(let start, let count)? = pieces.last, start + count == at {
          pieces[pieces.count - 1] = .run(start: start, count: count + 1)
        } else {
          pieces.append(.run(start: at, count: 1))
        }
      }
      if policy == .whenSmall {
        guard listed <= snapshot.files.count / 8, kept * 2 >= previous.full.count else {
          return nil
        }
      }
      self.snapshot = snapshot
      full = previous.full
      self.pieces = pieces
    }

    /// Streams the file's bytes to `sink` (see `SnapshotFile.encode`). Throws
    /// `ScanSnapshot.TooBig` when it and the full file would pass 4 GiB together (they are read
    /// into one buffer with 32-bit offsets).
    @discardableResult
    func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
      length: Int, digest: UInt64
    ) {
      var size = Self.magic.count + 4 * 7 + 8 * 3
      for string in snapshot.roots + snapshot.absent + snapshot.sharedIdentities {
        size += 4 + string.utf8.count
      }
      for piece in pieces {
        switch piece {
        case .run: size += 12
        case .file(let index): size += 4 + ScanSnapshot.Contents.encodedSize(snapshot.files, index)
        }
      }
      guard full.length + size <= Int(UInt32.max) else { throw ScanSnapshot.TooBig() }
      return try SnapshotFile.encode(into: sink) { writer in
        try writer.append(Self.magic)
        try writer.append(Self.version)
        try writer.append(UInt64(full.length))
        try writer.append(full.digest)
        try writer.append(snapshot.roots)
        try writer.append(snapshot.absent)
        try writer.append(snapshot.sharedIdentities)
        try writer.append(UInt32(snapshot.files.count))
        try writer.append(UInt32(pieces.count))
        var rootIndex = ScanSnapshot.RootIndex(snapshot.roots)
        for piece in pieces {
          switch piece {
          case .run(let start, let count):
            try writer.append(UInt32(0))
            try writer.append(UInt32(start))
            try writer.append(UInt32(count))
          case .file(let index):
            try writer.append(UInt32(1))
            try ScanSnapshot.Contents.append(
              snapshot.files, index, rootIndex: &rootIndex, to: &writer)
          }
        }
      }
    }

    /// A patch read back, up to its pieces; `ScanSnapshot` reads those after the full file.
    struct Stored {
      let bytes: [UInt8]
      let length: Int
      let digest: UInt64
      let fullLength: Int
      let fullDigest: UInt64
      let roots: [String]
      let absent: [String]
      let sharedIdentities: [String]
      let count: Int
      /// Where the number of pieces lies in `bytes`.
      let filesOffset: Int

      /// Reads the patch at `path`; nil when there is none or it is not one this version wrote.
      static func load(_ path: String) -> Stored? {
        FileManager.default.contents(atPath: path).flatMap { Stored(Array($0)) }
      }

      init?(_ bytes: [UInt8]) {
        let header = bytes.withUnsafeBytes {
          raw -> (UInt64, UInt64, [String], [String], [String], UInt32, Int)? in
          guard SnapshotFile.hasOwnDigest(raw) else { return nil }
          var reader = SnapshotFile.Reader(UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 8]))
          guard
            reader.bytes(ScanSnapshot.Patch.magic.count)?.elementsEqual(ScanSnapshot.Patch.magic)
              == true,
            reader.integer() == ScanSnapshot.Patch.version, let fullLength = reader.word(),
            fullLength <= UInt64(UInt32.max), let fullDigest = reader.word(),
            let roots = reader.strings(), let absent = reader.strings(),
            let shared = reader.strings(), let count = reader.integer()
          else { return nil }
          return (fullLength, fullDigest, roots, absent, shared, count, reader.offset)
        }
        guard let (fullLength, fullDigest, roots, absent, shared, count, offset) = header else {
          return nil
        }
        self.bytes = bytes
        length = bytes.count
        digest = bytes.withUnsafeBytes {
          UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        self.fullLength = Int(fullLength)
        self.fullDigest = fullDigest
        self.roots = roots
        self.absent = absent
        sharedIdentities = shared
        self.count = Int(count)
        filesOffset = offset
      }

      /// The patch's files in `ScanSnapshot`'s terms: `raw` holds the full file (decoded as
      /// `full`) and then the patch up to its digest; its pieces start at `offset`. Nil when
      /// they are not what this version wrote.
      func decodeFiles(
        _ raw: UnsafeRawBufferPointer, from offset: Int, over full: ScanSnapshot.FullDecoding
      )
        -> (fields: [UInt32], digests: [UInt64], fullIndexes: [Int32])?
      {
        var reader = SnapshotFile.Reader(raw, from: offset)
        guard let pieces = reader.count() else { return nil }
        var fields: [UInt32] = []
        var digests: [UInt64] = []
        var fullIndexes: [Int32] = []
        // Reserved for what the file can hold, not for the count it states: a damaged count
        // must not ask for gigabytes (a crash the fuzzer found, fuzz/corpus/patched-scan-snapshot).
        let expected = min(count, full.count + raw.count - offset)
        fields.reserveCapacity(expected * 7)
        digests.reserveCapacity(expected * 2)
        fullIndexes.reserveCapacity(expected)
        for _ in 0..<pieces {
          switch reader.integer() {
          case 0:
            guard let start = reader.integer().map(Int.init),
              let run = reader.integer().map(Int.init),
              run > 0, start + run <= full.count, fullIndexes.count + run <= count
            else { return nil }
            fields.append(contentsOf: full.fields[start * 7..<(start + run) * 7])
            digests.append(contentsOf: full.digests[start * 2..<(start + run) * 2])
            fullIndexes.append(contentsOf: (start..<start + run).lazy.map { Int32($0) })
          case 1:
            guard fullIndexes.count < count,
              reader.file(roots: roots.count, fields: &fields, digests: &digests)
            else { return nil }
            fullIndexes.append(-1)
          default:
            return nil
          }
        }
        guard reader.atEnd, fullIndexes.count == count else { return nil }
        return (fields, digests, fullIndexes)
      }
    }
  }
}
