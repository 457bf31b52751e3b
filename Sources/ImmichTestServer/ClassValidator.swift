/// v2.7.5 validated with class-validator, not zod (docs/IMMICH-API.md §8.2), so its 400s list
/// class-validator's default sentences — `"each value in ids must be a UUID"`,
/// `"size must not be greater than 1000"` — rather than zod's issues. The double keeps one
/// issue per problem and words it the way the class-validator constraint for it would.
extension ValidationIssue {
  var classValidatorMessage: String {
    let names = path.compactMap(\.stringValue)
    let property = names.last ?? "value"
    // A number after the name means an element of an array: `{each: true}` wording.
    let isElement = path.last.map { $0.stringValue == nil } ?? false
    let subject = isElement ? "each value in \(property)" : property
    switch code {
    case "class_validator":
      return message
    case "invalid_format":
      switch extraValue("format")?.stringValue {
      case "uuid": return "\(subject) must be a UUID"
      case "email": return "\(subject) must be an email"
      case "regex": return "\(subject) must be a hexadecimal color"
      default: return "\(subject) is invalid"
      }
    case "invalid_type":
      switch extraValue("expected")?.stringValue {
      case "string": return "\(subject) must be a string"
      case "boolean": return "\(subject) must be a boolean value"
      case "int", "number": return "\(subject) must be an integer number"
      case "array": return "\(subject) must be an array"
      default: return "\(subject) must be an object"
      }
    case "too_small":
      return "\(subject) must not be less than \(bound("minimum"))"
    case "too_big":
      if extraValue("origin")?.stringValue == "array" {
        return "\(subject) must contain no more than \(bound("maximum")) elements"
      }
      return "\(subject) must not be greater than \(bound("maximum"))"
    case "invalid_value":
      let values = extraValue("values")?.arrayValue?.compactMap(\.stringValue) ?? []
      return "\(subject) must be one of the following values: \(values.joined(separator: ", "))"
    default:
      return "\(subject) \(message)"
    }
  }

  private func extraValue(_ key: String) -> ImmichJSON? { extra.first { $0.0 == key }?.1 }

  private func bound(_ key: String) -> String {
    extraValue(key)?.intValue.map(String.init) ?? "?"
  }
}
