import Foundation

/// A JSON value that keeps `null` apart from "absent" and object keys in insertion order.
///
/// Request bodies need both distinctions (`tagIds: null` means "untagged"), and responses are
/// easier to compare by eye when keys come out in the order the DTO declares them.
package enum ImmichJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([ImmichJSON])
  case object([(String, ImmichJSON)])

  /// Objects compare as maps: key order is presentation, not meaning.
  package static func == (lhs: ImmichJSON, rhs: ImmichJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      return a.allSatisfy { key, value in b.contains { $0.0 == key && $0.1 == value } }
    default: return false
    }
  }

  /// The value under `key` when this is an object; nil when absent (not when null).
  package subscript(key: String) -> ImmichJSON? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  package var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  package var intValue: Int? {
    if case .number(let n) = self, n.rounded() == n, abs(n) < 9e15 { return Int(n) }
    return nil
  }

  package var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  package var arrayValue: [ImmichJSON]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The zod-style name of this value's type, for "expected X, received Y" messages.
  var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

extension ImmichJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .number(Double(value)) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: ImmichJSON...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, ImmichJSON)...) { self = .object(elements) }
}

extension ImmichJSON {
  /// Optional values become `null`, as the DTOs' nullable fields do.
  static func from(_ value: String?) -> ImmichJSON { value.map(ImmichJSON.string) ?? .null }
  static func from(_ value: Int?) -> ImmichJSON { value.map { .number(Double($0)) } ?? .null }
}

// MARK: - Parsing

extension ImmichJSON {
  /// Parses JSON text, keeping object keys in their written order; nil when the bytes are not
  /// one complete JSON value. Hand-written because Foundation's decoders lose key order and are
  /// slow on large search pages in debug builds.
  package static func parse(_ bytes: some Collection<UInt8>) -> ImmichJSON? {
    var parser = JSONParser(bytes: Array(bytes))
    guard let value = parser.value() else { return nil }
    parser.skipSpace()
    return parser.index == parser.bytes.count ? value : nil
  }
}

private struct JSONParser {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[index]) { index += 1 }
  }

  mutating func value() -> ImmichJSON? {
    skipSpace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(ImmichJSON.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  mutating func literal(_ word: String, _ value: ImmichJSON) -> ImmichJSON? {
    let w = Array(word.utf8)
    guard index + w.count <= bytes.count, Array(bytes[index..<(index + w.count)]) == w else {
      return nil
    }
    index += w.count
    return value
  }

  mutating func number() -> ImmichJSON? {
    let start = index
    while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
    guard index > start, let n = Double(String(decoding: bytes[start..<index], as: UTF8.self))
    else { return nil }
    return .number(n)
  }

  mutating func string() -> String? {
    index += 1
    var out: [UInt8] = []
    while index < bytes.count {
      let b = bytes[index]
      index += 1
      if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
      guard b == UInt8(ascii: "\\") else {
        out.append(b)
        continue
      }
      guard index < bytes.count else { return nil }
      let escaped = bytes[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "n"): out.append(0x0a)
      case UInt8(ascii: "r"): out.append(0x0d)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0c)
      case UInt8(ascii: "u"):
        guard let scalar = unicodeEscape() else { return nil }
        out += Array(String(Character(scalar)).utf8)
      default: out.append(escaped)
      }
    }
    return nil
  }

  /// `\uXXXX`, joining a surrogate pair when one follows.
  mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hex4() else { return nil }
    if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count,
      bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
    {
      index += 2
      guard let low = hex4() else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  mutating func hex4() -> UInt32? {
    guard index + 4 <= bytes.count,
      let v = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return v
  }

  mutating func array() -> ImmichJSON? {
    index += 1
    var items: [ImmichJSON] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      guard let item = value() else { return nil }
      items.append(item)
      skipSpace()
      guard index < bytes.count else { return nil }
      let b = bytes[index]
      index += 1
      if b == UInt8(ascii: "]") { return .array(items) }
      if b != UInt8(ascii: ",") { return nil }
    }
  }

  mutating func object() -> ImmichJSON? {
    index += 1
    var pairs: [(String, ImmichJSON)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(pairs)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
        return nil
      }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let item = value() else { return nil }
      // Like JSON.parse in Node, a repeated key keeps the last value.
      pairs.removeAll { $0.0 == key }
      pairs.append((key, item))
      skipSpace()
      guard index < bytes.count else { return nil }
      let b = bytes[index]
      index += 1
      if b == UInt8(ascii: "}") { return .object(pairs) }
      if b != UInt8(ascii: ",") { return nil }
    }
  }
}

// MARK: - Serialising

extension ImmichJSON {
  /// Compact JSON text, as Express writes it (no spaces, no escaped slashes).
  package var serialized: String {
    var out = ""
    out.reserveCapacity(256)
    write(into: &out)
    return out
  }

  func write(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n):
      if n.rounded() == n, abs(n) < 9e15 { out += String(Int(n)) } else { out += String(n) }
    case .string(let s): ImmichJSON.writeString(s, into: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(into: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (key, value)) in pairs.enumerated() {
        if i > 0 { out += "," }
        ImmichJSON.writeString(key, into: &out)
        out += ":"
        value.write(into: &out)
      }
      out += "}"
    }
  }

  static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count)
          + String(c.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
