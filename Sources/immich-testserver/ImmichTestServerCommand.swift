import ArgumentParser
import Foundation
import ImmichTestServer

/// `immich-testserver`: the in-process double as a standalone server for demos and
/// out-of-process tests.
@main
struct ImmichTestServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "immich-testserver",
    abstract: "Run a test double of the Immich API on the loopback interface",
    discussion: """
      Prints its base URL on stdout, then serves until SIGINT or SIGTERM. The control API \
      under /__testserver/ exposes the request log, state, faults, the clock and the purge \
      job that a forced delete or an emptied trash waits for.
      """)

  @Option(help: "TCP port on 127.0.0.1; 0 picks a free one.")
  var port: Int = 0

  @Option(
    name: .customLong("version"), help: "Immich version to imitate: v3.3, v3.2, v3.1 or v2.7.")
  var immichVersion: ImmichVersion?

  @Option(
    help: "Scenario JSON file (users, keys, partners, assets).",
    completion: .file(extensions: ["json"]))
  var scenario: String?

  @Flag(
    help:
      "Add demo@example.com / demo with the all-permission key demo-secret; print them on stderr.")
  var demoUser = false

  @Option(help: "Give the demo user this many generated timeline assets (implies --demo-user).")
  var generate: Int?

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
    if let generate, generate < 0 { throw ValidationError("--generate must not be negative") }
  }

  func run() async throws {
    var loaded = Scenario()
    if let path = scenario {
      do {
        loaded = try Scenario.load(from: URL(fileURLWithPath: path))
      } catch {
        Self.complain("\(path): \(error)")
        throw ExitCode(1)
      }
    }
    if let immichVersion { loaded.version = immichVersion }
    if let generate {
      let generated = Scenario.generated(count: generate, version: loaded.version)
      loaded.users += generated.users
      loaded.apiKeys += generated.apiKeys
      loaded.assets += generated.assets
    } else if demoUser {
      let demo = Scenario.demo(version: loaded.version)
      loaded.users += demo.users
      loaded.apiKeys += demo.apiKeys
    }

    let server = ImmichTestServer(scenario: loaded)
    let url: URL
    do {
      url = try await server.start(port: port)
    } catch {
      Self.complain("cannot listen on 127.0.0.1:\(port): \(error)")
      throw ExitCode(1)
    }
    FileHandle.standardOutput.write(Data("\(url.absoluteString)\n".utf8))
    if demoUser || generate != nil {
      Self.complain(
        "demo user demo@example.com password demo, API key demo-secret (all permissions)")
    }
    await Self.waitForTermination()
    await server.stop()
  }

  static func complain(_ message: String) {
    FileHandle.standardError.write(Data("immich-testserver: \(message)\n".utf8))
  }

  /// Suspends until SIGINT or SIGTERM arrives.
  static func waitForTermination() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield() }
      source.resume()
      return source
    }
    for await _ in stream { break }
    sources.forEach { $0.cancel() }
  }
}

extension ImmichVersion: ExpressibleByArgument {}
