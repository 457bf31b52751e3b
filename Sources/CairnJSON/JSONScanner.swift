import CairnSupport

/// A malformed JSON text: what was wrong and at which byte offset.
package struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  package let message: String
  package let offset: Int
  package var description: String { "\(message) at byte \(offset + 1)" }
}

/// A strict RFC 8259 scanner that records field positions instead of building values.
///
/// Stricter than the RFC where a record must not be ambiguous: a key twice in one object, a
/// lone surrogate or `\u0000` escape, and a carriage return outside a string are errors (two
/// readers could disagree on the first; the others have no place in a path or a checksum).
/// Nesting is bounded, so a hostile line cannot drive the recursion off the stack.
struct JSONScanner {
  /// Objects and arrays inside one another, the outermost included. Records nest three deep.
  static let maximumDepth = 32

  let bytes: [UInt8]
  var position: Int
  /// Objects and arrays open at `position`.
  private var depth = 0

  init(bytes: [UInt8], position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  private func fail(_ message: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, offset: position)
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A: position += 1
      default: return
      }
    }
  }

  mutating func scanTopLevelObject() throws(JSONSyntaxError) -> JSONObject {
    skipWhitespace()
    guard position < bytes.count else { throw fail("empty line, expected a JSON object") }
    guard bytes[position] == UInt8(ascii: "{") else { throw fail("expected a JSON object") }
    let fields = try scanObjectFields()
    skipWhitespace()
    guard position == bytes.count else { throw fail("unexpected text after the object") }
    return JSONObject(bytes: bytes, fields: fields)
  }

  /// Scans `{...}` at `position`, returning its fields; leaves `position` after the `}`.
  mutating func scanObjectFields() throws(JSONSyntaxError) -> [JSONObject.Field] {
    try enterNesting()
    defer { depth -= 1 }
    position += 1  // {
    var fields: [JSONObject.Field] = []
    fields.reserveCapacity(12)
    // Keys seen, one bit per length and first byte: a key whose bit is clear is new without a
    // comparison, so a record's keys are checked for duplicates at the cost of a bit test
    // each. An escaped key can spell any key, so once one is seen every key is compared.
    var keyBits: UInt64 = 0
    var escapedKeys = false
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return fields
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw fail("expected a field name")
      }
      let (keyStart, keyEnd, keyHasEscapes) = try scanString()
      escapedKeys = escapedKeys || keyHasEscapes
      let first = keyEnd > keyStart ? UInt64(bytes[keyStart]) : 0
      let bit: UInt64 = 1 << ((UInt64(keyEnd - keyStart) &* 31 &+ first) & 63)
      if escapedKeys || keyBits & bit != 0,
        isDuplicate(keyStart, keyEnd, keyHasEscapes, among: fields)
      {
        position = keyStart - 1
        throw fail("duplicate field name")
      }
      keyBits |= bit
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw fail("expected ':' after a field name")
      }
      position += 1
      skipWhitespace()
      let valueStart = position
      try skipValue()
      fields.append(
        JSONObject.Field(
          keyStart: Int32(keyStart), keyEnd: Int32(keyEnd), keyHasEscapes: keyHasEscapes,
          valueStart: Int32(valueStart), valueEnd: Int32(position)))
      skipWhitespace()
      guard position < bytes.count else { throw fail("unterminated object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return fields
      }
      throw fail("expected ',' or '}' in an object")
    }
  }

  mutating func scanArrayElements() throws(JSONSyntaxError) -> [JSONValue] {
    try enterNesting()
    defer { depth -= 1 }
    position += 1  // [
    var values: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return values
    }
    while true {
      skipWhitespace()
      let start = position
      try skipValue()
      values.append(JSONValue(bytes: bytes, start: start, end: position))
      skipWhitespace()
      guard position < bytes.count else { throw fail("unterminated array") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return values
      }
      throw fail("expected ',' or ']' in an array")
    }
  }

  private mutating func enterNesting() throws(JSONSyntaxError) {
    guard depth < Self.maximumDepth else {
      throw fail("nested deeper than \(Self.maximumDepth) levels")
    }
    depth += 1
  }

  /// Whether the key at `start..<end` names one of `fields` already. Keys are compared as
  /// decoded text, so `"type"` and `"\u0074ype"` are the same key.
  private func isDuplicate(
    _ start: Int, _ end: Int, _ hasEscapes: Bool, among fields: [JSONObject.Field]
  ) -> Bool {
    let length = end - start
    for field in fields {
      let otherStart = Int(field.keyStart)
      let otherEnd = Int(field.keyEnd)
      if hasEscapes || field.keyHasEscapes {
        let key = Self.decodeString(bytes, from: start, to: end, hasEscapes: hasEscapes)
        let other = Self.decodeString(
          bytes, from: otherStart, to: otherEnd, hasEscapes: field.keyHasEscapes)
        if key.sameBytes(as: other) {
          return true
        }
        continue
      }
      guard otherEnd - otherStart == length else { continue }
      let same = bytes.withUnsafeBufferPointer { buffer in
        UnsafeBufferPointer(rebasing: buffer[start..<end])
          .sameBytes(as: UnsafeBufferPointer(rebasing: buffer[otherStart..<otherEnd]))
      }
      if same { return true }
    }
    return false
  }

  private mutating func skipValue() throws(JSONSyntaxError) {
    guard position < bytes.count else { throw fail("expected a value") }
    switch bytes[position] {
    case UInt8(ascii: "\""): _ = try scanString()
    case UInt8(ascii: "{"): _ = try scanObjectFields()
    case UInt8(ascii: "["): _ = try scanArrayElements()
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    default: try scanNumber()
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { throw fail("invalid literal") }
    let base = literal.utf8Start
    for i in 0..<count where bytes[position + i] != base[i] {
      throw fail("invalid literal")
    }
    position += count
  }

  private mutating func scanNumber() throws(JSONSyntaxError) {
    let start = position
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position == start { throw fail("expected a value") }
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  /// Scans a string at `position`; returns the content range (without quotes).
  private mutating func scanString() throws(JSONSyntaxError) -> (Int, Int, Bool) {
    position += 1  // opening quote
    let start = position
    var hasEscapes = false
    var hasNonASCII = false
    while position < bytes.count {
      position = Self.plainASCII(in: bytes, from: position)
      guard position < bytes.count else { break }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let end = position
        position += 1
        if hasNonASCII, !StrictUTF8.isValid(bytes[start..<end]) {
          position = start
          throw fail("invalid UTF-8 in a string")
        }
        return (start, end, hasEscapes)
      }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        position += 1
        guard position < bytes.count else { break }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          position += 1
        case UInt8(ascii: "u"):
          try scanUnicodeEscape()
        default:
          throw fail("invalid escape in a string")
        }
        continue
      }
      if byte < 0x20 { throw fail("control character in a string") }
      if byte >= 0x80 { hasNonASCII = true }
      position += 1
    }
    throw fail("unterminated string")
  }

  /// The hex digits of a `\u` escape at `position` (at the `u`); a high surrogate must be
  /// followed by a low one, a low one must follow a high one, and U+0000 is refused. Leaves
  /// `position` after the escape (after both halves of a pair).
  private mutating func scanUnicodeEscape() throws(JSONSyntaxError) {
    guard let unit = hex4(at: position + 1) else { throw fail("invalid \\u escape") }
    position += 5
    switch unit {
    case 0:
      throw fail("\\u0000 in a string")
    case 0xDC00..<0xE000:
      throw fail("lone low surrogate escape")
    case 0xD800..<0xDC00:
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u"), let low = hex4(at: position + 2),
        (0xDC00..<0xE000).contains(low)
      else { throw fail("lone high surrogate escape") }
      position += 6
    default:
      return
    }
  }

  /// The four hex digits at `at`, or nil when they are not there.
  private func hex4(at: Int) -> UInt32? {
    guard at + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for i in at..<(at + 4) {
      guard let digit = Self.hexValue(bytes[i]) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  /// The offset of the first byte at or after `start` that is not plain ASCII string content
  /// (a quote, a backslash, a control character or a byte of a multi-byte character), or the
  /// end. Eight bytes at a time: paths and checksums are long runs of plain ASCII.
  static func plainASCII(in bytes: [UInt8], from start: Int) -> Int {
    bytes.withUnsafeBytes { raw in
      var at = start
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while at + 8 <= raw.count {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        // A byte of zero in `x` shows as its high bit in `(x - ones) & ~x & highs`.
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special =
          ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | (word &- (ones &* 0x20))  // a byte below 0x20 borrows: its high bit shows
          | word  // a byte at or above 0x80
        if special & highs != 0 { break }
        at += 8
      }
      while at < raw.count {
        let byte = raw[at]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
          || byte >= 0x80
        {
          return at
        }
        at += 1
      }
      return at
    }
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  /// Decodes string content (between the quotes) that the scanner already validated.
  static func decodeString(_ bytes: [UInt8], from start: Int, to end: Int, hasEscapes: Bool)
    -> String
  {
    if !hasEscapes { return String(decoding: bytes[start..<end], as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(end - start)
    var i = start
    func hex4(_ at: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 << 4 | (hexValue(bytes[at + $1]) ?? 0) }
    }
    while i < end {
      let byte = bytes[i]
      guard byte == UInt8(ascii: "\\") else {
        out.append(byte)
        i += 1
        continue
      }
      let escape = bytes[i + 1]
      i += 2
      switch escape {
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex4(i)
        i += 4
        // A surrogate pair encodes one scalar outside the basic plane.
        if (0xD800..<0xDC00).contains(scalar), i + 5 < end + 1, i + 1 < end,
          bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
        {
          let low = hex4(i + 2)
          if (0xDC00..<0xE000).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            i += 6
          }
        }
        let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        out.append(contentsOf: String(Character(unicode)).utf8)
      default: out.append(escape)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
