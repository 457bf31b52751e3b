import CairnTestSupport
import Foundation
import Testing

/// cairn-hash and the watcher read `CAIRN_LIBRARY` through one rule: from one value, a `~`, a
/// trailing slash, a relative folder and a repeat included, both reach the same roots. Each
/// runs in a working folder of its own, as a service and a typed command would.
@Suite struct LibrarySettingTests {
  /// Where the value is given: the configuration file's relative folders are in the home
  /// folder, the environment's in the working folder (`work`, beside `home`).
  enum Origin: CaseIterable {
    case configurationFile, environment

    var value: String {
      switch self {
      case .configurationFile: return "~/Photos/:Phone:~/Photos"
      case .environment: return "~/Photos/:../home/./Phone/:~/Photos"
      }
    }
  }

  @Test(arguments: Origin.allCases)
  func cairnHashAndTheWatcherReachTheSameRoots(origin: Origin) async throws {
    let f = StateToolFixture()
    let home = f.directory.path + "/home"
    let work = f.directory.path + "/work"
    try f.directory.file("home/Photos/a.jpg", "a photo")
    try f.directory.file("home/Phone/b.jpg", "a phone's photo")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    try f.writeServer([])
    var environment = f.environment()
    switch origin {
    case .configurationFile:
      try f.directory.privateFile("config/cairn/config", "CAIRN_LIBRARY=\(origin.value)\n")
    case .environment: environment["CAIRN_LIBRARY"] = origin.value
    }
    let roots = [home + "/Photos", home + "/Phone"]

    // cairn-hash reads the library when it is given no path at a terminal.
    #if os(macOS)
      let onTerminal = "script -q /dev/null /bin/sh -c 'cairn-hash > scan.ndjson'"
    #else
      let onTerminal = "script -qfec 'cairn-hash > scan.ndjson' /dev/null"
    #endif
    let scan = try await ToolRunner.shellDetached(
      onTerminal, environment: environment, workingDirectory: work)
    #expect(scan.status == 0, "\(scan.stdout)\(scan.stderr)")
    let records = try String(contentsOfFile: work + "/scan.ndjson", encoding: .utf8)
      .split(separator: "\n").compactMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    #expect(records.first?["roots"] as? [String] == roots, "\(records.first ?? [:])")
    let scanned = records.filter { $0["type"] as? String == "file" }.compactMap {
      $0["path"] as? String
    }
    #expect(Set(scanned) == [home + "/Photos/a.jpg", home + "/Phone/b.jpg"])

    // cairn-nightly passes the folders on as arguments that no shell expanded.
    let nightly = try await ToolRunner.shellDetached(
      "cairn-hash '~/Photos/' | head -n 1", environment: environment, workingDirectory: work)
    #expect(nightly.stdout.contains("\"roots\":[\"\(home)/Photos\"]"), "\(nightly.stdout)")

    // The watcher, given no root, watches the same folders; its status names them.
    let watcher = try await WatcherProcess(
      roots: [], environment: environment, logPath: f.directory.path + "/watch.log",
      serverFile: f.serverFile, workingDirectory: work)
    defer { watcher.killIfRunning() }
    var status = ""
    try await WatcherProcess.poll(timeout: 45, "the watcher's status to name its roots") {
      status =
        try ToolRunner.shell(
          "cairn-observe watch status --server '\(f.serverFile)'", environment: environment
        ).stdout
      return status.contains("roots: ")
    }
    #expect(status.contains("roots: " + roots.joined(separator: ", ") + "\n"), "\(status)")
    try await watcher.stop()
  }
}
