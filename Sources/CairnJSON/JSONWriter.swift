import Foundation

/// Builds one compact JSON object as UTF-8 bytes, field by field.
///
/// Records write themselves through this instead of `JSONEncoder`: it keeps field order stable
/// (so output is byte-for-byte deterministic) and costs a fraction of a generic encoder on the
/// hot paths (hashing and reconciling millions of records).
package struct JSONObjectWriter {
  package private(set) var bytes: [UInt8]
  private var first = true

  package init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
    bytes.append(UInt8(ascii: "{"))
  }

  /// Ends the object and returns its bytes (no trailing newline).
  package consuming func finish() -> [UInt8] {
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  private mutating func key(_ name: StaticString) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    first = false
    bytes.append(UInt8(ascii: "\""))
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  package mutating func field(_ name: StaticString, _ value: String) {
    key(name)
    Self.appendString(value, to: &bytes)
  }

  package mutating func field(_ name: StaticString, _ value: String?) {
    guard let value else { return }
    field(name, value)
  }

  package mutating func field(_ name: StaticString, _ value: Int) {
    key(name)
    Self.appendInt(Int64(value), to: &bytes)
  }

  package mutating func field(_ name: StaticString, _ value: Int64) {
    key(name)
    Self.appendInt(value, to: &bytes)
  }

  package mutating func field(_ name: StaticString, _ value: Int?) {
    guard let value else { return }
    field(name, value)
  }

  package mutating func field(_ name: StaticString, _ value: UInt64) {
    key(name)
    JSONBytes.appendDecimal(value, to: &bytes)
  }

  package mutating func field(_ name: StaticString, _ value: Double) {
    key(name)
    bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
  }

  package mutating func field(_ name: StaticString, _ value: Bool) {
    key(name)
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  package mutating func field(_ name: StaticString, _ value: Bool?) {
    guard let value else { return }
    field(name, value)
  }

  /// A date as ISO-8601 UTC with milliseconds, e.g. `2026-11-22T10:15:00.000Z`.
  package mutating func field(_ name: StaticString, _ value: Date) {
    key(name)
    bytes.append(UInt8(ascii: "\""))
    JSONBytes.appendISO8601(value.timeIntervalSince1970, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  package mutating func field(_ name: StaticString, _ value: Date?) {
    guard let value else { return }
    field(name, value)
  }

  /// An explicit JSON `null` (for fields whose absence would mean something else).
  package mutating func null(_ name: StaticString) {
    key(name)
    bytes.append(contentsOf: "null".utf8)
  }

  package mutating func field(_ name: StaticString, _ values: [String]) {
    key(name)
    bytes.append(UInt8(ascii: "["))
    for (i, value) in values.enumerated() {
      if i > 0 { bytes.append(UInt8(ascii: ",")) }
      Self.appendString(value, to: &bytes)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  package mutating func field(_ name: StaticString, _ values: [String: Int]) {
    key(name)
    bytes.append(UInt8(ascii: "{"))
    for (i, key) in values.keys.sorted().enumerated() {
      if i > 0 { bytes.append(UInt8(ascii: ",")) }
      Self.appendString(key, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      Self.appendInt(Int64(values[key] ?? 0), to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// A nested object written by `body`.
  package mutating func object(_ name: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
    key(name)
    var nested = JSONObjectWriter(capacity: 64)
    body(&nested)
    bytes.append(contentsOf: nested.finish())
  }

  /// An array of nested objects.
  package mutating func objects<T>(
    _ name: StaticString, _ items: [T], _ body: (inout JSONObjectWriter, T) -> Void
  ) {
    key(name)
    bytes.append(UInt8(ascii: "["))
    for (i, item) in items.enumerated() {
      if i > 0 { bytes.append(UInt8(ascii: ",")) }
      var nested = JSONObjectWriter(capacity: 64)
      body(&nested, item)
      bytes.append(contentsOf: nested.finish())
    }
    bytes.append(UInt8(ascii: "]"))
  }

  static func appendInt(_ value: Int64, to bytes: inout [UInt8]) {
    JSONBytes.appendInt(value, to: &bytes)
  }

  static func appendString(_ value: String, to bytes: inout [UInt8]) {
    JSONBytes.appendString(value, to: &bytes)
  }
}
