import CairnRecords
import CairnStream
import CairnSupport
import Foundation

/// Settings from, in order of precedence: the environment, a `.env` file in the working
/// folder, the chosen profile's section of `$XDG_CONFIG_HOME/cairn/config`, and that file's
/// lines before its first section. Both files use `KEY=value` lines (see `ConfigurationFile`).
///
/// Keys: `IMMICH_URL`, `IMMICH_API_KEY` or `IMMICH_API_KEY_FILE`, `IMMICH_EMAIL`,
/// `IMMICH_PASSWORD`, `CAIRN_QUARANTINE_DAYS`, `CAIRN_STRICTNESS`, `CAIRN_THRESHOLD_PERCENT`,
/// `CAIRN_FLOOR`, `CAIRN_LIBRARY`, `CAIRN_TRASH_FOLDERS`, and the others of `SettingsTable`,
/// which holds each setting's rule. The profile is `CAIRN_PROFILE`, which `--profile` sets
/// (see `CommonOptions`).
package struct Configuration: Sendable {
  package let paths: CairnPaths
  private let values: [String: String]
  /// Where each value came from (`environment`, a file path), for `check` output.
  private let origins: [String: String]
  /// The profile chosen with `--profile` or `CAIRN_PROFILE`; nil for the unnamed one.
  package let profile: String?
  /// The profiles the configuration file names, in its order.
  package let profileNames: [String]
  /// Where a relative `IMMICH_API_KEY_FILE` from the environment or `.env` is found.
  private let workingDirectory: String
  /// systemd's `$CREDENTIALS_DIRECTORY`, where a unit's `LoadCredential=` puts the key.
  private let credentialsDirectory: String?

  package init(
    values: [String: String], origins: [String: String] = [:], paths: CairnPaths,
    profile: String? = nil, profileNames: [String] = [], workingDirectory: String = "/",
    credentialsDirectory: String? = nil
  ) {
    self.values = values
    self.origins = origins
    self.paths = paths
    self.profile = profile
    self.profileNames = profileNames
    self.workingDirectory = workingDirectory
    self.credentialsDirectory = credentialsDirectory
  }

  /// Loads the configuration the way every tool does.
  package static func load(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    workingDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(CairnError) -> Configuration {
    let paths = CairnPaths(environment: environment)
    let profile = environment["CAIRN_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    var file = ConfigurationFile()
    if let text = try PrivateFile.readText(paths.configFile, what: "configuration file") {
      file = try ConfigurationFile.parse(text, source: paths.configFile)
    }
    // Lowest precedence first.
    var layers: [Layer] = [(paths.configFile, file.shared)]
    if let profile {
      layers.append(
        (paths.configFile + " [profile \(profile)]", try profilePairs(profile, file, paths)))
    }
    if let dotEnv = try dotEnvLayer(workingDirectory) { layers.append(dotEnv) }
    layers.append(
      (
        "environment",
        environment.filter { $0.key.hasPrefix("IMMICH_") || $0.key.hasPrefix("CAIRN_") }
          .map { ($0.key, $0.value) }
      ))
    let (values, origins) = try merge(layers)
    return Configuration(
      values: values, origins: origins, paths: paths, profile: profile,
      profileNames: file.profileNames, workingDirectory: workingDirectory,
      credentialsDirectory: environment["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 })
  }

  /// Where some settings came from, and the settings.
  private typealias Layer = (source: String, pairs: [(String, String)])

  /// `./.env`, when there is one.
  private static func dotEnvLayer(_ workingDirectory: String) throws(CairnError) -> Layer? {
    let path = workingDirectory + "/.env"
    guard let text = try PrivateFile.readText(path, what: ".env file", mustBePrivate: false)
    else { return nil }
    let pairs = try parseKeyValueLines(text, source: path)
    // A folder's .env often belongs to another program; it must be private once it holds
    // one of cairn's secrets.
    if pairs.contains(where: { secretKeys.contains($0.0) && !$0.1.isEmpty }),
      let mode = PrivateFile.mode(path)
    {
      try PrivateFile.requirePrivate(path, mode: mode, what: ".env file, which holds a secret,")
    }
    return (path, pairs)
  }

  /// Each layer's values over those of the layers before it.
  private static func merge(_ layers: [Layer]) throws(CairnError)
    -> (values: [String: String], origins: [String: String])
  {
    var values: [String: String] = [:]
    var origins: [String: String] = [:]
    for layer in layers {
      let keyNames = Set(layer.pairs.filter { !$0.1.isEmpty }.map(\.0))
      if keyNames.isSuperset(of: keyAlternatives) {
        throw CairnError(
          .configuration, "IMMICH_API_KEY and IMMICH_API_KEY_FILE are both set; keep one",
          at: layer.source)
      }
      // A key set closer to the run replaces the other way of giving it.
      if !keyNames.isDisjoint(with: keyAlternatives) {
        for key in keyAlternatives {
          values[key] = nil
          origins[key] = nil
        }
      }
      for (key, value) in layer.pairs {
        values[key] = value
        origins[key] = layer.source
      }
    }
    return (values, origins)
  }

  /// Settings a `.env` file may only hold when other users cannot read it.
  private static let secretKeys: Set<String> = ["IMMICH_API_KEY", "IMMICH_PASSWORD"]
  /// The two ways of giving the key; one place sets at most one of them.
  private static let keyAlternatives: Set<String> = ["IMMICH_API_KEY", "IMMICH_API_KEY_FILE"]

  /// The lines of `profile`'s section; a profile the file does not name is an error, never
  /// a silent fall back to the shared settings (they may be another account's).
  private static func profilePairs(
    _ profile: String, _ file: ConfigurationFile, _ paths: CairnPaths
  ) throws(CairnError) -> [(String, String)] {
    guard ConfigurationFile.isValidProfileName(profile) else {
      throw CairnError(
        .configuration,
        "invalid profile name '\(profile)': letters, digits, '.', '_' and '-', starting with a"
          + " letter or digit")
    }
    guard let pairs = file.pairs(ofProfile: profile) else {
      let known =
        file.profileNames.isEmpty
        ? "it has no [profile NAME] sections"
        : "its profiles: " + file.profileNames.joined(separator: ", ")
      throw CairnError(
        .configuration, "no profile '\(profile)' in the configuration file (\(known))",
        at: paths.configFile)
    }
    return pairs
  }

  package func string(_ key: String) -> String? {
    values[key].flatMap { $0.isEmpty ? nil : $0 }
  }

  package func origin(of key: String) -> String? { origins[key] }

  package var serverURL: String? { string("IMMICH_URL") }

  /// Where a relative folder in `key`'s value is found: the working folder when the
  /// environment or `./.env` gives it (as a shell would read it), the home folder when the
  /// configuration file does. The file is read by the services and cron, which run in the home
  /// folder, and by commands typed anywhere: from the home folder they all reach one folder.
  package func pathBase(of key: String) -> PathBase {
    let fromFile = origins[key].map { $0.hasPrefix(paths.configFile) } ?? false
    return PathBase(home: paths.home, relativeTo: fromFile ? paths.home : workingDirectory)
  }

  /// Where the key will be read from, or nil when no way of giving it is set.
  package var apiKeySource: APIKeySource? {
    if string("IMMICH_API_KEY") != nil {
      return .value(origin: origins["IMMICH_API_KEY"] ?? "?")
    }
    if let file = string("IMMICH_API_KEY_FILE") {
      let origin = origins["IMMICH_API_KEY_FILE"] ?? "?"
      return .file(path: resolveKeyFile(file, from: origin), origin: origin)
    }
    if let credentialsDirectory {
      let path = credentialsDirectory + "/" + APIKeySource.credentialName(profile: profile)
      if PrivateFile.mode(path) != nil { return .credential(path: path) }
    }
    return nil
  }

  /// The API key, read from its file when it is given as one; nil when none is set.
  package func apiKey() throws(CairnError) -> Secret? {
    switch apiKeySource {
    case nil: return nil
    case .value: return string("IMMICH_API_KEY").map(Secret.init)
    case .file(let path, _): return try APIKeySource.readKeyFile(path, what: "API key file")
    case .credential(let path):
      return try APIKeySource.readKeyFile(path, what: "API key credential")
    }
  }

  /// `~/` is the home folder; a relative path is beside the configuration file that names
  /// it, or in the working folder when the environment or `.env` names it.
  private func resolveKeyFile(_ path: String, from origin: String) -> String {
    if path.hasPrefix("/") { return path }
    if path.hasPrefix("~/") { return paths.home + path.dropFirst(1) }
    let base = origin.hasPrefix(paths.configFile) ? paths.configHome : workingDirectory
    return base + "/" + path
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
