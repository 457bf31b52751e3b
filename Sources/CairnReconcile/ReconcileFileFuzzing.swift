import CairnSealedFiles
import CairnState
import Foundation

/// Entry points for the fuzzing harness (`fuzz/`) into the reconcile library's own cache files,
/// as `StateFileFuzzing` is into the state's: each reads arbitrary bytes, sealed with their
/// digest, the way cairn-reconcile reads the file, and says whether it was accepted.
package enum ReconcileFileFuzzing {
  /// The user the listing snapshots of the seed corpus were made for.
  package static let listingUser = "0d8f6c1e-1111-4222-8333-444455556666"

  /// A listing snapshot of `listingUser`, entry by entry.
  @discardableResult
  package static func listingSnapshot(_ data: [UInt8]) -> Bool {
    guard let stored = ListingSnapshot.Stored(SnapshotFile.sealed(data), userId: listingUser)
    else {
      return false
    }
    for index in 0..<stored.count {
      _ = stored.digest(index)
      _ = stored.entry(index)
    }
    return true
  }

  /// A presence cache, read from a file as the tools read it.
  @discardableResult
  package static func presenceCache(_ data: [UInt8]) -> Bool {
    let path = NSTemporaryDirectory() + "/cairn-fuzz-presence-\(getpid())"
    defer { unlink(path) }
    let sealed = SnapshotFile.sealed(data)
    guard FileManager.default.createFile(atPath: path, contents: Data(sealed)) else {
      return false
    }
    return PresenceCache.load(path) != nil
  }
}
