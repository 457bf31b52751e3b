import CairnTestSupport
import Foundation

/// Running cairn-hash and the reference tools the tests compare it with.
enum Hash {
  /// Runs the built `cairn-hash` with a private HOME and XDG folders (off the cooperative
  /// pool: see `offCooperativePool`).
  static func run(
    _ arguments: [String], in dir: TemporaryDirectory, stdin: String? = nil
  ) async throws -> ToolResult {
    let environment = dir.isolatedEnvironment()
    return try await offCooperativePool {
      try ToolRunner.run("cairn-hash", arguments, stdin: stdin, environment: environment)
    }
  }

  /// `openssl dgst -sha1 -binary FILE | base64`: the checksum Immich would store.
  static func reference(_ path: String, in dir: TemporaryDirectory) async throws -> String {
    let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    let result = try await sh("openssl dgst -sha1 -binary \(quoted) | base64", in: dir)
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func sh(_ script: String, in dir: TemporaryDirectory) async throws -> ToolResult {
    let environment = dir.isolatedEnvironment()
    return try await offCooperativePool {
      try ToolRunner.shell(script, environment: environment)
    }
  }

  /// `path → checksum` of the file records.
  static func checksums(_ result: ToolResult) throws -> [String: String] {
    try checksums(stdout: result.stdout)
  }

  static func checksums(stdout: String) throws -> [String: String] {
    var map: [String: String] = [:]
    for line in stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard let object, object["type"] as? String == "file" else { continue }
      if let path = object["path"] as? String { map[path] = object["checksum"] as? String }
    }
    return map
  }

  static func end(_ result: ToolResult) throws -> [String: Any] {
    guard let end = try result.records().last, end["type"] as? String == "end" else {
      throw ToolRunner.Failure("no end record last in: \(result.stdout)")
    }
    return end
  }

  static func counts(_ result: ToolResult) throws -> [String: Int] {
    (try end(result)["counts"] as? [String: Int]) ?? [:]
  }

  static func roots(_ result: ToolResult) throws -> [[String: Any]] {
    (try end(result)["roots"] as? [[String: Any]]) ?? []
  }

  /// Bytes that differ from file to file but are reproducible.
  static func pattern(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var x = UInt32(seed) &* 2_654_435_761
    for i in 0..<count {
      x = x &* 1_103_515_245 &+ 12345
      bytes[i] = UInt8(truncatingIfNeeded: x >> 16)
    }
    return bytes
  }

  /// Lets a freshly written file age past the cache's racy-timestamp margin (20 ms).
  static func settle() { usleep(60_000) }
}
