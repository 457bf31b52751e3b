import CairnJSON
import Foundation

/// The stream schema this build reads and writes. Readers refuse a newer major version.
///
/// 1.1: the end record counts the records of each type (`records`), and a failed stage ends
/// its output with an `abort` record. Streams written before 1.1 have no counts and are
/// refused as malformed: make them again.
package enum Schema {
  package static let major = 1
  package static let minor = 1
  package static var current: String { "\(major).\(minor)" }
}

/// A record on a cairn stream: one compact JSON object per line, with a `type` field.
package protocol Record: Sendable {
  /// The value of the `type` field.
  static var recordType: String { get }
  /// Decodes the record from a parsed line (unknown fields are ignored).
  init(_ object: JSONObject) throws(RecordError)
  /// Writes the fields after `type`.
  func writeFields(to writer: inout JSONObjectWriter)
}

extension Record {
  /// The record as one line of JSON, without the newline.
  package func jsonBytes() -> [UInt8] {
    var writer = JSONObjectWriter()
    writer.field("type", Self.recordType)
    writeFields(to: &writer)
    return writer.finish()
  }

  package func jsonString() -> String { String(decoding: jsonBytes(), as: UTF8.self) }
}

/// A field that is missing or of the wrong kind.
package struct RecordError: Error, Sendable, CustomStringConvertible, Equatable {
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }

  package static func missing(_ field: String) -> RecordError {
    RecordError("missing field '\(field)'")
  }
  package static func wrongKind(_ field: String, _ expected: String) -> RecordError {
    RecordError("field '\(field)' must be \(expected)")
  }
}

/// Typed field access that turns a missing or mistyped field into a `RecordError`.
extension JSONObject {
  package var type: String? { self["type"]?.string }

  package func string(_ key: String) throws(RecordError) -> String {
    guard let value = self[key] else { throw .missing(key) }
    guard let text = value.string else { throw .wrongKind(key, "a string") }
    return text
  }

  /// An optional string: absent and `null` both read as nil.
  package func optionalString(_ key: String) throws(RecordError) -> String? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let text = value.string else { throw .wrongKind(key, "a string or null") }
    return text
  }

  /// Throws what `string(key)` would, without building the string.
  package func checkString(_ key: String) throws(RecordError) {
    guard let value = self[key] else { throw .missing(key) }
    guard value.kind == .string else { throw .wrongKind(key, "a string") }
  }

  /// Throws what `optionalString(key)` would, without building the string.
  package func checkOptionalString(_ key: String) throws(RecordError) {
    guard let value = self[key], !value.isNull else { return }
    guard value.kind == .string else { throw .wrongKind(key, "a string or null") }
  }

  package func int(_ key: String) throws(RecordError) -> Int {
    guard let value = self[key] else { throw .missing(key) }
    guard let number = value.int, let int = Int(exactly: number) else {
      throw .wrongKind(key, "an integer")
    }
    return int
  }

  package func optionalInt(_ key: String) throws(RecordError) -> Int? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let number = value.int, let int = Int(exactly: number) else {
      throw .wrongKind(key, "an integer or null")
    }
    return int
  }

  package func optionalUInt64(_ key: String) throws(RecordError) -> UInt64? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let number = value.int, let int = UInt64(exactly: number) else {
      throw .wrongKind(key, "a non-negative integer or null")
    }
    return int
  }

  package func bool(_ key: String) throws(RecordError) -> Bool {
    guard let value = self[key] else { throw .missing(key) }
    guard let flag = value.bool else { throw .wrongKind(key, "true or false") }
    return flag
  }

  package func optionalBool(_ key: String) throws(RecordError) -> Bool? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let flag = value.bool else { throw .wrongKind(key, "true, false or null") }
    return flag
  }

  package func date(_ key: String) throws(RecordError) -> Date {
    guard let date = try optionalDate(key) else { throw .missing(key) }
    return date
  }

  package func optionalDate(_ key: String) throws(RecordError) -> Date? {
    guard let text = try optionalString(key) else { return nil }
    guard let date = Date(iso8601: text) else {
      throw .wrongKind(key, "an ISO-8601 date-time with a time zone")
    }
    return date
  }

  /// Throws what `date(key)` would, without building the string or the date.
  package func checkDate(_ key: String) throws(RecordError) {
    guard let value = self[key], !value.isNull else { throw .missing(key) }
    try checkOptionalDate(key)
  }

  /// Throws what `optionalDate(key)` would, without building the string or the date.
  package func checkOptionalDate(_ key: String) throws(RecordError) {
    try checkOptionalString(key)
    guard let value = self[key], !value.isNull else { return }
    let valid =
      value.withUnescapedBytes(Date.isISO8601)
      ?? Date(iso8601: value.string ?? "").map { _ in true } ?? false
    guard valid else { throw .wrongKind(key, "an ISO-8601 date-time with a time zone") }
  }

  package func stringArray(_ key: String) throws(RecordError) -> [String] {
    guard let value = self[key], !value.isNull else { return [] }
    guard let items = value.array else { throw .wrongKind(key, "an array of strings") }
    var strings: [String] = []
    strings.reserveCapacity(items.count)
    for item in items {
      guard let text = item.string else { throw .wrongKind(key, "an array of strings") }
      strings.append(text)
    }
    return strings
  }

  package func intMap(_ key: String) throws(RecordError) -> [String: Int] {
    guard let value = self[key], !value.isNull else { return [:] }
    guard let object = value.object else { throw .wrongKind(key, "an object of integers") }
    var map: [String: Int] = [:]
    for name in object.keys {
      guard let number = object[name]?.int, let int = Int(exactly: number) else {
        throw .wrongKind(key, "an object of integers")
      }
      map[name] = int
    }
    return map
  }

  package func optionalObject(_ key: String) throws(RecordError) -> JSONObject? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let object = value.object else { throw .wrongKind(key, "an object") }
    return object
  }

  package func objectArray(_ key: String) throws(RecordError) -> [JSONObject] {
    guard let value = self[key], !value.isNull else { return [] }
    guard let items = value.array else { throw .wrongKind(key, "an array of objects") }
    var objects: [JSONObject] = []
    for item in items {
      guard let object = item.object else { throw .wrongKind(key, "an array of objects") }
      objects.append(object)
    }
    return objects
  }
}
