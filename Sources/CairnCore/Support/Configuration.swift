import Foundation

/// Settings from, in order of precedence: the environment, a `.env` file in the working
/// folder, and `$XDG_CONFIG_HOME/cairn/config`. Both files use `KEY=value` lines.
///
/// Keys: `IMMICH_URL`, `IMMICH_API_KEY`, `IMMICH_EMAIL`, `IMMICH_PASSWORD`,
/// `CAIRN_QUARANTINE_DAYS`, `CAIRN_STRICTNESS`, `CAIRN_THRESHOLD_PERCENT`, `CAIRN_FLOOR`,
/// `CAIRN_TRASH_FOLDERS`.
package struct Configuration: Sendable {
  package let paths: CairnPaths
  private let values: [String: String]
  /// Where each value came from (`environment`, a file path), for `--check` output.
  private let origins: [String: String]

  package init(values: [String: String], origins: [String: String] = [:], paths: CairnPaths) {
    self.values = values
    self.origins = origins
    self.paths = paths
  }

  /// Loads the configuration the way every tool does.
  package static func load(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    workingDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(CairnError) -> Configuration {
    let paths = CairnPaths(environment: environment)
    var values: [String: String] = [:]
    var origins: [String: String] = [:]
    for file in [paths.configFile, workingDirectory + "/.env"] {
      guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
      for (key, value) in try parseKeyValueLines(text, source: file) {
        values[key] = value
        origins[key] = file
      }
    }
    for (key, value) in environment where key.hasPrefix("IMMICH_") || key.hasPrefix("CAIRN_") {
      values[key] = value
      origins[key] = "environment"
    }
    return Configuration(values: values, origins: origins, paths: paths)
  }

  package func string(_ key: String) -> String? {
    values[key].flatMap { $0.isEmpty ? nil : $0 }
  }

  package func origin(of key: String) -> String? { origins[key] }

  package var serverURL: String? { string("IMMICH_URL") }
  package var apiKey: Secret? { string("IMMICH_API_KEY").map(Secret.init) }

  /// An integer setting within `range`, or `fallback` when unset.
  package func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int)
    throws(CairnError) -> Int
  {
    guard let text = string(key) else { return fallback }
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
      throw CairnError(
        .configuration,
        "\(key)=\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)",
        at: origins[key])
    }
    return value
  }

  /// Parses `.env`-style text: `KEY=value`, `export KEY=value`, quotes, `#` comments.
  package static func parseKeyValueLines(_ text: String, source: String) throws(CairnError)
    -> [(String, String)]
  {
    var pairs: [(String, String)] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      var line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix("export ") { line = String(line.dropFirst(7)) }
      guard let equals = line.firstIndex(of: "=") else {
        throw CairnError(.configuration, "expected KEY=value", at: "\(source):\(index + 1)")
      }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces)
      var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if let quote = value.first, quote == "\"" || quote == "'" {
        // A quoted value ends at its closing quote; a comment may follow it.
        let rest = value.dropFirst()
        guard let close = rest.firstIndex(of: quote) else {
          throw CairnError(.configuration, "unterminated quote", at: "\(source):\(index + 1)")
        }
        value = String(rest[..<close])
      } else if let hash = value.range(of: " #") {
        value = String(value[..<hash.lowerBound]).trimmingCharacters(in: .whitespaces)
      }
      guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
        throw CairnError(.configuration, "invalid key '\(key)'", at: "\(source):\(index + 1)")
      }
      pairs.append((key, value))
    }
    return pairs
  }
}
