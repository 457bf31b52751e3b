/// A JSON value inside a parsed line, decoded on request.
package struct JSONValue: Sendable {
  package enum Kind: Sendable, Equatable { case null, bool, number, string, array, object }

  let bytes: [UInt8]
  let start: Int
  let end: Int

  init(bytes: [UInt8], start: Int, end: Int) {
    self.bytes = bytes
    self.start = start
    self.end = end
  }

  package var kind: Kind {
    switch bytes[start] {
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "{"): return .object
    default: return .number
    }
  }

  package var isNull: Bool { kind == .null }

  package var bool: Bool? {
    switch bytes[start] {
    case UInt8(ascii: "t"): return true
    case UInt8(ascii: "f"): return false
    default: return nil
    }
  }

  package var string: String? {
    guard kind == .string else { return nil }
    var hasEscapes = false
    for i in (start + 1)..<(end - 1) where bytes[i] == UInt8(ascii: "\\") {
      hasEscapes = true
      break
    }
    return JSONScanner.decodeString(bytes, from: start + 1, to: end - 1, hasEscapes: hasEscapes)
  }

  /// Calls `body` with a string's content in place; nil when the value is not a string or its
  /// content has escapes (decode it with `string`).
  package func withUnescapedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    guard kind == .string else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      let content = UnsafeBufferPointer(rebasing: buffer[(start + 1)..<(end - 1)])
      guard !content.contains(UInt8(ascii: "\\")) else { return nil }
      return body(content)
    }
  }

  /// An integer, when the number has no fraction or exponent and fits in 64 bits.
  package var int: Int64? {
    guard kind == .number else { return nil }
    var i = start
    var negative = false
    if bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var value: Int64 = 0
    while i < end {
      let digit = bytes[i] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(Int64(digit))
      if o1 || o2 { return nil }
      value = s
      i += 1
    }
    return negative ? -value : value
  }

  package var double: Double? {
    guard kind == .number else { return nil }
    return Double(String(decoding: bytes[start..<end], as: UTF8.self))
  }

  package var array: [JSONValue]? {
    guard kind == .array else { return nil }
    var scanner = JSONScanner(bytes: bytes, position: start)
    return try? scanner.scanArrayElements()
  }

  package var object: JSONObject? {
    guard kind == .object else { return nil }
    let slice = Array(bytes[start..<end])
    return try? JSONObject(parsing: slice)
  }

  /// The value's JSON text, as it appeared in the input.
  package var raw: ArraySlice<UInt8> { bytes[start..<end] }
}
