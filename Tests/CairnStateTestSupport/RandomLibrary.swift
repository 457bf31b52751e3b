import CairnJSON
import CairnRecords
import CairnSealedFiles
import CairnState
import CairnSupport

/// A library that changes at random: two roots, a few dozen files, checksums from a small
/// alphabet so that the same bytes often sit at several paths.
package struct RandomLibrary {
  package struct Entry {
    package var root: String
    package var checksum: String
    package var inode: UInt64?
    /// How often its metadata changed (its line does, not its record).
    package var touches = 0
  }
  package var files: [ByteKey: Entry] = [:]
  package var nextInode: UInt64 = 1
  package var edits = 0

  package init() {}

  package mutating func change(_ random: inout SplitMix) {
    for _ in 0..<(1 + random.below(4)) {
      let paths = files.keys.sorted { $0.string.utf8.lexicographicallyPrecedes($1.string.utf8) }
      let choice = random.below(12)
      guard choice < 9, !paths.isEmpty else {  // added
        let root = random.below(2) == 0 ? "/a" : "/b"
        files[newPath(&random, root: root)] = Entry(
          root: root, checksum: checksum(&random), inode: random.below(8) == 0 ? nil : inode())
        continue
      }
      let path = paths[random.below(paths.count)]
      guard var entry = files[path] else { continue }
      switch choice {
      case 0:  // deleted
        files[path] = nil
      case 1:  // renamed in its folder: same inode
        files[path] = nil
        files[newPath(&random, root: entry.root)] = entry
      case 2:  // moved to the other root: a new inode
        files[path] = nil
        entry.root = entry.root == "/a" ? "/b" : "/a"
        entry.inode = inode()
        files[newPath(&random, root: entry.root)] = entry
      case 3:  // edited in place
        edits += 1
        entry.checksum = "E\(edits)"
        files[path] = entry
      case 4:  // reverted to an earlier version, or to a common one
        entry.checksum =
          random.below(2) == 0 && edits > 0 ? "E\(random.below(edits) + 1)" : checksum(&random)
        files[path] = entry
      case 5:  // copied
        entry.inode = inode()
        files[newPath(&random, root: entry.root)] = entry
      case 6:  // hard-linked
        files[newPath(&random, root: entry.root)] = entry
      case 7:  // touched: same record, another line
        entry.touches += 1
        files[path] = entry
      default:  // replaced: same path, new inode
        entry.inode = inode()
        entry.checksum = checksum(&random)
        files[path] = entry
      }
    }
  }

  /// The files as a scan lists them: in walk order, sometimes shuffled a little; with the
  /// digests of the lines they would have been read from when `digested`, or mostly.
  package func scan(_ random: inout SplitMix, digested: Bool? = nil) -> [ScannedFile] {
    let digested = digested ?? (random.below(4) != 0)
    var listed = files.sorted { a, b in
      a.key.string.withBytes { x in b.key.string.withBytes { y in LastScan.walkOrder(x, y) < 0 } }
    }
    .map { path, entry in
      let identity = FileIdentity(
        device: entry.inode == nil ? nil : 7, inode: entry.inode, path: path.string)
      let line = "\(entry.root)|\(path.string)|\(entry.checksum)|\(identity.key)|\(entry.touches)"
      return ScannedFile(
        root: entry.root, path: path.string, checksum: entry.checksum, identity: identity,
        lineDigest: digested ? line.withBytes(LineDigest.init) : nil)
    }
    if listed.count > 2 && random.below(4) == 0 { listed.swapAt(0, listed.count - 1) }
    return listed
  }

  package func someChecksum(_ random: inout SplitMix) -> String {
    let checksums = files.values.map(\.checksum).sorted()
    return checksums.isEmpty ? "G0" : checksums[random.below(checksums.count)]
  }

  private mutating func inode() -> UInt64 {
    defer { nextInode += 1 }
    return nextInode
  }

  private func checksum(_ random: inout SplitMix) -> String { "C\(random.below(12))" }

  /// A path not in use; sometimes the same name in the other Unicode normalisation.
  private func newPath(_ random: inout SplitMix, root: String) -> ByteKey {
    while true {
      let name = random.below(3) == 0 ? (random.below(2) == 0 ? "caf\u{E9}" : "cafe\u{301}") : "f"
      let folder = ["0", "0-1", "1"][random.below(3)]
      let path = ByteKey("\(root)/\(folder)/\(name)\(random.below(40)).jpg")
      if files[path] == nil { return path }
    }
  }
}

/// A small seeded generator, so a failing history can be replayed.
package struct SplitMix: RandomNumberGenerator {
  package var state: UInt64
  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
