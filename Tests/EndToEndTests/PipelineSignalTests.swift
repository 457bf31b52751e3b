import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Ctrl-C, a hangup or a `kill` (SIGKILL too) while `cairn-reconcile`'s own `cairn-fetch` lists
/// a server that pages for ever (slowly: every page is held a moment): every process of the
/// pipeline ends, and the server is asked for no more pages.
@Suite(.serialized)
struct PipelineSignalTests {
  enum Target: String, Sendable {
    /// The pipeline's process group, as a terminal's Ctrl-C or hangup reaches it.
    case pipeline
    /// `cairn-reconcile` alone, as `kill PID` from a script or a service manager.
    case reconcile
  }

  static let cases: [(Int32, Target)] = [
    (SIGINT, .pipeline), (SIGHUP, .pipeline), (SIGTERM, .pipeline), (SIGTERM, .reconcile),
    (SIGINT, .reconcile), (SIGHUP, .reconcile),
    // Nothing can be passed on from a SIGKILL: cairn-fetch watches its parent itself.
    (SIGKILL, .reconcile),
  ]

  @Test(arguments: cases)
  func aSignalEndsEveryProcessWhileTheListingPagesForEver(signal: Int32, target: Target)
    async throws
  {
    let lib = AdversarialLibrary()
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    let server = try lib.running()
    server.paging.arm(.counting)
    server.faults.inject(
      Fault(
        method: "POST", path: "/api/search/metadata", count: 1_000_000,
        action: .delay(seconds: 0.1)))
    let pages = { server.log.all.filter { $0.path == "/api/search/metadata" }.count }

    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c", "cairn-hash Photos | cairn-reconcile > reconciled.ndjson 2> reconcile.err",
    ]
    var environment = lib.environment
    environment["PATH"] = ToolRunner.productsDirectory + ":/usr/bin:/bin"
    shell.environment = environment
    shell.currentDirectoryURL = URL(fileURLWithPath: lib.dir.path)
    try shell.run()
    defer { if shell.isRunning { kill(-shell.processIdentifier, SIGKILL) } }
    // Foundation starts the shell in a group of its own: the pipeline's, never the tests'.
    let group = getpgid(shell.processIdentifier)
    try #require(group == shell.processIdentifier && group != getpgrp())

    let reconcile = try #require(await Self.child(of: shell.processIdentifier, "cairn-reconcile"))
    let fetch = try #require(await Self.child(of: reconcile, "cairn-fetch"))
    let deadline = ContinuousClock.now + .seconds(30)
    while pages() < 3 && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    try #require(pages() >= 3, "the listing never got going")

    #expect(kill(target == .pipeline ? -group : reconcile, signal) == 0)
    let stopped = ContinuousClock.now + .seconds(10)
    while (Self.isAlive(fetch) || shell.isRunning) && ContinuousClock.now < stopped {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(!Self.isAlive(reconcile), "cairn-reconcile outlived the signal")
    #expect(!Self.isAlive(fetch), "cairn-fetch outlived the signal")
    #expect(!shell.isRunning)
    // A page asked just before the signal is logged once its delay has passed.
    try await Task.sleep(for: .milliseconds(300))
    let after = pages()
    try await Task.sleep(for: .milliseconds(500))
    #expect(pages() == after, "the server was still asked for pages after the signal")
    #expect(lib.mutations.isEmpty)
  }

  /// The pid of `parent`'s child named `name` (its `comm`), once it has started.
  static func child(of parent: pid_t, _ name: String) async -> pid_t? {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      for entry in entries {
        guard let pid = pid_t(entry), let stat = status(of: pid) else { continue }
        if stat.name == name && stat.parent == parent { return pid }
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return nil
  }

  /// A process that exists and is not a zombie.
  static func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = status(of: pid) else { return false }
    return stat.state != "Z" && stat.state != "X"
  }

  /// `comm`, state and parent from /proc/PID/stat.
  static func status(of pid: pid_t) -> (name: String, state: String, parent: pid_t)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
    else { return nil }
    let name = String(text[text.index(after: open)..<close])
    let rest = text[text.index(close, offsetBy: 2)...].split(separator: " ")
    guard rest.count > 1, let parent = pid_t(rest[1]) else { return nil }
    return (name, String(rest[0]), parent)
  }
}
