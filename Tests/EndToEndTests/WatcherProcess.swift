import CairnEngine
import CairnReconcile
import CairnRecords
import CairnSettings
import CairnState
import CairnSupport
import CairnTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `cairn-observe watch` running in the background, as systemd would run it: its standard
/// error in a file the test reads, stopped with a signal.
final class WatcherProcess: @unchecked Sendable {
  let process = Process()
  let logPath: String
  var pid: Int32 { process.processIdentifier }

  /// Starts the watcher over `roots` and waits until it says it is watching.
  init(
    roots: [String], environment: [String: String], logPath: String, serverFile: String? = nil,
    settleMilliseconds: Int = 300, workingDirectory: String? = nil
  ) async throws {
    self.logPath = logPath
    let startsBefore = Self.count("watching", in: logPath)
    var env = environment
    env["CAIRN_WATCH_SETTLE"] = String(settleMilliseconds)
    env["PATH"] = ToolRunner.productsDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    if !FileManager.default.fileExists(atPath: logPath) {
      FileManager.default.createFile(atPath: logPath, contents: nil)
    }
    let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try log.seekToEnd()
    process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/cairn-observe")
    process.arguments =
      ["watch", "-v"] + (serverFile.map { ["--server", $0] } ?? []) + roots
    process.environment = env
    if let workingDirectory {
      process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = log
    try process.run()
    try log.close()
    try await waitForLog(containing: "watching", count: startsBefore + 1)
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Waits until the log holds `text` `count` times.
  func waitForLog(containing text: String, count: Int = 1, timeout: Double = 45) async throws {
    try await Self.poll(timeout: timeout, "\(count)× '\(text)' in the watcher's log") {
      Self.count(text, in: self.logPath) >= count
    }
  }

  /// Sends `signal` and waits for the process to end; returns its status.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM) async throws -> Int32 {
    kill(process.processIdentifier, signal)
    try await Self.poll(timeout: 45, "the watcher to exit") { !self.process.isRunning }
    return process.terminationStatus
  }

  /// Kills it if it still runs (for `defer`: a failed test leaves no watcher behind).
  func killIfRunning() {
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
  }

  /// Polls `condition` every 50 ms until it holds, or fails after `timeout` seconds.
  static func poll(timeout: Double, _ what: String, _ condition: () throws -> Bool)
    async throws
  {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
      guard Date() < deadline else { throw ToolRunner.Failure("timed out waiting for \(what)") }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  static func count(_ text: String, in path: String) -> Int {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
      .components(separatedBy: text).count - 1
  }
}

/// `fs.inotify.max_queued_events`, lowered (as root) only while a watcher starts: the kernel
/// reads it when an inotify instance is made, and it is put back even when the start fails.
enum InotifyQueue {
  static let path = "/proc/sys/fs/inotify/max_queued_events"
  static var adjustable: Bool { access(path, W_OK) == 0 }

  static func withLimit<T>(_ limit: Int, _ body: () async throws -> T) async throws -> T {
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    try "\(limit)\n".write(toFile: path, atomically: false, encoding: .utf8)
    do {
      let result = try await body()
      try saved.write(toFile: path, atomically: false, encoding: .utf8)
      return result
    } catch {
      try saved.write(toFile: path, atomically: false, encoding: .utf8)
      throw error
    }
  }
}

/// What the watcher left in a partition's state.
struct WatcherState {
  let confirmations: [String: DeletionConfirmation]
  let gaps: [WatchGapRecord]

  /// Reads the partition named by a cairn-fetch file, without taking its lock.
  init(serverFile: String, environment: [String: String]) throws {
    let identity = try ListingInput.identity(serverFile: serverFile)
    try self.init(partition: identity.partition, environment: environment)
  }

  init(partition: ServerPartition, environment: [String: String]) throws {
    let paths = CairnPaths(environment: environment)
    let store = try PartitionStore.open(partition, paths: paths, locking: false)
    defer { store.close() }
    confirmations = try store.signals.confirmations()
    gaps = try store.watchGaps()
  }

  var watched: [String: DeletionConfirmation] {
    confirmations.filter { $0.value.source == DeletionConfirmation.watcherSource }
  }
}
