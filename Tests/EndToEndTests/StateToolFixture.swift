import CairnRecords
import CairnTestSupport
import Foundation

/// A private library, XDG folders and a hand-made server listing for cairn-observe and
/// cairn-reconcile tests.
struct StateToolFixture {
  let directory = TemporaryDirectory("cairn-state-e2e")
  let userId = "0a1b2c3d-0000-4000-8000-000000000001"
  var library: String { directory.path + "/Photos" }
  var serverFile: String { directory.path + "/server.ndjson" }

  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    directory.isolatedEnvironment(extra)
  }

  /// Writes a photo into the library and returns its path.
  @discardableResult
  func photo(_ name: String, _ contents: String) throws -> String {
    try directory.file("Photos/" + name, contents)
  }

  /// A cairn-fetch stream with one asset per (id, checksum).
  func writeServer(_ assets: [(String, String)], liveVideo: [String: String] = [:]) throws {
    var lines = [
      HeaderRecord(
        tool: "cairn-fetch", roots: [],
        server: ServerIdentity(url: "http://immich.test/api", userId: userId, version: "2.7.0")
      ).jsonString()
    ]
    for (id, checksum) in assets {
      lines.append(
        AssetRecord(
          id: id, checksum: checksum, originalFileName: id + ".jpg", assetType: "IMAGE",
          visibility: "timeline", livePhotoVideoId: liveVideo[id], ownerId: userId
        ).jsonString())
    }
    lines.append(
      EndRecord(
        tool: "cairn-fetch", complete: true, counts: ["assets": assets.count],
        records: ["asset": assets.count]
      ).jsonString())
    try directory.file("server.ndjson", lines.joined(separator: "\n") + "\n")
  }

  /// Base64 SHA-1 of `text`, through cairn-hash itself.
  func checksum(of relative: String) async throws -> String {
    let result = try await ToolRunner.runDetached(
      "cairn-hash", [library], environment: environment())
    for record in try result.records(ofType: "file")
    where (record["path"] as? String) == library + "/" + relative {
      return record["checksum"] as? String ?? ""
    }
    throw ToolRunner.Failure("no checksum for \(relative): \(result.stderr)")
  }

  /// `cairn-hash Photos | cairn-observe --server ... | cairn-reconcile --server ...`.
  func pipeline(
    _ reconcileArguments: String = "", observe: Bool = true, extra: [String: String] = [:]
  )
    async throws -> ToolResult
  {
    let observeStage = observe ? " | cairn-observe --server '\(serverFile)'" : ""
    return try await ToolRunner.shellDetached(
      "cairn-hash '\(library)'\(observeStage) | cairn-reconcile --server '\(serverFile)' "
        + reconcileArguments, environment: environment(extra))
  }
}

extension ToolResult {
  /// Candidates as asset id → bucket.
  func buckets() throws -> [String: String] {
    var result: [String: String] = [:]
    for record in try records(ofType: "candidate") {
      result[record["assetId"] as? String ?? ""] = record["bucket"] as? String
    }
    return result
  }

  func endCounts() throws -> [String: Int] {
    try records(ofType: "end").last?["counts"] as? [String: Int] ?? [:]
  }
}
