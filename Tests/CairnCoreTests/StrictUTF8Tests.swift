import CairnSupport
import Testing

/// `StrictUTF8` stands in for `String(validating:as:)` (macOS 15) in the JSON scanner, the
/// library walker and cairn-hash's path list; it must reject exactly what that rejects.
@Suite struct StrictUTF8Tests {
  @Test(
    arguments: [
      [0x61, 0x62],  // ASCII
      [0xC3, 0xA9],  // é
      [0xE2, 0x82, 0xAC],  // €
      [0xF0, 0x9F, 0x98, 0x80],  // 😀
      [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
      [],
    ] as [[UInt8]])
  func wellFormedIsAccepted(_ bytes: [UInt8]) {
    #expect(StrictUTF8.isValid(bytes))
  }

  @Test(
    arguments: [
      [0xC0, 0x80],  // overlong NUL
      [0xE0, 0x80, 0xAF],  // overlong '/'
      [0xED, 0xA0, 0x80],  // a surrogate
      [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
      [0xC3],  // cut short
      [0x61, 0xE2, 0x82],  // cut short after ASCII
      [0x80],  // a continuation byte alone
      [0xFF],
    ] as [[UInt8]])
  func illFormedIsRejected(_ bytes: [UInt8]) {
    #expect(!StrictUTF8.isValid(bytes))
  }

  #if !canImport(Darwin)
    /// Random short sequences over the bytes that matter, against the standard library's own
    /// strict reading (available without restriction off Apple platforms).
    @Test func agreesWithTheStandardLibrary() {
      var generator = SystemRandomNumberGenerator()
      let alphabet: [UInt8] = [
        0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF,
        0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
      ]
      for _ in 0..<20_000 {
        let bytes = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        }
        #expect(
          StrictUTF8.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil),
          "\(bytes)")
      }
    }
  #endif
}
