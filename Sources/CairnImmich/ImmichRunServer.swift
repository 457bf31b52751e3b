import CairnJSON
import CairnRecords
import CairnRuns
import CairnSettings
import CairnStream
import Foundation

/// `ImmichClient` as the `RunServer` that trash, tag and restore runs use (cairn-trash,
/// cairn-tag, cairn-restore). An `ImmichError` becomes the `CairnError` with the tool's exit
/// status.
package struct ImmichRunServer: RunServer {
  package let client: ImmichClient

  package init(client: ImmichClient) { self.client = client }

  package func trashSettings() async throws(CairnError) -> TrashSettings {
    do {
      let settings = try await client.trashSettings()
      return TrashSettings(enabled: settings.enabled, days: settings.days)
    } catch { throw error.cairnError }
  }

  package func upsertTag(_ value: String) async throws(CairnError) -> String {
    let tags: [TagInfo]
    do { tags = try await client.upsertTags([value]) } catch { throw error.cairnError }
    guard let tag = tags.first else {
      throw CairnError(.serverFailure, "PUT /api/tags returned no tag for \(value)")
    }
    return tag.id
  }

  package func tags() async throws(CairnError) -> [ServerTag] {
    do {
      return try await client.tags().map { ServerTag(id: $0.id, value: $0.value) }
    } catch { throw error.cairnError }
  }

  package func tagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {
    do { try await client.tagAssets(tagIds: [tagID], assetIds: assetIDs) } catch {
      throw error.cairnError
    }
  }

  /// `DELETE /api/tags/:id/assets {ids}` (the client has no method for it yet).
  package func untagAssets(tagID: String, assetIDs: [String]) async throws(CairnError) {
    guard !assetIDs.isEmpty else { return }
    do {
      let path = "/tags/\(try client.pathId(tagID))/assets"
      _ = try await client.send(
        .DELETE, path, body: ["ids": assetIDs.map { $0.lowercased() }], retry: .safe)
    } catch { throw error.cairnError }
  }

  /// `DELETE /api/assets {ids, force:false}`, sent once: after a lost answer the run stops and
  /// the next one asks the server what happened, so no asset is ever trashed twice (a repeat
  /// would restart its trash period).
  package func trash(assetIDs: [String]) async throws(TrashFailure) {
    guard !assetIDs.isEmpty else { return }
    do {
      _ = try await client.send(
        .DELETE, "/assets", body: ["ids": assetIDs.map { $0.lowercased() }, "force": false],
        retry: .never)
    } catch {
      if let status = error.httpStatus, (400..<502).contains(status) {
        throw .rejected(error.cairnError)
      }
      throw .unanswered(error.cairnError)
    }
  }

  /// A 400 is the all-or-nothing access check refusing the list (docs/IMMICH-API.md §5): one id the
  /// server no longer has or that is not the caller's. A 403 (a missing permission), 401 and
  /// every other failure stop the restore.
  package func restore(assetIDs: [String]) async throws(RestoreFailure) {
    do { _ = try await client.restore(assetIds: assetIDs) } catch {
      if error.httpStatus == 400 { throw .refused(error.cairnError) }
      throw .failed(error.cairnError)
    }
  }

  package func asset(id: String) async throws(CairnError) -> RunAsset? {
    do {
      return Self.view(try await client.asset(id: id))
    } catch {
      // Immich answers 400 "Not found or no asset.read access" for an unknown id.
      if error.httpStatus == 400 || error.httpStatus == 404 { return nil }
      throw error.cairnError
    }
  }

  package func assets(taggedWith tagID: String) async throws(CairnError) -> [RunAsset] {
    var found: [String: RunAsset] = [:]
    do {
      // v2 searches only the timeline unless told; v3 skips nothing but locked. Ask for each.
      for visibility in AssetVisibility.listed {
        let query = MetadataQuery(
          visibility: visibility, withDeleted: true, tagIds: [tagID], size: 1000)
        for asset in try await client.searchAll(query) {
          found[asset.id.lowercased()] = Self.view(asset)
        }
      }
    } catch { throw error.cairnError }
    return found.values.sorted { $0.id < $1.id }
  }

  package func clock() async throws(CairnError) -> Date? {
    do { return try await client.serverClock() } catch { throw error.cairnError }
  }

  package func trashed(since time: Date, taggedWith tagID: String) async throws(CairnError)
    -> Set<String>
  {
    var found: Set<String> = []
    do {
      for visibility in AssetVisibility.listed {
        var query = MetadataQuery(
          visibility: visibility, withDeleted: true, tagIds: [tagID], size: 1000)
        query.trashedAfter = time
        for asset in try await client.searchAll(query) where asset.isTrashed {
          found.insert(asset.id.lowercased())
        }
      }
    } catch { throw error.cairnError }
    return found
  }

  static func view(_ asset: ServerAsset) -> RunAsset {
    var view = RunAsset(
      id: asset.id.lowercased(), ownerID: asset.ownerId.lowercased(),
      visibility: asset.visibility, isTrashed: asset.isTrashed, checksum: asset.checksum,
      originalFileName: asset.originalFileName,
      livePhotoVideoID: asset.livePhotoVideoId?.lowercased(),
      fileCreatedAt: asset.fileCreatedAt.flatMap { Date(iso8601: $0) }, assetType: asset.type,
      tagValues: asset.tags?.map(\.value))
    view.isFavorite = asset.isFavorite
    view.libraryId = asset.libraryId?.lowercased()
    return view
  }

  /// Fills in owner and visibility for candidates that lack them, from the server, so the
  /// ownership and locked checks never pass by default.
  package func completeOwnership(_ candidates: [CandidateRecord]) async throws(CairnError)
    -> [CandidateRecord]
  {
    var out: [CandidateRecord] = []
    out.reserveCapacity(candidates.count)
    for var candidate in candidates {
      if candidate.ownerId == nil || candidate.visibility == nil,
        let asset = try await asset(id: candidate.assetId)
      {
        candidate.ownerId = asset.ownerID
        candidate.visibility = asset.visibility
        if candidate.livePhotoVideoId == nil { candidate.livePhotoVideoId = asset.livePhotoVideoID }
      }
      out.append(candidate)
    }
    return out
  }
}

extension ServerConnection {
  /// The run-side view of this connection.
  package var runServer: ImmichRunServer { ImmichRunServer(client: client) }

  /// Connects, turning a failure into the tool's exit status and one line.
  package static func open(_ configuration: Configuration) async throws(CairnError)
    -> ServerConnection
  {
    do { return try await connect(configuration: configuration) } catch { throw error.cairnError }
  }
}
