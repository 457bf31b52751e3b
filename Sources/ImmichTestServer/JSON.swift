import Foundation

/// A JSON value that keeps `null` apart from "absent" and object keys in insertion order.
///
/// Request bodies need both distinctions (`tagIds: null` means "untagged"), and responses are
/// easier to compare by eye when keys come out in the order the DTO declares them.
public enum JSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// The value under `key` when this is an object; nil when absent (not when null).
  public subscript(key: String) -> JSON? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  public var intValue: Int? {
    if case .number(let n) = self, n.rounded() == n, abs(n) < 9e15 { return Int(n) }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  public var arrayValue: [JSON]? {
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

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }
  public init(nilLiteral: ()) { self = .null }
}

extension JSON {
  /// Optional values become `null`, as the DTOs' nullable fields do.
  static func from(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
  static func from(_ value: Int?) -> JSON { value.map { .number(Double($0)) } ?? .null }
}

// MARK: - Parsing

extension JSON: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([JSON].self) {
      self = .array(a)
    } else {
      let dict = try container.decode([String: JSON].self)
      self = .object(dict.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
  }

  /// Parses a request body; nil when the bytes are not JSON.
  public static func parse(_ bytes: some Collection<UInt8>) -> JSON? {
    try? JSONDecoder().decode(JSON.self, from: Data(bytes))
  }
}

// MARK: - Serialising

extension JSON {
  /// Compact JSON text, as Express writes it (no spaces, no escaped slashes).
  public var serialized: String {
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
    case .string(let s): JSON.writeString(s, into: &out)
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
        JSON.writeString(key, into: &out)
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
        out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count)
          + String(c.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
