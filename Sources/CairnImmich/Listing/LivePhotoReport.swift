import CairnRecords

/// How well the Live Photos of a listing hold together. A still points at its hidden motion
/// video with `livePhotoVideoId`; trash does not cascade, so cairn must handle both halves.
package struct LivePhotoReport: Sendable, Equatable {
  /// Stills whose `livePhotoVideoId` names no listed asset (the video is gone or not owned).
  package var dangling: [AssetRecord]
  /// Hidden videos that no still points at: leftovers no view in Immich shows.
  package var orphans: [AssetRecord]
  /// Stills with a video that is present.
  package var pairs: Int

  package init(_ assets: [AssetRecord]) {
    var byId: [String: AssetRecord] = [:]
    for asset in assets { byId[asset.id] = asset }
    var referenced = Set<String>()
    var dangling: [AssetRecord] = []
    var pairs = 0
    for asset in assets {
      guard let video = asset.livePhotoVideoId?.lowercased() else { continue }
      referenced.insert(video)
      if byId[video] == nil { dangling.append(asset) } else { pairs += 1 }
    }
    self.dangling = dangling
    self.orphans = assets.filter {
      $0.visibility == AssetVisibility.hidden.rawValue && $0.assetType == "VIDEO"
        && !referenced.contains($0.id)
    }
    self.pairs = pairs
  }

  /// The motion videos linked to `stillIds` that the listing holds: what must go to the
  /// trash (and carry the run tag) together with the stills.
  package static func linkedVideos(of stillIds: some Sequence<String>, in assets: [AssetRecord])
    -> [String]
  {
    var byId: [String: AssetRecord] = [:]
    for asset in assets { byId[asset.id] = asset }
    var videos: [String] = []
    for id in stillIds {
      if let video = byId[id.lowercased()]?.livePhotoVideoId?.lowercased(), byId[video] != nil {
        videos.append(video)
      }
    }
    return videos
  }
}
