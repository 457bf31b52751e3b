import CairnSupport

/// The 64-bit hashes of a few strings' bytes in an open-addressed table, to tell at the cost
/// of a few multiplies per word that a string is not one of them (a false "maybe" costs only
/// the exact lookup that follows).
package struct ByteHashFilter {
  private let slots: [UInt64]
  private let mask: Int

  package init(_ keys: Set<ByteKey>) {
    var capacity = 16
    while capacity < keys.count * 4 { capacity <<= 1 }
    mask = capacity - 1
    var slots = [UInt64](repeating: 0, count: capacity)
    for key in keys {
      let hash = key.string.withBytes(Self.hash)
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 && slots[slot] != hash { slot = (slot + 1) & mask }
      slots[slot] = hash
    }
    self.slots = slots
  }

  /// Whether `bytes` may be one of them.
  package func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    mayContain(hash: Self.hash(bytes))
  }

  /// Whether a string whose `hash` this is may be one of them.
  package func mayContain(hash: UInt64) -> Bool {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let stored = slots[slot]
      if stored == hash { return true }
      if stored == 0 { return false }
      slot = (slot + 1) & mask
    }
  }

  /// Never zero (an empty slot). From the first and last eight bytes and the length, which
  /// tell checksums and file identities apart nearly always: a filter needs no more.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let raw = UnsafeRawBufferPointer(bytes)
    var first: UInt64 = 0
    var last: UInt64 = 0
    if raw.count >= 8 {
      first = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
      last = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
    } else {
      for (offset, byte) in raw.enumerated() { first |= UInt64(byte) << (8 * UInt64(offset)) }
    }
    var x = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(raw.count)
    x ^= x >> 31
    x &*= 0xBF58_476D_1CE4_E5B9
    return (x ^ (x >> 29)) | 1
  }
}
