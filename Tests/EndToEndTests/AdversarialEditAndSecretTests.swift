import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// Edits in place (same path, same size, new bytes) and the API key read from a `.env` file.
@Suite(.serialized)
struct AdversarialEditAndSecretTests {
  /// Rewrites a file in place: same inode, same path, new bytes of the same size.
  func rewrite(_ path: String, _ bytes: [UInt8]) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }

  func serverAsset(_ lib: AdversarialLibrary, _ label: String) -> Scenario.Asset {
    Scenario.Asset(
      ownerId: lib.me.id, checksum: Scenario.checksum(of: AdversarialLibrary.bytes(label)),
      originalFileName: "edit.jpg")
  }

  @Test func anEditedFileKeepsItsOriginalAndRetiresItsIntermediateThroughQuarantine()
    async throws
  {
    let lib = AdversarialLibrary()
    let original = try #require(try lib.photo("Photos/edit.jpg", label: "edit-v1"))
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    let server = try lib.running()
    #expect(try await lib.pipeline(["Photos"]).status["trash"] == 0)
    try lib.remove("Photos/c.jpg")
    let c = try lib.asset("Photos/c.jpg")
    #expect(try await lib.pipeline(["Photos"]).candidateIDs() == [c.id])  // the dry run

    // Edit 1, uploaded as a new asset: neither the original nor the edit is a candidate.
    let edited = serverAsset(lib, "edit-v2")
    server.state.add(edited)
    try rewrite(lib.path("Photos/edit.jpg"), AdversarialLibrary.bytes("edit-v2"))
    let first = try await lib.pipeline(["Photos"])
    #expect(first.status["trash"] == 0, "\(first.stderr)")
    #expect(first.candidateIDs() == [c.id])
    #expect(lib.trashed == [c.id])

    // Edit 2: the intermediate version waits out its quarantine; the original stays.
    let latest = serverAsset(lib, "edit-v3")
    server.state.add(latest)
    try rewrite(lib.path("Photos/edit.jpg"), AdversarialLibrary.bytes("edit-v3"))
    let second = try await lib.pipeline(["Photos"])
    #expect(second.status["trash"] == 0, "\(second.stderr)")
    #expect(second.candidateIDs() == [edited.id])
    #expect(second.candidateIDs("held") == [edited.id])
    let held = try #require(second.candidates.first)
    #expect((held["detail"] as? String)?.contains("was replaced by an edit") == true, "\(held)")
    #expect(lib.trashed == [c.id])

    // Past its quarantine the intermediate goes; the original still does not.
    let retired = try await lib.pipeline(["Photos"], reconcile: "--quarantine-days 0")
    #expect(retired.status["trash"] == 0, "\(retired.stderr)")
    #expect(retired.candidateIDs() == [edited.id])
    #expect(lib.trashed == [c.id, edited.id])

    // A rename keeps the file's identity: still nothing of it is gone.
    try lib.move("Photos/edit.jpg", "Photos/renamed.jpg")
    let renamed = try await lib.pipeline(["Photos"])
    #expect(renamed.candidates.isEmpty, "\(renamed.candidates)")

    // Deleted: its original and its current bytes are both gone.
    try lib.remove("Photos/renamed.jpg")
    let deleted = try await lib.pipeline(["Photos"])
    #expect(deleted.candidateIDs("delete") == [original.id, latest.id])
    #expect(lib.trashed == [c.id, edited.id, original.id, latest.id])
  }

  @Test func theAPIKeyFromADotEnvFileAppearsNowhere() async throws {
    let lib = AdversarialLibrary()
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try lib.photo("Photos/" + name) }
    try await lib.start()
    defer { Task { await lib.stop() } }
    try lib.dir.privateFile(
      ".env", "IMMICH_URL=\(lib.apiBase)\nIMMICH_API_KEY=\(AdversarialLibrary.secret)\n")
    // Only the .env file knows the server and the key.
    let environment = lib.dir.isolatedEnvironment(["CAIRN_HTTP_ATTEMPTS": "1"])
    var outputs: [ToolResult] = []
    var runs: [AdversarialLibrary.Run] = []
    runs.append(try await lib.pipeline(["Photos"], verbose: true, environment: environment))
    try lib.remove("Photos/a.jpg")
    runs.append(try await lib.pipeline(["Photos"], verbose: true, environment: environment))
    runs.append(try await lib.pipeline(["Photos"], verbose: true, environment: environment))
    #expect(runs.last?.status["trash"] == 0, "\(runs.last?.stderr ?? "")")
    #expect(lib.trashed == [try lib.asset("Photos/a.jpg").id])  // the key really was used
    let runID = try #require(runs.last?.runID)
    outputs += runs.map(\.result)
    for command in [
      "cairn-fetch -v --check", "cairn-fetch -v", "cairn-tag -v --list",
      "cairn-tag -v --run-id \(runID)", "cairn-restore -v --list",
      "cairn-restore -v --run-id \(runID)", "cairn-observe -v list",
    ] {
      outputs.append(try await lib.shell(command, environment: environment))
    }
    #expect(lib.trashed.isEmpty)  // the restore worked
    // A key the server rejects makes an error message; it must not quote the key either.
    try lib.dir.privateFile(
      ".env", "IMMICH_URL=\(lib.apiBase)\nIMMICH_API_KEY=\(AdversarialLibrary.secret)-revoked\n")
    outputs.append(try await lib.shell("cairn-fetch -v --check", environment: environment))
    outputs.append(try await lib.shell("cairn-tag -v --list", environment: environment))
    for output in outputs {
      #expect(!output.stdout.contains(AdversarialLibrary.secret))
      #expect(!output.stderr.contains(AdversarialLibrary.secret))
    }
    let needle = Data(AdversarialLibrary.secret.utf8)
    var checked: [String] = []
    let files = FileManager.default.enumerator(atPath: lib.dir.path)
    while let relative = files?.nextObject() as? String {
      if relative == ".env" { continue }
      let path = lib.dir.path + "/" + relative
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path)
      else { continue }
      #expect(data.range(of: needle) == nil, "\(relative)")
      checked.append(relative)
    }
    #expect(checked.contains { $0.hasPrefix("state/") && $0.hasSuffix("journal.ndjson") })
    #expect(checked.contains { $0.hasPrefix("cache/") })
  }
}
