import CairnRecords
import CairnRuns
import CairnStream
import Foundation

/// An in-memory Immich for run logic: assets with owner, visibility, trash state and tags, a log
/// of mutating calls, and faults that fail a call before or after it takes effect.
final class FakeRunServer: RunServer, @unchecked Sendable {
  struct Asset {
    var owner: String
    var visibility = "timeline"
    var trashed = false
    var checksum: String
    var video: String?
    var tags: Set<String> = []
  }

  enum Fault { case before, after }

  private let lock = NSLock()
  var assets: [String: Asset] = [:]
  var tagsByValue: [String: String] = [:]
  var mutations: [String] = []
  /// `method` → when to fail the next call of it.
  var faults: [String: Fault] = [:]
  var trashCalls = 0
  var trashedTwice = 0

  func add(
    _ id: String, owner: String = "me", visibility: String = "timeline", video: String? = nil
  ) {
    assets[id] = Asset(owner: owner, visibility: visibility, checksum: "sum-\(id)", video: video)
  }

  private func fail(_ name: String, _ when: Fault) throws(CairnError) {
    if faults[name] == when {
      faults[name] = nil
      throw CairnError(.serverFailure, "\(name): HTTP 500")
    }
  }

  private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  func trashSettings() async throws(CairnError) -> TrashSettings {
    TrashSettings(enabled: true, days: 30)
  }

  func upsertTag(_ value: String) async throws(CairnError) -> String {
    try locked { () throws(CairnError) in
      try fail("upsertTag", .before)
      mutations.append("PUT /api/tags")
      let id = tagsByValue[value] ?? "tag-\(tagsByValue.count + 1)"
      tagsByValue[value] = id
      try fail("upsertTag", .after)
      return id
    }
  }

  func tags() async throws(CairnError) -> [ServerTag] {
    locked { tagsByValue.map { ServerTag(id: $0.value, value: $0.key) } }
  }

  func tagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {
    try locked { () throws(CairnError) in
      try fail("tagAssets", .before)
      mutations.append("PUT /api/tags/assets")
      for id in assetIDs where assets[id]?.owner == "me" { assets[id]?.tags.insert(tagID) }
      try fail("tagAssets", .after)
    }
  }

  func untagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {
    locked {
      mutations.append("DELETE /api/tags/\(tagID)/assets")
      for id in assetIDs { assets[id]?.tags.remove(tagID) }
    }
  }

  func trash(assetIDs: [String]) async throws(TrashFailure) {
    try locked { () throws(TrashFailure) in
      // A DELETE failing before it takes effect is the server's own error answer (nothing
      // applied); failing after, the answer was lost (applied, but the run can't know).
      do throws(CairnError) { try fail("trash", .before) } catch { throw .rejected(error) }
      mutations.append("DELETE /api/assets")
      trashCalls += 1
      // All or nothing, as Immich: one foreign, locked or unknown id fails the whole request.
      for id in assetIDs {
        guard let a = assets[id], a.owner == "me", a.visibility != "locked", id == id.lowercased()
        else {
          throw .rejected(CairnError(.serverFailure, "400 Not found or no asset.delete access"))
        }
      }
      for id in assetIDs {
        if assets[id]?.trashed == true { trashedTwice += 1 }
        assets[id]?.trashed = true
      }
      do throws(CairnError) { try fail("trash", .after) } catch { throw .unanswered(error) }
    }
  }

  /// Ids that were emptied from the trash and await the purge: the access check passes them,
  /// but they are not restored (docs/IMMICH-API.md §5, §13).
  var emptied: Set<String> = []
  var restoreCalls = 0

  func restore(assetIDs: [String]) async throws(RestoreFailure) {
    try locked { () throws(RestoreFailure) in
      do throws(CairnError) { try fail("restore", .before) } catch { throw .failed(error) }
      mutations.append("POST /api/trash/restore/assets")
      restoreCalls += 1
      // All or nothing, as Immich: one unknown (purged) or foreign id refuses the whole list.
      for id in assetIDs {
        guard let a = assets[id], a.owner == "me", a.visibility != "locked" else {
          throw .refused(CairnError(.permission, "400 Not found or no asset.delete access"))
        }
      }
      for id in assetIDs where !emptied.contains(id) { assets[id]?.trashed = false }
    }
  }

  func asset(id: String) async throws(CairnError) -> RunAsset? {
    locked { assets[id].map { view(id, $0) } }
  }

  func assets(taggedWith tagID: String) async throws(CairnError) -> [RunAsset] {
    locked {
      assets.filter { $0.value.tags.contains(tagID) && $0.value.visibility != "locked" }
        .map { view($0.key, $0.value) }
    }
  }

  private func view(_ id: String, _ a: Asset) -> RunAsset {
    RunAsset(
      id: id, ownerID: a.owner, visibility: a.visibility, isTrashed: a.trashed,
      checksum: a.checksum, livePhotoVideoID: a.video)
  }

  func candidate(_ id: String) -> CandidateRecord {
    let a = assets[id]
    return CandidateRecord(
      assetId: id, checksum: a?.checksum ?? "sum-\(id)", bucket: .delete, reason: "gone",
      originalFileName: "\(id).jpg", visibility: a?.visibility, ownerId: a?.owner,
      livePhotoVideoId: a?.video,
      livePhotoVideoChecksum: a?.video.map { assets[$0]?.checksum ?? "sum-\($0)" })
  }
}
