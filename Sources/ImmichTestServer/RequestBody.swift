import Foundation

/// What Express's body parsers leave in `req.body` (docs/IMMICH-API.md §8.4): JSON only under
/// `Content-Type: application/json`, a form under `application/x-www-form-urlencoded`, and
/// nothing at all under any other type or none — which is where a client that forgets the
/// header goes wrong: v3 refuses the request, v2.7.5 quietly runs it with every default.
enum RequestBody {
  /// The body as the route's validation pipe receives it: nil when no parser read it
  /// (`undefined`), or a 400 with the parser's message when JSON does not parse.
  static func read(_ request: APIRequest) -> Result<ImmichJSON?, APIError> {
    switch mediaType(request.header("content-type")) {
    case "application/json":
      // body-parser special-cases an empty JSON body as `{}`.
      guard !request.body.allSatisfy(JSONSyntax.isSpace) else { return .success(.object([])) }
      guard let value = ImmichJSON.parse(request.body) else {
        return .failure(.badRequest(JSONSyntax.message(for: request.body)))
      }
      // body-parser's `strict` mode takes only objects and arrays.
      switch value {
      case .object, .array: return .success(value)
      default: return .failure(.badRequest(JSONSyntax.strictMessage(for: request.body)))
      }
    case "application/x-www-form-urlencoded":
      return .success(form(request.bodyText))
    case let type where type.hasPrefix("multipart/"):
      // The upload route reads the parts itself.
      return .success(.object([]))
    default:
      return .success(nil)
    }
  }

  /// `type/subtype` of a Content-Type header, lower-cased, without parameters.
  static func mediaType(_ header: String?) -> String {
    guard let header else { return "" }
    let type = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    return type.trimmingCharacters(in: .whitespaces).lowercased()
  }

  /// `a=1&b=2` as an object of strings. JSON text sent under this type becomes one odd key,
  /// which validation strips like any unknown key.
  static func form(_ text: String) -> ImmichJSON {
    var pairs: [(String, ImmichJSON)] = []
    for (key, value) in ImmichTestServer.parseQuery(text).sorted(by: { $0.key < $1.key }) {
      pairs.append((key, .string(value)))
    }
    return .object(pairs)
  }
}

/// The messages of V8's `JSON.parse` (Node 22), which body-parser passes on: where the text
/// stops being JSON, and what was expected there.
enum JSONSyntax {
  static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d }

  /// The message for text that does not parse.
  static func message(for bytes: [UInt8]) -> String {
    var scanner = Scanner(bytes: bytes)
    guard let failure = scanner.firstFailure() else { return "Unexpected end of JSON input" }
    return describe(failure, in: bytes)
  }

  /// body-parser's `createStrictSyntaxError`: a bare scalar is reported as an unexpected
  /// token at its first character.
  static func strictMessage(for bytes: [UInt8]) -> String {
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let first = text.first.map(String.init) ?? ""
    return "Unexpected token '\(first)', \"\(text)\" is not valid JSON"
  }

  enum Expectation {
    case value, propertyName, quotedPropertyName, colon, commaOrBrace, commaOrBracket, end
    case closingQuote
  }

  struct Failure {
    var expected: Expectation
    var position: Int
  }

  static func describe(_ failure: Failure, in bytes: [UInt8]) -> String {
    let at = failure.position
    if at >= bytes.count && failure.expected == .value { return "Unexpected end of JSON input" }
    let line = bytes.prefix(at).filter { $0 == 0x0a }.count + 1
    let column = at - (bytes.prefix(at).lastIndex(of: 0x0a).map { $0 + 1 } ?? 0) + 1
    let place = "in JSON at position \(at) (line \(line) column \(column))"
    switch failure.expected {
    case .propertyName: return "Expected property name or '}' \(place)"
    case .quotedPropertyName: return "Expected double-quoted property name \(place)"
    case .colon: return "Expected ':' after property name \(place)"
    case .commaOrBrace: return "Expected ',' or '}' after property value \(place)"
    case .commaOrBracket: return "Expected ',' or ']' after array element \(place)"
    case .end: return "Unexpected non-whitespace character after JSON \(place)"
    case .closingQuote: return "Unterminated string \(place)"
    case .value:
      let token = String(decoding: [bytes[at]], as: UTF8.self)
      return "Unexpected token '\(token)', \(context(bytes, at: at)) is not valid JSON"
    }
  }

  /// V8 quotes a text of up to 20 characters whole, and otherwise the ten characters either
  /// side of the failure, marking what it left out with `...`.
  static func context(_ bytes: [UInt8], at: Int) -> String {
    guard bytes.count > 20 else { return "\"\(String(decoding: bytes, as: UTF8.self))\"" }
    let start = max(0, at - 10)
    let end = min(bytes.count, at + 10)
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    return (start > 0 ? "...\"" : "\"") + text + (end < bytes.count ? "\"..." : "\"")
  }

  /// Walks the text the way a JSON parser does and stops at the first byte it cannot take.
  struct Scanner {
    let bytes: [UInt8]
    var index = 0

    mutating func firstFailure() -> Failure? {
      if let failure = value() { return failure }
      skipSpace()
      return index < bytes.count ? Failure(expected: .end, position: index) : nil
    }

    mutating func skipSpace() {
      while index < bytes.count, JSONSyntax.isSpace(bytes[index]) { index += 1 }
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func value() -> Failure? {
      skipSpace()
      switch peek() {
      case UInt8(ascii: "{"): return object()
      case UInt8(ascii: "["): return array()
      case UInt8(ascii: "\""): return string()
      case let b? where b == UInt8(ascii: "-") || (48...57).contains(b):
        while let c = peek(), "+-0123456789.eE".utf8.contains(c) { index += 1 }
        return nil
      default:
        // A literal is read letter by letter: `tru}` fails at the `}`.
        guard let word = ["true", "false", "null"].first(where: { $0.utf8.first == peek() })
        else { return Failure(expected: .value, position: index) }
        for letter in word.utf8 {
          guard peek() == letter else { return Failure(expected: .value, position: index) }
          index += 1
        }
        return nil
      }
    }

    mutating func string() -> Failure? {
      let start = index
      index += 1
      while let b = peek() {
        index += 1
        if b == UInt8(ascii: "\\") {
          index += 1
        } else if b == UInt8(ascii: "\"") {
          return nil
        }
      }
      return Failure(expected: .closingQuote, position: max(start, bytes.count))
    }

    mutating func object() -> Failure? {
      index += 1
      skipSpace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return nil
      }
      var first = true
      while true {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else {
          return Failure(expected: first ? .propertyName : .quotedPropertyName, position: index)
        }
        first = false
        if let failure = string() { return failure }
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { return Failure(expected: .colon, position: index) }
        index += 1
        if let failure = value() { return failure }
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return nil
        default: return Failure(expected: .commaOrBrace, position: index)
        }
      }
    }

    mutating func array() -> Failure? {
      index += 1
      skipSpace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return nil
      }
      while true {
        if let failure = value() { return failure }
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return nil
        default: return Failure(expected: .commaOrBracket, position: index)
        }
      }
    }
  }
}
