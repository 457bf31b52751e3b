import CairnImmich
import CairnRecords
import CairnRuns
import CairnSettings
import CairnStream
import CairnSupport
import CairnTool
import Foundation

/// cairn's runs as the server remembers them: the `cairn/v1/run/*` tags and their assets.
struct ServerHistory {
  /// A table for people instead of records, for `list` and `show` (`ListFormat`).
  var table = false

  func list() async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let connection = try await ServerConnection.open(try Configuration.load())
    clock.lap("connect", connection.identity.url)
    let writer = RecordWriter()
    if !table { writer.write(HeaderRecord(tool: CairnTag.toolName, server: connection.identity)) }
    var runs = 0
    let tags = try await connection.runServer.tags()
      .compactMap { tag in RunTag(value: tag.value).map { (tag, $0) } }
      .sorted { $0.1.runID < $1.1.runID }
    for (tag, runTag) in tags {
      let assets = try await connection.runServer.assets(taggedWith: tag.id)
      let trashed = assets.filter(\.isTrashed).count
      if table {
        writer.writeText(
          "\(runTag.runID)  \(assets.count) assets, in trash \(trashed), "
            + "restored \(assets.count - trashed)")
      } else {
        writer.write(
          RunRecord(
            runId: runTag.runID.description, source: "server", startedAt: runTag.runID.started,
            tagId: tag.id, assets: assets.count, inTrash: trashed,
            restored: assets.count - trashed))
      }
      runs += 1
    }
    clock.lap("runs", "\(runs) run tags")
    if !table {
      writer.write(EndRecord(tool: CairnTag.toolName, complete: true, counts: ["runs": runs]))
    }
    writer.flush()
    return .success
  }

  func show(_ run: String) async throws(CairnError) -> ExitStatus {
    var clock = PhaseClock()
    let connection = try await ServerConnection.open(try Configuration.load())
    clock.lap("connect", connection.identity.url)
    let writer = RecordWriter()
    if !table {
      writer.write(HeaderRecord(tool: CairnTag.toolName, server: connection.identity, runId: run))
    }
    var count = 0
    let value = RunTag(value: RunTag.prefix + run).map(\.value) ?? ""
    guard let tag = try await connection.runServer.tags().first(where: { $0.value == value })
    else {
      throw CairnError(.usage, "the server has no tag \(value)")
    }
    for asset in try await connection.runServer.assets(taggedWith: tag.id) {
      count += 1
      if table {
        writer.writeText(
          "\(asset.id.lowercased())  \(asset.isTrashed ? "in trash" : "active  ")  "
            + (asset.originalFileName ?? ""))
        continue
      }
      writer.write(
        AssetRecord(
          id: asset.id.lowercased(), checksum: asset.checksum ?? "",
          originalFileName: asset.originalFileName ?? "", assetType: asset.assetType ?? "OTHER",
          visibility: asset.visibility, livePhotoVideoId: asset.livePhotoVideoID?.lowercased(),
          isTrashed: asset.isTrashed, ownerId: asset.ownerID.lowercased(),
          fileCreatedAt: asset.fileCreatedAt, isFavorite: asset.isFavorite,
          libraryId: asset.libraryId))
    }
    clock.lap("assets", "\(count) assets")
    if !table {
      writer.write(
        EndRecord(tool: CairnTag.toolName, complete: true, counts: ["assets": count], runId: run))
    }
    writer.flush()
    return .success
  }

  func tag(_ value: String, dryRun: Bool, input: RecordInput) async throws(CairnError)
    -> ExitStatus
  {
    var clock = PhaseClock()
    // Tagging a filtered part of a stream (jq between the stages) only tags less.
    var ids: [String] = []
    var seen: Set<String> = []
    for selected in try AssetSelection.read(try input.reader())
    where seen.insert(selected.assetId).inserted {
      ids.append(selected.assetId)
    }
    clock.lap("read", "\(ids.count) assets")
    let connection = try await ServerConnection.open(try Configuration.load())
    clock.lap("connect", connection.identity.url)
    let writer = RecordWriter()
    writer.write(HeaderRecord(tool: CairnTag.toolName, server: connection.identity, dryRun: dryRun))
    if dryRun {
      for id in ids { writer.write(ResultRecord(assetId: id, action: "would-tag", message: value)) }
    } else {
      let tagID = try await connection.runServer.upsertTag(value)
      for batch in ids.chunked(1000) {
        try await connection.runServer.tagAssets(tagID: tagID, assetIDs: batch)
        for id in batch {
          writer.write(ResultRecord(assetId: id, action: "tagged", message: value))
        }
      }
    }
    clock.lap(dryRun ? "plan" : "tag", "\(ids.count) assets")
    writer.write(
      EndRecord(
        tool: CairnTag.toolName, complete: true, counts: [dryRun ? "wouldTag" : "tagged": ids.count]
      ))
    writer.flush()
    return .success
  }
}
