import CairnSealedFiles
import Foundation

/// Entry points for the fuzzing harness (`fuzz/`): each reads arbitrary bytes as one of the
/// state's own files, the way the tools read them, and touches what a reader would. Public so
/// that the harness needs no `@testable` import (it is built in release too); nothing else
/// calls them. Each says whether the reader accepted the input, so a corpus can be checked to
/// reach past the first refusal.
///
/// The files end with the digest of what comes before it, and a file whose digest is wrong is
/// ignored before it is parsed; the entry points seal the input with its digest so that the
/// fuzzer reaches the parsing behind that check.
package enum StateFileFuzzing {
  /// A scan snapshot, touched file by file.
  @discardableResult
  package static func scanSnapshot(_ data: [UInt8]) -> Bool {
    guard let scan = ScanSnapshot.decode(SnapshotFile.sealed(data)) else { return false }
    touch(scan)
    return true
  }

  /// A scan snapshot and a patch over it: the input's first four bytes (little-endian) say
  /// how many of the rest are the snapshot; the patch is what follows.
  @discardableResult
  package static func patchedScanSnapshot(_ data: [UInt8]) -> Bool {
    guard data.count >= 4 else { return false }
    let length = data[0..<4].reversed().reduce(0) { $0 << 8 | Int($1) }
    let rest = Array(data.dropFirst(4))
    let split = min(length, rest.count)
    let full = SnapshotFile.sealed(Array(rest[..<split]))
    guard
      let scan = ScanSnapshot.decode(full, patchedWith: SnapshotFile.sealed(Array(rest[split...])))
    else {
      return false
    }
    touch(scan)
    return true
  }

  private static func touch(_ scan: ScanSnapshot) {
    for index in 0..<scan.count {
      _ = scan.file(index)
      _ = scan.lineDigest(index)
      _ = scan.fullIndex(index)
    }
  }
}
