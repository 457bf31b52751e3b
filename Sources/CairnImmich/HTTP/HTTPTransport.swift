import AsyncHTTPClient
import CairnSettings
import CairnSupport
import Foundation
import NIOCore
import NIOHTTP1

/// Whether a request may be sent again after a failure that left its outcome unknown.
enum RetryPolicy: Sendable {
  /// Reads, and writes whose repetition leaves the same state (see `ImmichClient`).
  case safe
  /// Requests whose repetition would do something twice (login creates a session).
  case never
}

/// What the server answered.
struct HTTPAnswer: Sendable {
  var status: Int
  var contentType: String?
  var body: [UInt8]
  /// How many times the request was sent to get this answer.
  var attempts = 1
  /// The `Date` header: the server's clock when it answered, in whole seconds.
  var date: String?

  var isJSON: Bool { contentType?.lowercased().contains("json") ?? false }

  /// The `Date` header read (RFC 9110's IMF-fixdate, `Sun, 29 Nov 2026 05:40:35 GMT`); nil
  /// when absent or in another form.
  var serverDate: Date? {
    guard let date else { return nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: date)
  }
  var isHTML: Bool { contentType?.lowercased().contains("text/html") ?? false }
}

/// One request, with the credential kept apart from everything that may be printed.
struct HTTPCall: Sendable {
  var method: HTTPMethod
  /// Absolute URL.
  var url: String
  /// Sent as headers; never printed.
  var credential: Credential
  var body: [UInt8]?
  var retry: RetryPolicy
  /// `GET /api/server/ping`: what error messages name.
  var label: String
}

/// How a request proves who it is.
enum Credential: Sendable {
  case none
  case apiKey(Secret)
  case session(Secret)

  func apply(to headers: inout HTTPHeaders) {
    switch self {
    case .none: break
    case .apiKey(let key): headers.replaceOrAdd(name: "x-api-key", value: key.reveal())
    case .session(let token):
      headers.replaceOrAdd(name: "x-immich-user-token", value: token.reveal())
    }
  }
}

/// Sends requests over AsyncHTTPClient with timeouts and bounded, exponential retries, and
/// counts them (the `requests` count of `cairn-fetch`'s end record).
final class HTTPTransport: Sendable {
  let options: ClientOptions
  private let counter = Locked(0)

  init(options: ClientOptions) { self.options = options }

  /// Requests sent so far, retries included.
  var requestsSent: Int { counter.current }

  /// One process-wide client, never shut down (like `HTTPClient.shared`), with our timeouts:
  /// connecting may take 10 s; a body may pause at most 60 s between bytes. It follows no
  /// redirect: `execute` follows those that keep the key on its own server (`RedirectPolicy`).
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(10), read: .seconds(60)))
    configuration.httpVersion = .http1Only
    configuration.decompression = .enabled(limit: .none)
    return HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }()

  /// Sends `call` and collects the whole answer, retrying what `call.retry` allows.
  func send(_ call: HTTPCall) async throws(ImmichError) -> HTTPAnswer {
    var (answer, attempts) = try await withRetries(call, status: { $0.status }) {
      () async throws(Failure) in try await sendOnce(call)
    }
    answer.attempts = attempts
    return answer
  }

  /// Opens a streamed answer (the sync stream). Retries only until the head has arrived: once
  /// lines flow, a failure is the caller's to handle.
  func open(_ call: HTTPCall) async throws(ImmichError) -> HTTPClientResponse {
    try await withRetries(call, status: { Int($0.status.code) }) {
      () async throws(Failure) in try await execute(call, timeout: options.streamTimeout)
    }.0
  }

  /// Runs `attempt` up to the call's number of tries, backing off between them, while the
  /// server answers 5xx (not 501: "not implemented" won't change) or the failure is one worth
  /// another try. Returns the last answer and how many tries it took.
  private func withRetries<Answer>(
    _ call: HTTPCall, status: (Answer) -> Int,
    _ attempt: () async throws(Failure) -> Answer
  ) async throws(ImmichError) -> (Answer, Int) {
    let attempts = call.retry == .safe ? options.maxAttempts : 1
    var tries = 1
    while true {
      do throws(Failure) {
        let answer = try await attempt()
        let code = status(answer)
        if code >= 500, code != 501, tries < attempts {
          tries += 1
          try? await Task.sleep(for: options.backoff(after: tries - 1))
          continue
        }
        return (answer, tries)
      } catch {
        if error.retryable, tries < attempts {
          tries += 1
          try? await Task.sleep(for: options.backoff(after: tries - 1))
          continue
        }
        throw error.immichError(call.label, attempts: tries)
      }
    }
  }

  private func sendOnce(_ call: HTTPCall) async throws(Failure) -> HTTPAnswer {
    let clock = ContinuousClock()
    let started = clock.now
    let response = try await execute(call, timeout: options.requestTimeout)
    let remaining = options.requestTimeout - (clock.now - started)
    do {
      // The head arrived in time; the body gets what is left of the request's time.
      let body = try await withDeadline(remaining) {
        try await response.body.collect(upTo: 512 << 20)
      }
      return HTTPAnswer(
        status: Int(response.status.code),
        contentType: response.headers.first(name: "content-type"),
        body: Array(buffer: body), date: response.headers.first(name: "date"))
    } catch {
      throw Failure.from(error, timeout: options.requestTimeout)
    }
  }

  /// Sends `call`, following the redirects `RedirectPolicy` allows and refusing the others
  /// before anything reaches another server.
  private func execute(_ call: HTTPCall, timeout: Duration) async throws(Failure)
    -> HTTPClientResponse
  {
    var call = call
    var redirects = 0
    while true {
      let response = try await executeOnce(call, timeout: timeout)
      let status = Int(response.status.code)
      guard RedirectPolicy.isRedirect(status),
        let location = response.headers.first(name: "location")
      else { return response }
      // The redirect's own body says nothing cairn needs; reading it frees the connection.
      _ = try? await response.body.collect(upTo: 1 << 20)
      guard redirects < RedirectPolicy.maxRedirects else {
        throw Failure(
          reason: .redirected, detail: "more than \(redirects) redirects", timeout: timeout)
      }
      switch RedirectPolicy.decide(from: call.url, location: location) {
      case .refuse(let words):
        throw Failure(reason: .redirected, detail: words, timeout: timeout)
      case .follow(let url):
        redirects += 1
        if !RedirectPolicy.keepsMethodAndBody(status, call.method) {
          call.method = .GET
          call.body = nil
        }
        call.url = url
      }
    }
  }

  private func executeOnce(_ call: HTTPCall, timeout: Duration) async throws(Failure)
    -> HTTPClientResponse
  {
    var request = HTTPClientRequest(url: call.url)
    request.method = call.method
    request.headers.add(name: "accept", value: "application/json")
    request.headers.add(name: "user-agent", value: "cairn/\(CairnVersion.current)")
    call.credential.apply(to: &request.headers)
    if let body = call.body {
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: body))
    }
    counter.withLock { $0 += 1 }
    do {
      return try await Self.client.execute(request, timeout: .init(timeout))
    } catch {
      throw Failure.from(error, timeout: timeout)
    }
  }
}

extension TimeAmount {
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}

/// Runs `body`, failing with a timeout if it takes longer than `limit`.
func withDeadline<T: Sendable>(
  _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: max(limit, .zero))
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw HTTPClientError.deadlineExceeded
    }
    return value
  }
}
