import Foundation
import ImmichTestServer

/// Checks a JSON document against an OpenAPI 3.0 schema, for the subset Immich's document uses:
/// `$ref` into `components.schemas`, `type`, `properties`, `required`, `enum`, `items`,
/// `nullable`, `allOf`/`oneOf`/`anyOf`, `additionalProperties`, the formats `uuid` and
/// `date-time`, `pattern`, `minimum`/`maximum` and `minItems`/`maxItems`.
///
/// Schemas come from `JSONSerialization` (`[String: Any]`); documents are `ImmichJSON`, so a
/// boolean and a number can never be confused.
struct SchemaValidator {
  /// `components.schemas` of the document `$ref`s point into.
  let schemas: [String: Any]
  /// Response bodies are strict: the real server serialises only the declared properties, so a
  /// key the schema does not name is a difference worth reporting. Request bodies are not (zod
  /// strips unknown keys).
  var rejectUndeclaredProperties = false

  /// Every violation, each as `path: problem`; empty when the document conforms.
  func errors(_ value: ImmichJSON, _ schema: [String: Any]) -> [String] {
    var out: [String] = []
    check(value, schema, "$", &out)
    return out
  }

  func errors(_ value: ImmichJSON, ref name: String) -> [String] {
    errors(value, ["$ref": "#/components/schemas/\(name)"])
  }

  private func resolve(_ ref: String) -> [String: Any]? {
    let prefix = "#/components/schemas/"
    guard ref.hasPrefix(prefix) else { return nil }
    return schemas[String(ref.dropFirst(prefix.count))] as? [String: Any]
  }

  private func check(
    _ value: ImmichJSON, _ schema: [String: Any], _ path: String,
    _ out: inout [String]
  ) {
    if let ref = schema["$ref"] as? String {
      guard let target = resolve(ref) else {
        out.append("\(path): unresolvable $ref \(ref)")
        return
      }
      // OpenAPI 3.0 ignores siblings of `$ref`; Immich wraps a nullable reference in `allOf`.
      check(value, target, path, &out)
      return
    }
    if value == .null, schema["nullable"] as? Bool == true { return }

    if let all = schema["allOf"] as? [[String: Any]] {
      for sub in all { check(value, sub, path, &out) }
    }
    if let any = schema["anyOf"] as? [[String: Any]] {
      let passing = any.filter { errors(value, $0).isEmpty }.count
      if passing == 0 { out.append("\(path): matches none of anyOf") }
    }
    if let one = schema["oneOf"] as? [[String: Any]] {
      let passing = one.filter { errors(value, $0).isEmpty }.count
      if passing != 1 { out.append("\(path): matches \(passing) of oneOf, expected exactly 1") }
    }

    if let type = schema["type"] as? String, !hasType(value, type) {
      out.append("\(path): expected \(type), got \(Self.typeName(value))")
      return
    }
    if let options = schema["enum"] as? [Any], !options.contains(where: { equal(value, $0) }) {
      out.append("\(path): \(value.serialized) is not one of \(options)")
    }

    switch value {
    case .string(let text): checkString(text, schema, path, &out)
    case .number(let n):
      if let min = (schema["minimum"] as? NSNumber)?.doubleValue, n < min {
        out.append("\(path): \(n) is below the minimum \(min)")
      }
      if let max = (schema["maximum"] as? NSNumber)?.doubleValue, n > max {
        out.append("\(path): \(n) is above the maximum \(max)")
      }
    case .array(let items):
      if let min = (schema["minItems"] as? NSNumber)?.intValue, items.count < min {
        out.append("\(path): \(items.count) items, fewer than \(min)")
      }
      if let max = (schema["maxItems"] as? NSNumber)?.intValue, items.count > max {
        out.append("\(path): \(items.count) items, more than \(max)")
      }
      if let itemSchema = schema["items"] as? [String: Any] {
        for (i, item) in items.enumerated() { check(item, itemSchema, "\(path)[\(i)]", &out) }
      }
    case .object(let pairs): checkObject(pairs, schema, path, &out)
    case .null, .bool: break
    }
  }

  private func checkObject(
    _ pairs: [(String, ImmichJSON)], _ schema: [String: Any], _ path: String,
    _ out: inout [String]
  ) {
    let properties = schema["properties"] as? [String: Any] ?? [:]
    let present = Set(pairs.map(\.0))
    for name in schema["required"] as? [String] ?? [] where !present.contains(name) {
      out.append("\(path): missing required property '\(name)'")
    }
    for (key, member) in pairs {
      if let sub = properties[key] as? [String: Any] {
        check(member, sub, "\(path).\(key)", &out)
        continue
      }
      switch schema["additionalProperties"] {
      case let extra as [String: Any]: check(member, extra, "\(path).\(key)", &out)
      case let allowed as Bool where !allowed:
        out.append("\(path): property '\(key)' is not allowed")
      default:
        // A composed schema (`allOf` and friends) declares its properties in its parts.
        let composed = schema["allOf"] != nil || schema["anyOf"] != nil || schema["oneOf"] != nil
        if rejectUndeclaredProperties && !composed && schema["type"] as? String == "object" {
          out.append("\(path): property '\(key)' is not declared by the schema")
        }
      }
    }
  }

  private func checkString(
    _ text: String, _ schema: [String: Any], _ path: String, _ out: inout [String]
  ) {
    switch schema["format"] as? String {
    case "uuid" where !Self.matches(text, Self.uuidPattern):
      out.append("\(path): '\(text)' is not a uuid")
    case "date-time" where !Self.isDateTime(text):
      out.append("\(path): '\(text)' is not an RFC 3339 date-time")
    default: break
    }
    if let pattern = schema["pattern"] as? String, !Self.matches(text, pattern) {
      out.append("\(path): '\(text)' does not match \(pattern)")
    }
  }

  static func typeName(_ value: ImmichJSON) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  private func hasType(_ value: ImmichJSON, _ type: String) -> Bool {
    switch (type, value) {
    case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool),
      ("number", .number):
      return true
    case ("integer", .number(let n)): return n.rounded() == n
    default: return false
    }
  }

  private func equal(_ value: ImmichJSON, _ option: Any) -> Bool {
    switch value {
    case .string(let s): return (option as? String) == s
    case .number(let n): return (option as? NSNumber).map { $0.doubleValue == n } ?? false
    default: return false
    }
  }

  static let uuidPattern =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"

  /// RFC 3339 `date-time`: a full date, a time with seconds, and `Z` or a numeric offset.
  static func isDateTime(_ text: String) -> Bool {
    let shape =
      #"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#
    guard let regex = try? NSRegularExpression(pattern: shape),
      let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    else { return false }
    func field(_ i: Int) -> Int {
      Range(match.range(at: i), in: text).flatMap { Int(text[$0]) } ?? -1
    }
    let (month, day, hour, minute, second) = (field(2), field(3), field(4), field(5), field(6))
    return (1...12).contains(month) && (1...31).contains(day) && (0...23).contains(hour)
      && (0...59).contains(minute) && (0...60).contains(second)
  }

  static func matches(_ text: String, _ pattern: String) -> Bool {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }
}
