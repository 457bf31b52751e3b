import CairnJSON
import CairnSupport
import Testing

/// A line digest stands for the line's bytes (see `LineDigest`): lines that differ must not
/// share one in the ways real scans differ — a byte changed anywhere, a byte more or less,
/// trailing zero bytes — and equal bytes always give the same one.
@Suite struct LineDigestTests {
  private func digest(_ bytes: [UInt8]) -> LineDigest {
    bytes.withUnsafeBufferPointer(LineDigest.init)
  }

  @Test func everyOneByteChangeAndLengthGivesAnotherDigest() {
    var seen: [LineDigest: [UInt8]] = [:]
    func expectNew(_ bytes: [UInt8]) {
      let value = digest(bytes)
      #expect(seen[value] == nil, "\(bytes) collides with \(seen[value] ?? [])")
      seen[value] = bytes
    }
    for length in 0...80 {
      let line = (0..<length).map { UInt8(truncatingIfNeeded: 0x61 + $0 % 26) }
      expectNew(line)
      expectNew(line + [0])  // a zero byte more: the length tells
      for position in 0..<length {
        for change: UInt8 in [1, 0x80] {
          var changed = line
          changed[position] ^= change
          expectNew(changed)
        }
      }
    }
    #expect(seen.count > 6_000)
  }

  @Test func theSameBytesGiveTheSameDigest() {
    let line = Array(#"{"type":"file","path":"/lib/a.jpg","checksum":"C"}"#.utf8)
    #expect(digest(line) == digest(Array(line)))
    #expect(digest(line).high != digest(line).low)
  }

  /// `isASCII`, read a word at a time, finds a high bit at every place of every length.
  @Test func aHighByteAnywhereIsNotASCII() {
    for length in 0...20 {
      let plain = [UInt8](repeating: 0x7F, count: length)
      #expect(plain.withUnsafeBufferPointer(\.isASCII))
      for position in 0..<length {
        var high = plain
        high[position] = 0x80
        #expect(!high.withUnsafeBufferPointer(\.isASCII), "length \(length) at \(position)")
      }
    }
  }
}
