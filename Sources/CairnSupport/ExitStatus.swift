/// The exit statuses every cairn tool uses; `man/cairn.7` documents the same table.
package enum ExitStatus: Int32, Sendable, CaseIterable {
  /// Everything asked for was done.
  case success = 0
  /// The tool finished, but some items failed (unreadable files, assets the server refused);
  /// they are reported as `error` records and on stderr.
  case partial = 1
  /// A safety rail refused to go on (incomplete scan, threshold, empty server, trash disabled,
  /// unapproved plan). Nothing was changed on the server.
  case refused = 25
  /// Command-line usage error (swift-argument-parser's code, as sysexits' EX_USAGE).
  case usage = 64
  /// Malformed input: not NDJSON, a bad record, a missing header or trailer, a newer schema.
  case malformedInput = 65
  /// The server could not be reached or failed (network, TLS, 5xx, not an Immich API URL).
  case serverFailure = 69
  /// Local state could not be read or written (database refused, disk full, permissions).
  case stateFailure = 74
  /// Another cairn run holds the partition's lock; try again when it has finished.
  case busy = 75
  /// The server rejected the credentials or the API key lacks a permission.
  case permission = 77
  /// Configuration is missing or invalid (no server URL or API key, bad settings).
  case configuration = 78
  /// Interrupted by a signal (SIGINT/SIGTERM); the journal says how far the run got.
  case interrupted = 130
  /// The reader of our output went away (as a process killed by SIGPIPE).
  case downstreamClosed = 141

  /// One line per status, for `--help` discussions and man pages.
  package var meaning: String {
    switch self {
    case .success: return "success"
    case .partial: return "finished, but some items failed"
    case .refused: return "a safety rail refused; nothing was changed"
    case .usage: return "usage error"
    case .malformedInput: return "malformed or truncated input"
    case .serverFailure: return "server unreachable or failing"
    case .stateFailure: return "local state unreadable or unwritable"
    case .busy: return "another run holds the lock"
    case .permission: return "credentials rejected or permission missing"
    case .configuration: return "configuration missing or invalid"
    case .interrupted: return "interrupted"
    case .downstreamClosed: return "output pipe closed"
    }
  }
}
