/// The hash cache's entries in memory, by (device, inode): filled once as the cache opens,
/// then probed once per file a scan meets, which makes the probe a warm scan's hottest code.
///
/// A `Dictionary` hashed each key through SipHash with a fresh seed per probe and grew by
/// rehashing everything some seventeen times on the way to a million entries. Here the rows
/// are appended as they come, and the index is built once at the end at its final size: open
/// addressing over a power-of-two array of row numbers, twice the rows or more, with one
/// multiply to place a key. Inode numbers are dense and sequential, which the multiply spreads.
struct HashCacheTable {
  struct Key: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  struct Entry: Sendable {
    var size: Int64
    var mtimeNanoseconds: Int64
    var ctimeNanoseconds: Int64
    var digest: ContentDigest
  }

  private var keys: [Key] = []
  private var entries: [Entry] = []
  /// Row number plus one per slot; 0 is an empty slot.
  private var slots: [UInt32] = []
  /// How far a slot number is shifted: 64 minus the slots' bit count.
  private var shift: UInt64 = 64

  var count: Int { keys.count }
  var isEmpty: Bool { keys.isEmpty }

  /// Adds a row while loading; the table is not searchable until `finishLoading()`.
  mutating func append(_ key: Key, _ entry: Entry) {
    keys.append(key)
    entries.append(entry)
  }

  /// Builds the index over every row appended. A key appended twice (never: it is the table's
  /// primary key) would answer with its first row.
  mutating func finishLoading() {
    guard !keys.isEmpty, keys.count < Int(UInt32.max) else {
      slots = []
      shift = 64
      return
    }
    var bits = 4
    while (1 << bits) < 2 * keys.count { bits += 1 }
    shift = UInt64(64 - bits)
    var slots = [UInt32](repeating: 0, count: 1 << bits)
    let mask = (1 << bits) - 1
    for (row, key) in keys.enumerated() {
      var slot = Self.slot(key, shift)
      while slots[slot] != 0 {
        if keys[Int(slots[slot]) - 1] == key { break }
        slot = (slot + 1) & mask
      }
      if slots[slot] == 0 { slots[slot] = UInt32(row + 1) }
    }
    self.slots = slots
  }

  /// The entry remembered for `key`, if any.
  func entry(for key: Key) -> Entry? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var slot = Self.slot(key, shift)
    while true {
      let row = Int(slots[slot])
      if row == 0 { return nil }
      if keys[row - 1] == key { return entries[row - 1] }
      slot = (slot + 1) & mask
    }
  }

  /// Fibonacci hashing: the top bits of the key's mix times 2^64 / φ.
  @inline(__always)
  private static func slot(_ key: Key, _ shift: UInt64) -> Int {
    let mixed = (key.inode ^ (key.device &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> shift)
  }
}
