import Foundation
import ImmichTestServer
import Testing

/// Runs the built `immich-testserver` binary the way a demo script would.
@Suite struct ExecutableTests {
  /// `swift test` builds every product into the folder that holds the test bundle.
  static func binary() throws -> URL {
    let bundle = Bundle.main.bundleURL
    let candidates = [bundle, bundle.deletingLastPathComponent()].map {
      $0.appendingPathComponent("immich-testserver")
    }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
  }

  static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("immich-testserver-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Reads stdout until the first newline, off the cooperative pool since reads block.
  static func firstLine(of pipe: Pipe) async -> String {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var data = Data()
        while !data.contains(0x0a) {
          let chunk = pipe.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          data += chunk
        }
        let text = String(decoding: data, as: UTF8.self)
        continuation.resume(returning: String(text.prefix { $0 != "\n" }))
      }
    }
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func printsItsURLServesTheScenarioAndExitsCleanlyOnSignal(signal: Int32) async throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var scenario = Scenario()
    scenario.addUser(email: "file@example.com", keySecret: "file-secret")
    let file = folder.appendingPathComponent("scenario.json")
    try scenario.write(to: file)

    let process = Process()
    process.executableURL = try Self.binary()
    process.arguments = [
      "--port", "0", "--version", "v2.7", "--scenario", file.path, "--demo-user",
    ]
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    defer { if process.isRunning { process.terminate() } }

    let line = await Self.firstLine(of: stdout)
    #expect(line.hasPrefix("http://127.0.0.1:"))
    let client = TestClient(base: try #require(URL(string: line)))
    #expect(try await client.get("/api/server/version").text == #"{"major":2,"minor":7,"patch":5}"#)
    let me = try await client.get("/api/users/me", as: .key("file-secret"))
    #expect(me.json?["email"] == "file@example.com")
    #expect(try await client.get("/api/users/me", as: .key("demo-secret")).status == 200)
    let state = try await client.get("/__testserver/state").json
    #expect(state?["version"] == "v2.7")

    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(process.terminationReason == .exit)
    let rest = stdout.fileHandleForReading.readDataToEndOfFile()
    #expect(rest.isEmpty, "stdout carries only the URL")
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(errors.contains("demo-secret"))
  }

  @Test func unreadableScenarioExitsWithStatusOne() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let process = Process()
    process.executableURL = try Self.binary()
    process.arguments = ["--scenario", folder.appendingPathComponent("missing.json").path]
    let stderr = Pipe()
    process.standardError = stderr
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(errors.hasPrefix("immich-testserver: "))
    #expect(errors.contains("missing.json"))
  }
}
