import Foundation

/// Reads a JSON request body the way the zod DTOs do: unknown keys are ignored, every problem is
/// collected, and `finish()` throws them together as one "Validation failed".
struct BodyReader {
  let body: ImmichJSON
  let version: ImmichVersion
  private(set) var issues: [ValidationIssue] = []
  /// zod stops at a body that is not an object: its one issue is the only one reported.
  private var rootIssue: ValidationIssue?
  /// v2's class-transformer step, which runs before validation and throws on its own.
  private var transformFailure: APIError?

  /// `body` is `req.body`, nil when no parser read it. v3's zod schema wants an object and
  /// fails at path `[]` for anything else; v2.7.5's `ValidationPipe` makes a missing body
  /// `{}`, and class-transformer reads an array as an object without fields.
  init(_ body: ImmichJSON?, version: ImmichVersion) {
    self.version = version
    switch body {
    case .object?:
      self.body = body ?? .object([])
    default:
      self.body = .object([])
      if version.isV3 {
        let received = body?.typeName ?? "undefined"
        rootIssue = ValidationIssue(
          code: "invalid_type", path: [],
          message: "Invalid input: expected object, received \(received)",
          extra: [("expected", "object")])
      }
    }
  }

  init(_ call: RouteCall) { self.init(call.body, version: call.version) }

  /// Present and not null.
  func has(_ key: String) -> Bool {
    guard let value = body[key] else { return false }
    return value != .null
  }

  mutating func fail(
    _ path: [ImmichJSON], _ code: String, _ message: String, _ extra: [(String, ImmichJSON)] = []
  ) {
    issues.append(ValidationIssue(code: code, path: path, message: message, extra: extra))
  }

  private mutating func typeMismatch(_ path: [ImmichJSON], expected: String, got: ImmichJSON?) {
    let received = got?.typeName ?? "undefined"
    fail(
      path, "invalid_type", "Invalid input: expected \(expected), received \(received)",
      [("expected", .string(expected))])
  }

  mutating func string(_ key: String, required: Bool = false) -> String? {
    guard let value = body[key], value != .null || required else {
      if required { typeMismatch([.string(key)], expected: "string", got: nil) }
      return nil
    }
    guard let s = value.stringValue else {
      typeMismatch([.string(key)], expected: "string", got: value)
      return nil
    }
    return s
  }

  mutating func bool(_ key: String) -> Bool? {
    guard let value = body[key], value != .null else { return nil }
    guard let b = value.boolValue else {
      typeMismatch([.string(key)], expected: "boolean", got: value)
      return nil
    }
    return b
  }

  mutating func int(_ key: String, min: Int? = nil, max: Int? = nil) -> Int? {
    guard let value = body[key], value != .null else { return nil }
    guard case .number = value, let n = value.intValue else {
      typeMismatch([.string(key)], expected: "int", got: value)
      return nil
    }
    if let min, n < min {
      fail(
        [.string(key)], "too_small", "Too small: expected number to be >=\(min)",
        [("origin", "number"), ("minimum", .number(Double(min))), ("inclusive", true)])
    }
    if let max, n > max {
      fail(
        [.string(key)], "too_big", "Too big: expected number to be <=\(max)",
        [("origin", "number"), ("maximum", .number(Double(max))), ("inclusive", true)])
    }
    return n
  }

  mutating func uuid(_ key: String, required: Bool = false) -> String? {
    guard let s = string(key, required: required) else { return nil }
    guard Identifiers.isUUIDv4(s) else {
      fail([.string(key)], "invalid_format", "Invalid UUID", [("format", "uuid")])
      return nil
    }
    return s
  }

  /// `TagCreateDto`/`TagUpdateDto.color`: 3, 4, 6 or 8 hex digits, `#` optional. The wording
  /// is zod's default for a failed regex.
  mutating func hexColor(_ key: String) -> String? {
    guard let s = string(key) else { return nil }
    let digits = s.hasPrefix("#") ? s.dropFirst() : Substring(s)
    guard [3, 4, 6, 8].contains(digits.utf8.count), digits.utf8.allSatisfy(Identifiers.isHex)
    else {
      let pattern = "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"
      fail(
        [.string(key)], "invalid_format", "Invalid string: must match pattern /\(pattern)/",
        [("format", "regex"), ("pattern", .string(pattern))])
      return nil
    }
    return s
  }

  mutating func date(_ key: String) -> Date? {
    guard let s = string(key) else { return nil }
    // v2 turned the text into a JS `Date`, which takes a date-time without an offset too.
    let parsed = version.isV3 ? Timestamps.parseWithOffset(s) : Timestamps.parseLenient(s)
    guard let date = parsed else {
      if version.isV3 {
        fail([.string(key)], "invalid_format", "Invalid ISO datetime", [("format", "datetime")])
      } else if transformFailure == nil {
        // `ValidateDate`'s transform throws before any validator runs.
        transformFailure = .badRequest("\(key) must be a date string")
      }
      return nil
    }
    return date
  }

  mutating func option<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) -> T?
  where T.RawValue == String {
    guard let s = string(key) else { return nil }
    guard let value = T(rawValue: s) else {
      invalidOption([.string(key)], T.allCases.map(\.rawValue))
      return nil
    }
    return value
  }

  mutating func invalidOption(_ path: [ImmichJSON], _ options: [String]) {
    let list = options.map { "\"\($0)\"" }.joined(separator: "|")
    fail(
      path, "invalid_value", "Invalid option: expected one of \(list)",
      [("values", .array(options.map(ImmichJSON.string)))])
  }

  /// An array of strings; `nil` when absent (or null, unless `required`).
  mutating func stringArray(_ key: String, required: Bool = false, maxCount: Int? = nil)
    -> [String]?
  {
    guard let value = body[key], value != .null || required else {
      if required { typeMismatch([.string(key)], expected: "array", got: nil) }
      return nil
    }
    guard let items = value.arrayValue else {
      typeMismatch([.string(key)], expected: "array", got: value)
      return nil
    }
    if let maxCount, items.count > maxCount {
      fail(
        [.string(key)], "too_big", "Too big: expected array to have <=\(maxCount) items",
        [("origin", "array"), ("maximum", .number(Double(maxCount)))])
    }
    var out: [String] = []
    for (i, item) in items.enumerated() {
      guard let s = item.stringValue else {
        typeMismatch([.string(key), .number(Double(i))], expected: "string", got: item)
        continue
      }
      out.append(s)
    }
    return out
  }

  mutating func uuidArray(_ key: String, required: Bool = false) -> [String]? {
    if required, !version.isV3, body[key] == nil || body[key] == .null {
      // v2's `ValidateUUID({each: true})`: every one of its three validators fails.
      for message in ["each value in \(key) must be a UUID", "\(key) should not be empty"] {
        fail([.string(key)], "class_validator", message)
      }
    }
    guard let items = stringArray(key, required: required) else { return nil }
    for (i, s) in items.enumerated() where !Identifiers.isUUIDv4(s) {
      fail(
        [.string(key), .number(Double(i))], "invalid_format", "Invalid UUID", [("format", "uuid")])
    }
    return items
  }

  func finish() throws(APIError) {
    if let rootIssue { throw APIError.validation([rootIssue]) }
    if let transformFailure { throw transformFailure }
    if !issues.isEmpty { throw APIError.validation(issues) }
  }
}
