import Foundation
import Hummingbird
import Logging

/// A faithful in-process double of the Immich API (v2.7 or v3.1) for tests and demos.
///
/// ```swift
/// let server = ImmichTestServer(scenario: scenario)
/// let url = try await server.start()   // http://127.0.0.1:<port>
/// defer { Task { await server.stop() } }
/// ```
/// `withRunning(_:_:)` starts and stops around a closure on every path.
package final class ImmichTestServer: Sendable {
  package let state: ServerState
  package let log: RequestLog
  package let faults: FaultInjector
  /// Search pages that never end (off unless armed).
  package let paging = EndlessPaging()
  let router = APIRouter()
  private let logger: Logger
  private let running = LockedBox<Running?>(nil)

  struct Running: Sendable {
    var url: URL
    var task: Task<Void, Never>
  }

  package init(scenario: Scenario, logger: Logger? = nil) {
    state = ServerState(scenario: scenario)
    log = RequestLog()
    faults = FaultInjector()
    self.logger =
      logger
      ?? {
        var quiet = Logger(label: "immich-testserver")
        quiet.logLevel = .critical
        return quiet
      }()
  }

  /// The base URL while running (no `/api` suffix: that is part of each route).
  package var baseURL: URL? { running.value?.url }

  /// Binds `host:port` (port 0 picks a free one) and returns the base URL once listening.
  @discardableResult
  package func start(host: String = "127.0.0.1", port: Int = 0) async throws -> URL {
    if let url = baseURL { return url }
    let (events, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
    let app = Application(
      responder: CallbackResponder { [self] (request: Request, context: ServerContext) in
        try await self.respond(to: request, context: context)
      },
      configuration: .init(address: .hostname(host, port: port), serverName: nil),
      onServerRunning: { channel in
        continuation.yield(.success(channel.localAddress?.port ?? 0))
      },
      logger: logger)
    // On threads of its own, so a test that blocks the cooperative pool cannot silence it.
    let task = Task(executorPreference: ServerThreads.shared) {
      do {
        try await app.run()
      } catch {
        continuation.yield(.failure(error))
      }
      continuation.finish()
    }
    var iterator = events.makeAsyncIterator()
    guard let first = await iterator.next() else { throw ServerError.didNotStart }
    let boundPort = try first.get()
    guard let url = URL(string: "http://\(host):\(boundPort)") else {
      throw ServerError.didNotStart
    }
    running.value = Running(url: url, task: task)
    return url
  }

  /// Stops listening and waits for the server task to finish. Safe to call more than once.
  package func stop() async {
    guard let current = running.take() else { return }
    current.task.cancel()
    await current.task.value
  }

  /// Starts a server for `scenario`, runs `body`, and stops the server however `body` ends.
  package static func withRunning<T: Sendable>(
    _ scenario: Scenario, _ body: (ImmichTestServer, URL) async throws -> T
  ) async throws -> T {
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    do {
      let result = try await body(server, url)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  enum ServerError: Error {
    case didNotStart
    /// Thrown to make Hummingbird drop a connection without answering.
    case connectionDropped
    case streamTruncated
  }
}

/// A small lock-protected box; the library links no NIO concurrency helpers directly.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

extension LockedBox {
  func take<Wrapped>() -> Value where Value == Wrapped? {
    lock.withLock {
      let current = stored
      stored = nil
      return current
    }
  }
}

/// Keeps the channel so a fault can close the connection before any response is written —
/// Hummingbird writes the response head before a streaming body starts, so throwing from the
/// body could not produce "no response at all".
struct ServerContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  /// Closes the connection at once, before anything is written.
  let dropConnection: @Sendable () async -> Void

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    let channel = source.channel
    dropConnection = { try? await channel.close().get() }
  }

  /// Above the real 10 MB JSON limit so that uploads of real photos work in demos.
  var maxUploadSize: Int { 512 * 1024 * 1024 }
}
