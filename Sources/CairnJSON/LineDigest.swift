/// A 128-bit digest of one line's bytes, so that a scan line can be recognised as the very line
/// an earlier scan recorded without being parsed again (see `RecordStream.next(skipping:)`).
///
/// Not cryptographic: the lines are the user's own scan, nobody is trying to collide them, and
/// 128 bits make an accidental collision (which could make one file stand for another) as
/// unlikely as two different photos sharing a SHA-1.
package struct LineDigest: Hashable, Sendable {
  package let high: UInt64
  package let low: UInt64

  package init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let raw = UnsafeRawBufferPointer(bytes)
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    // Every 8-byte word goes through two lanes with their own constants (128 bits of state
    // for each word); even and odd words have lanes of their own, so that two words are
    // mixed at once rather than each waiting for the multiplies of the last.
    var evenA: UInt64 = 0x243F_6A88_85A3_08D3
    var evenB: UInt64 = 0x1319_8A2E_0370_7344
    var oddA: UInt64 = 0xA409_3822_299F_31D0
    var oddB: UInt64 = 0x082E_FA98_EC4E_6C89
    var offset = 0
    while offset + 16 <= raw.count {
      let even = word(offset)
      let odd = word(offset + 8)
      evenA = Self.roundA(evenA, even)
      evenB = Self.roundB(evenB, even)
      oddA = Self.roundA(oddA, odd)
      oddB = Self.roundB(oddB, odd)
      offset += 16
    }
    if offset + 8 <= raw.count {
      let even = word(offset)
      evenA = Self.roundA(evenA, even)
      evenB = Self.roundB(evenB, even)
      offset += 8
    }
    // The last bytes, zero-padded; the length tells them from zero bytes.
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < raw.count {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    oddA = Self.roundA(oddA, tail)
    oddB = Self.roundB(oddB, tail)
    let length = UInt64(raw.count)
    high = Self.mix(
      Self.mix(evenA ^ length, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB) ^ oddA,
      0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB)
    low = Self.mix(
      Self.mix(evenB ^ (length << 32), 0xFF51_AFD7_ED55_8CCD, 0xC4CE_B9FE_1A85_EC53) ^ oddB,
      0xFF51_AFD7_ED55_8CCD, 0xC4CE_B9FE_1A85_EC53)
  }

  /// One word into a lane: a bijection of the lane for a given word and of the word for a
  /// given lane, so two lines that differ in one word differ in that word's lanes.
  @inline(__always)
  private static func roundA(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let x = lane &+ word &* 0xC2B2_AE3D_27D4_EB4F
    return ((x << 31) | (x >> 33)) &* 0x9E37_79B1_85EB_CA87
  }

  @inline(__always)
  private static func roundB(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let x = lane &+ word &* 0x1656_67B1_9E37_79F9
    return ((x << 27) | (x >> 37)) &* 0x85EB_CA77_C2B2_AE63
  }

  @inline(__always)
  private static func mix(_ value: UInt64, _ m1: UInt64, _ m2: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= m1
    x ^= x >> 29
    x &*= m2
    return x ^ (x >> 32)
  }
}
