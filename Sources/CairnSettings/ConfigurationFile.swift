import CairnStream
import CairnSupport

/// The configuration file: `KEY=value` lines shared by every profile, then one
/// `[profile NAME]` section per library and account.
///
///     CAIRN_NOTIFY_URL=https://ntfy.sh/our-photos     # every profile
///     [profile anna]
///     IMMICH_URL=https://photos.example.net
///     IMMICH_API_KEY_FILE=anna.key
///     CAIRN_LIBRARY=/srv/phones/anna
///
/// A file without sections is one unnamed profile, as before profiles existed.
package struct ConfigurationFile: Sendable {
  /// The lines before the first section.
  package var shared: [(String, String)] = []
  /// Each profile's own lines, in the order the file names them.
  package var profiles: [(name: String, pairs: [(String, String)])] = []

  package var profileNames: [String] { profiles.map(\.name) }

  package func pairs(ofProfile name: String) -> [(String, String)]? {
    profiles.first { $0.name == name }?.pairs
  }

  /// Splits the file at its `[profile NAME]` lines and parses each part as `.env` text.
  package static func parse(_ text: String, source: String) throws(CairnError)
    -> ConfigurationFile
  {
    var file = ConfigurationFile()
    var current: String?
    var part = ""
    var partStart = 0
    func flush() throws(CairnError) {
      // Blank lines keep each part's line numbers those of the file.
      let padded = String(repeating: "\n", count: partStart) + part
      let pairs = try Configuration.parseKeyValueLines(padded, source: source)
      if let current {
        file.profiles.append((current, pairs))
      } else {
        file.shared = pairs
      }
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, rawLine) in lines.enumerated() {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      guard line.hasPrefix("[") else {
        part += rawLine + "\n"
        continue
      }
      let name = try sectionName(line, at: "\(source):\(index + 1)")
      if file.profiles.contains(where: { $0.name == name }) || current == name {
        throw CairnError(
          .configuration, "profile '\(name)' is defined twice", at: "\(source):\(index + 1)")
      }
      try flush()
      current = name
      part = ""
      partStart = index + 1
    }
    try flush()
    return file
  }

  /// `NAME` from a `[profile NAME]` line.
  private static func sectionName(_ line: String, at location: String) throws(CairnError)
    -> String
  {
    var inner = Substring(line)
    if let hash = inner.range(of: " #") { inner = inner[..<hash.lowerBound] }
    inner = Substring(inner.trimmingCharacters(in: .whitespaces))
    guard inner.hasPrefix("[profile "), inner.hasSuffix("]") else {
      throw CairnError(.configuration, "expected KEY=value or [profile NAME]", at: location)
    }
    let name = inner.dropFirst("[profile ".count).dropLast().trimmingCharacters(in: .whitespaces)
    guard isValidProfileName(name) else {
      throw CairnError(
        .configuration,
        "invalid profile name '\(name)': letters, digits, '.', '_' and '-', starting with a"
          + " letter or digit", at: location)
    }
    return name
  }

  /// Profile names become file names (locks, the nightly run's folders) and systemd
  /// credential names, so they stay within a portable set.
  package static func isValidProfileName(_ name: String) -> Bool {
    guard let first = name.first, first.isASCII, first.isLetter || first.isNumber,
      name.count <= 64
    else { return false }
    return name.allSatisfy { c in
      c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "_" || c == "-")
    }
  }
}
