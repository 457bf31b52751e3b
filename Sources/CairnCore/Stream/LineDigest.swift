/// A 128-bit digest of one line's bytes, so that a scan line can be recognised as the very line
/// an earlier scan recorded without being parsed again (see `RecordStream.next(skipping:)`).
///
/// Not cryptographic: the lines are the user's own scan, nobody is trying to collide them, and
/// 128 bits make an accidental collision (which could make one file stand for another) as
/// unlikely as two different photos sharing a SHA-1.
public struct LineDigest: Hashable, Sendable {
  public let high: UInt64
  public let low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  public init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let raw = UnsafeRawBufferPointer(bytes)
    // Two lanes, each a multiply-xorshift chain over the line's 8-byte words with its own
    // constants; the length and the tail close both.
    var a: UInt64 = 0x243F_6A88_85A3_08D3
    var b: UInt64 = 0x1319_8A2E_0370_7344
    var offset = 0
    while offset + 8 <= raw.count {
      let word = UInt64(
        littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      a = Self.mix(a ^ word, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB)
      b = Self.mix(b ^ word, 0xFF51_AFD7_ED55_8CCD, 0xC4CE_B9FE_1A85_EC53)
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < raw.count {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    let length = UInt64(raw.count)
    high = Self.mix(a ^ tail ^ length, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB)
    low = Self.mix(b ^ tail ^ (length << 32), 0xFF51_AFD7_ED55_8CCD, 0xC4CE_B9FE_1A85_EC53)
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
