import CairnCore

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
  package var syncLineLimit = 10_000_000

  package init(
    requestTimeout: Duration = .seconds(30), streamTimeout: Duration = .seconds(120),
    maxAttempts: Int = 4, initialBackoff: Duration = .milliseconds(250),
    maxBackoff: Duration = .seconds(4)
  ) {
    self.requestTimeout = requestTimeout
    self.streamTimeout = streamTimeout
    self.maxAttempts = max(1, maxAttempts)
    self.initialBackoff = initialBackoff
    self.maxBackoff = maxBackoff
  }

  /// The defaults, adjusted by `CAIRN_HTTP_TIMEOUT` (seconds per request, 1…600),
  /// `CAIRN_HTTP_ATTEMPTS` (1…10) and `CAIRN_SYNC_MAX_LINES` (1000…1e9) from the
  /// configuration.
  package static func from(_ configuration: Configuration) throws(CairnError) -> ClientOptions {
    var options = ClientOptions()
    let timeout = try configuration.integer("CAIRN_HTTP_TIMEOUT", in: 1...600, default: 30)
    options.requestTimeout = .seconds(timeout)
    options.streamTimeout = .seconds(max(timeout, 120))
    options.maxAttempts = try configuration.integer("CAIRN_HTTP_ATTEMPTS", in: 1...10, default: 4)
    options.syncLineLimit = try configuration.integer(
      "CAIRN_SYNC_MAX_LINES", in: 1000...1_000_000_000, default: options.syncLineLimit)
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
