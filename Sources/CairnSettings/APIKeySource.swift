import CairnStream
import CairnSupport
import Foundation

/// Where the API key comes from: `IMMICH_API_KEY` itself, a file named by
/// `IMMICH_API_KEY_FILE` (Docker and compose secrets, `/run/secrets/…`), or a systemd
/// credential (`LoadCredential=immich-api-key:…`, `immich-api-key.NAME` for a profile).
///
/// A key file is read only when a tool needs the key, so a tool that never talks to the
/// server is not stopped by one. It must be the user's own (no group or other read bit), like
/// the configuration file; its surrounding whitespace, a trailing newline above all, is not
/// part of the key.
package enum APIKeySource: Sendable, Equatable {
  case value(origin: String)
  case file(path: String, origin: String)
  case credential(path: String)

  /// What `check` prints: where the key was read, never the key.
  package var description: String {
    switch self {
    case .value(let origin): return "IMMICH_API_KEY from \(origin)"
    case .file(let path, let origin):
      return "the key file \(path) (IMMICH_API_KEY_FILE from \(origin))"
    case .credential(let path): return "the systemd credential \(path)"
    }
  }

  /// The systemd credential that holds the key of `profile` (or of the only profile).
  package static func credentialName(profile: String?) -> String {
    profile.map { "immich-api-key.\($0)" } ?? "immich-api-key"
  }

  /// The key in the file at `path`: its one line, without the line's end.
  package static func readKeyFile(_ path: String, what: String) throws(CairnError) -> Secret {
    guard let text = try PrivateFile.readText(path, what: what) else {
      throw CairnError(.configuration, "the \(what) does not exist", at: path)
    }
    let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !key.isEmpty else {
      throw CairnError(.configuration, "the \(what) is empty", at: path)
    }
    guard !key.contains(where: \.isNewline) else {
      throw CairnError(
        .configuration, "the \(what) holds more than one line; it must hold the key alone",
        at: path)
    }
    return Secret(key)
  }
}
