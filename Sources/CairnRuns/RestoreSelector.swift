import CairnStream
import Foundation

/// Finds what to restore among the assets cairn runs trashed: from the journal first, and from
/// the server's run tags when the journal doesn't know (lost, or another machine's run). Assets
/// no cairn run trashed are never selected.
package struct RestoreSelector {
  package let history: [RunHistory]
  package let server: any RunServer
  package private(set) var targets: [RestoreRun.Target] = []
  /// Why something asked for was left out, for stderr.
  package private(set) var notes: [String] = []
  private var chosen: Set<String> = []
  /// The server's tags by value, read once when needed.
  private var serverTags: [String: String]?

  package init(history: [RunHistory], server: any RunServer) {
    self.history = history
    self.server = server
  }

  /// Every asset of `run` still in the trash.
  package mutating func add(run: String) async throws(CairnError) {
    if let journalled = history.first(where: { $0.runID == run && $0.startedAt != nil }) {
      for asset in journalled.planned where journalled.inTrash.contains(asset.id) {
        append(asset, of: journalled)
      }
      return
    }
    guard let runID = RunID(run) else {
      notes.append("\(run) is not a cairn run id")
      return
    }
    let value = RunTag(runID).value
    guard let tag = try await server.tags().first(where: { $0.value == value }) else {
      notes.append("no run \(run) in the journal or on the server")
      return
    }
    let tagged = try await server.assets(taggedWith: tag.id)
    for asset in tagged where asset.isTrashed {
      append(asset, run: run, tag: (tag.id, tagged.count))
    }
  }

  /// One asset (and the other half of its Live Photo), if a cairn run trashed it.
  package mutating func add(assetID: String, runHint: String? = nil) async throws(CairnError) {
    let id = assetID.lowercased()
    for run in history.reversed() where run.inTrash.contains(id) {
      guard let asset = run.asset(id) else { continue }
      append(asset, of: run)
      // The other half: a still's video, or a video's still.
      for other in run.planned where other.stillID == id || (asset.stillID == other.id) {
        if run.inTrash.contains(other.id) { append(other, of: run) }
      }
      return
    }
    guard let asset = try await server.asset(id: id) else {
      notes.append("\(id): no such asset on the server")
      return
    }
    let runs = (asset.tagValues ?? []).compactMap { RunTag(value: $0) }
    guard
      let tag = runs.first(where: { runHint == nil || $0.runID.description == runHint })
        ?? runs.first
    else {
      notes.append("\(id): not trashed by a cairn run (no cairn/v1/run tag); left alone")
      return
    }
    guard asset.isTrashed else {
      notes.append("\(id): not in the trash")
      return
    }
    // The run's tag id lets the restore find a motion video's still in the run's listing.
    let tagID = try await tagID(of: tag)
    append(asset, run: tag.runID.description, tag: tagID.map { ($0, 0) })
    if let video = asset.livePhotoVideoID?.lowercased(),
      let half = try await server.asset(id: video), half.isTrashed
    {
      append(half, run: tag.runID.description, tag: tagID.map { ($0, 0) }, livePhotoVideo: true)
    }
  }

  private mutating func tagID(of tag: RunTag) async throws(CairnError) -> String? {
    if serverTags == nil {
      serverTags = Dictionary(
        try await server.tags().map { ($0.value, $0.id) }, uniquingKeysWith: { a, _ in a })
    }
    return serverTags?[tag.value]
  }

  /// Assets of cairn runs whose original file name matches `pattern` (with their motion videos).
  package mutating func add(fileNamesMatching pattern: String) async throws(CairnError) {
    let regex: NSRegularExpression
    do { regex = try NSRegularExpression(pattern: pattern) } catch {
      throw CairnError(.usage, "not a regular expression: \(pattern)")
    }
    func matches(_ name: String?) -> Bool {
      guard let name else { return false }
      return regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
    let journalled = history.filter { $0.startedAt != nil }
    if !journalled.isEmpty {
      for run in journalled {
        for asset in run.planned
        where run.inTrash.contains(asset.id) && matches(asset.originalFileName) {
          append(asset, of: run)
          for video in run.planned where video.stillID == asset.id && run.inTrash.contains(video.id)
          {
            append(video, of: run)
          }
        }
      }
      return
    }
    // No journal: every cairn run tag on the server.
    for tag in try await server.tags() {
      guard let runTag = RunTag(value: tag.value) else { continue }
      let assets = try await server.assets(taggedWith: tag.id)
      let videos = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      let run = (runTag.runID.description, tag: (tag.id, assets.count))
      for asset in assets where asset.isTrashed && matches(asset.originalFileName) {
        append(asset, run: run.0, tag: run.tag)
        if let video = asset.livePhotoVideoID.flatMap({ videos[$0.lowercased()] }), video.isTrashed
        {
          append(video, run: run.0, tag: run.tag, livePhotoVideo: true)
        }
      }
    }
  }

  private mutating func append(_ asset: JournalAsset, of run: RunHistory) {
    guard chosen.insert(asset.id).inserted else { return }
    targets.append(
      RestoreRun.Target(
        id: asset.id, runID: run.runID, checksum: asset.checksum,
        originalFileName: asset.originalFileName,
        livePhotoVideo: asset.stillID != nil, tagID: run.tagID, runSize: run.planned.count))
  }

  private mutating func append(
    _ asset: RunAsset, run: String, tag: (id: String, size: Int)? = nil,
    livePhotoVideo: Bool = false
  ) {
    guard chosen.insert(asset.id.lowercased()).inserted else { return }
    targets.append(
      RestoreRun.Target(
        id: asset.id, runID: run, checksum: asset.checksum,
        originalFileName: asset.originalFileName,
        livePhotoVideo: livePhotoVideo || asset.visibility == "hidden", tagID: tag?.id,
        runSize: tag?.size ?? 0))
  }
}
