import Foundation

/// The examples of the man pages' EXAMPLES sections, as a reader copies them: each `.Dl` line
/// and each `.Bd -literal` block, with the mdoc escapes undone and a leading `$ ` prompt left
/// out.
struct ManPageExample: Sendable, CustomStringConvertible {
  /// The page's file name (`cairn-gate.1`).
  let page: String
  /// The text as a person would copy it: one command line, or a block of lines.
  let text: String

  var firstLine: String { String(text.prefix { $0 != "\n" }) }
  var description: String { "\(page): \(firstLine)" }

  static let manFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("man")

  /// Every example of every page in man/ (sections 1, 5 and 7), page by page in name order.
  static func all() throws -> [ManPageExample] {
    let names = try FileManager.default.contentsOfDirectory(atPath: manFolder.path)
      .filter { $0.hasSuffix(".1") || $0.hasSuffix(".5") || $0.hasSuffix(".7") }.sorted()
    return try names.flatMap { name in
      parse(
        try String(contentsOf: manFolder.appendingPathComponent(name), encoding: .utf8),
        page: name)
    }
  }

  /// The examples in the EXAMPLES section of one page's mdoc source.
  static func parse(_ source: String, page: String) -> [ManPageExample] {
    var examples: [ManPageExample] = []
    var inSection = false
    var block: [String]?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix(".Sh ") {
        inSection = line == ".Sh EXAMPLES"
        continue
      }
      guard inSection else { continue }
      if var lines = block {
        if line == ".Ed" {
          examples.append(ManPageExample(page: page, text: lines.joined(separator: "\n")))
          block = nil
        } else {
          lines.append(unescape(line))
          block = lines
        }
      } else if line.hasPrefix(".Bd -literal") {
        block = []
      } else if line.hasPrefix(".Dl ") {
        var text = unescape(String(line.dropFirst(4)))
        if text.hasPrefix("$ ") { text.removeFirst(2) }
        examples.append(ManPageExample(page: page, text: text))
      }
    }
    return examples
  }

  /// mdoc's escapes as these pages use them.
  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: #"\(dq"#, with: "\"")
      .replacingOccurrences(of: #"\&"#, with: "")
      .replacingOccurrences(of: #"\-"#, with: "-")
      .replacingOccurrences(of: #"\e"#, with: "\\")
  }
}
