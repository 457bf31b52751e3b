import CairnSettings
import CairnStream

/// Timeouts and retry bounds for every call the client makes.
package struct ClientOptions: Sendable, Equatable {
  /// How long one request may take, from sending it to the end of the answer.
  package var requestTimeout: Duration
  /// How long the sync stream may take to start answering (its body may then take longer,
  /// as long as bytes keep arriving within `requestTimeout`).
  package var streamTimeout: Duration
  /// Attempts for a request that is safe to repeat (1 = no retry).
  package var maxAttempts: Int
  /// The wait before the first retry; it doubles on each further attempt up to `maxBackoff`.
  package var initialBackoff: Duration
  package var maxBackoff: Duration
  /// Lines one sync stream may send before it is taken for a server that streams for ever.
  package var syncLineLimit = SettingsTable.syncMaxLines.fallback

  package init(
    requestTimeout: Duration = .seconds(SettingsTable.httpTimeout.fallback),
    streamTimeout: Duration = .seconds(120),
    maxAttempts: Int = SettingsTable.httpAttempts.fallback,
    initialBackoff: Duration = .milliseconds(250),
    maxBackoff: Duration = .seconds(4)
  ) {
    self.requestTimeout = requestTimeout
    self.streamTimeout = streamTimeout
    self.maxAttempts = max(1, maxAttempts)
    self.initialBackoff = initialBackoff
    self.maxBackoff = maxBackoff
  }

  /// The defaults, adjusted by `CAIRN_HTTP_TIMEOUT`, `CAIRN_HTTP_ATTEMPTS` and
  /// `CAIRN_SYNC_MAX_LINES` from the configuration (their rules are in `SettingsTable`).
  package static func from(_ configuration: Configuration) throws(CairnError) -> ClientOptions {
    var options = ClientOptions()
    let timeout = try SettingsTable.httpTimeout.value(in: configuration)
    options.requestTimeout = .seconds(timeout)
    options.streamTimeout = .seconds(max(timeout, 120))
    options.maxAttempts = try SettingsTable.httpAttempts.value(in: configuration)
    options.syncLineLimit = try SettingsTable.syncMaxLines.value(in: configuration)
    return options
  }

  /// The wait before attempt `attempt + 1` (attempt counts from 1).
  func backoff(after attempt: Int) -> Duration {
    var wait = initialBackoff
    for _ in 1..<max(1, attempt) {
      wait = wait * 2
      if wait >= maxBackoff { return maxBackoff }
    }
    return min(wait, maxBackoff)
  }
}
