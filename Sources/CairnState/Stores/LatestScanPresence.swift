import CairnStream

/// Which checksums the partition's latest recorded scan holds, asked at the moment of acting:
/// `cairn-trash` never sends a Live Photo's motion video whose bytes are in the library, and
/// puts back only assets whose bytes are, whatever the stream it reads says.
package enum ScanPresence: Sendable, Equatable {
  /// The latest recorded scan, read: these of the checksums asked about are in it.
  case known(Set<String>)
  /// No scan was ever recorded for the partition: nothing is known to be in the library.
  case noScan
  /// A scan was recorded but its snapshot cannot be read (moved, damaged): nothing can be
  /// told, and whoever acts must assume the worst.
  case unknown

  /// Whether `checksum` is known to be absent from the library (false when in doubt).
  package func isAbsent(_ checksum: String) -> Bool {
    switch self {
    case .known(let present): return !present.contains(checksum)
    case .noScan: return true
    case .unknown: return false
    }
  }

  /// Whether `checksum` is known to be in the library (false when in doubt).
  package func isPresent(_ checksum: String) -> Bool {
    if case .known(let present) = self { return present.contains(checksum) }
    return false
  }
}

extension PartitionStore {
  /// Which of `checksums` the latest recorded scan holds (its snapshot, one pass over it).
  package func presence(of checksums: Set<String>) throws(CairnError) -> ScanPresence {
    guard !checksums.isEmpty else { return .known([]) }
    guard let row = try snapshots.row() else { return .noScan }
    guard let scan = snapshots.load(row) else { return .unknown }
    let wanted = Set(checksums.map { Array($0.utf8) })
    // A million files are passed over; only one whose first bytes match is copied and compared.
    let prefixes = Set(wanted.map { $0.withUnsafeBufferPointer(Self.prefix) })
    var present = Set<String>()
    for index in 0..<scan.count {
      let bytes = scan.checksumBytes(index)
      guard prefixes.contains(Self.prefix(bytes)) else { continue }
      let key = Array(bytes)
      if wanted.contains(key) { present.insert(String(decoding: key, as: UTF8.self)) }
    }
    return .known(present)
  }

  private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var value = UInt64(bytes.count)
    for byte in bytes.prefix(8) { value = value << 8 | UInt64(byte) }
    return value
  }
}
