import CairnEngine
import CairnSupport

/// The checksums of a scan, for the engine's million membership tests (one per server asset).
///
/// A `Set<String>` hashes every string with SipHash and compares canonically, reaching into
/// each string's storage. Checksums are short ASCII (28 bytes of base64), so this table holds
/// them inline, 32 bytes a slot: a lookup reads one slot, not a string elsewhere in memory.
/// Only for ASCII up to 31 bytes: canonical equality is byte equality for ASCII, and a string
/// that is not ASCII can still equal an ASCII one canonically (the Kelvin sign is "K"), so
/// anything else is looked up in a `Set<String>`.
final class ChecksumSet: Sendable {
  private let files: ScanFiles
  /// Four words a slot (all zero: empty), or nil when some checksum does not fit.
  private let table: [UInt64]?
  private let mask: Int
  /// Every checksum as a `String`, built only when needed.
  private let strings = Locked<Set<String>?>(nil)
  /// Where the batched reads of slots leave a trace, so that they are not optimised away.
  private let touched = Locked<UInt64>(0)

  init(_ files: ScanFiles) {
    self.files = files
    var capacity = 16
    while capacity < files.count * 2 { capacity <<= 1 }
    mask = capacity - 1
    var touched: UInt64 = 0
    table = Self.table(files, capacity: capacity, touched: &touched)
    self.touched.withLock { [touched] in $0 ^= touched }
  }

  /// Keys looked up or inserted together: their slots are read first, one after the other,
  /// so that the cache misses of a batch (a million keys spread over 64 MB) overlap instead of
  /// waiting in turn.
  private static let batch = 16

  /// The open-addressed table of `files`' checksums, or nil when one does not fit a slot.
  private static func table(_ files: ScanFiles, capacity: Int, touched: inout UInt64)
    -> [UInt64]?
  {
    let mask = capacity - 1
    var table = [UInt64](repeating: 0, count: capacity * 4)
    var keys = [Key](repeating: (0, 0, 0, 0), count: batch)
    var slots = [Int](repeating: 0, count: batch)
    for start in stride(from: 0, to: files.count, by: batch) {
      let count = min(batch, files.count - start)
      for offset in 0..<count {
        guard let key = files.withChecksum(start + offset, Self.key) else { return nil }
        keys[offset] = key
        slots[offset] = Self.hash(key) & mask
        touched ^= table[slots[offset] * 4]
      }
      for offset in 0..<count {
        let key = keys[offset]
        var slot = slots[offset]
        while true {
          let at = slot * 4
          if table[at] == 0 {
            (table[at], table[at + 1], table[at + 2], table[at + 3]) = key
            break
          }
          if (table[at], table[at + 1], table[at + 2], table[at + 3]) == key { break }
          slot = (slot + 1) & mask
        }
      }
    }
    return table
  }

  /// Whether each of `count` checksums, read by `bytes(index, body)`, is in the set: as
  /// `contains(bytes:)` answers, a batch at a time (see `batch`).
  func containsEach(
    count: Int, _ bytes: (Int, (UnsafeBufferPointer<UInt8>) -> Key?) -> Key?
  ) -> [Bool] {
    var found = [Bool](repeating: false, count: count)
    guard let table else {
      for index in 0..<count {
        _ = bytes(index) {
          found[index] = contains(bytes: $0); return nil
        }
      }
      return found
    }
    var keys = [Key?](repeating: nil, count: Self.batch)
    var slots = [Int](repeating: 0, count: Self.batch)
    var touched: UInt64 = 0
    defer { self.touched.withLock { [touched] in $0 ^= touched } }
    for start in stride(from: 0, to: count, by: Self.batch) {
      let size = min(Self.batch, count - start)
      for offset in 0..<size {
        // A key that does not fit a slot is answered the slow way, here.
        let key = bytes(start + offset) { checksum in
          guard let key = Self.key(checksum) else {
            found[start + offset] = contains(bytes: checksum)
            return nil
          }
          return key
        }
        keys[offset] = key
        if let key {
          slots[offset] = Self.hash(key) & mask
          touched ^= table[slots[offset] * 4]
        }
      }
      for offset in 0..<size {
        guard let key = keys[offset] else { continue }
        found[start + offset] = Self.probe(table, mask, from: slots[offset], key)
      }
    }
    return found
  }

  typealias Key = (UInt64, UInt64, UInt64, UInt64)

  private static func probe(_ table: [UInt64], _ mask: Int, from slot: Int, _ key: Key) -> Bool {
    var slot = slot
    while true {
      let at = slot * 4
      if table[at] == 0 { return false }
      if (table[at], table[at + 1], table[at + 2], table[at + 3]) == key { return true }
      slot = (slot + 1) & mask
    }
  }

  /// Whether a file of the scan has `checksum` (as `String` equality has it).
  func contains(_ checksum: String) -> Bool {
    checksum.withBytes { contains(bytes: $0) }
  }

  /// Whether a file of the scan has the checksum spelled by these UTF-8 bytes.
  func contains(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // Not ASCII: canonically equal to an ASCII checksum only through a singleton
    // decomposition, and rare enough to look up the slow way.
    guard let table, let key = Self.key(bytes) else {
      let checksum = String(decoding: bytes, as: UTF8.self)
      return strings.withLock { strings in
        let all = strings ?? Set(files.map(\.checksum))
        strings = all
        return all.contains(checksum)
      }
    }
    return Self.probe(table, mask, from: Self.hash(key) & mask, key)
  }

  /// The length plus one, then the bytes, zero-padded to 32; nil when not ASCII or too long.
  private static func key(_ checksum: String) -> Key? {
    checksum.withBytes(key)
  }

  private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
    guard bytes.count < 32, bytes.isASCII else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (UInt64(bytes.count + 1), 0, 0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      UnsafeMutableRawBufferPointer(rebasing: raw[1..<1 + bytes.count])
        .copyMemory(from: UnsafeRawBufferPointer(bytes))
    }
    return words
  }

  private static func hash(_ key: Key) -> Int {
    var value =
      key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15) ^ (key.2 &* 0xC2B2_AE3D_27D4_EB4F)
      ^ (key.3 &* 0x1656_67B1_9E37_79F9)
    value ^= value >> 29
    value &*= 0xBF58_476D_1CE4_E5B9
    value ^= value >> 32
    return Int(truncatingIfNeeded: value)
  }
}
