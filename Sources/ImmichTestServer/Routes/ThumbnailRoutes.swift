/// `GET /api/assets/:id/thumbnail` (`asset.view`): the asset's thumbnail or preview image.
///
/// As the real server (`asset-media.service.ts` `viewThumbnail`): access first, the same 400
/// `Not found or no asset.view access` for an unknown id, a locked asset and one the caller
/// cannot see (neither theirs, a partner's, nor in an album they can read); a trashed asset
/// still has its thumbnail; an asset without a thumbnail file is 404 `Asset media not found`.
/// Which assets have one is `hasThumbnail`. The double encodes JPEG for every size (Immich's
/// `thumbnail` is WebP), from the asset's own pixels (`AssetImage`).
enum ThumbnailRoutes {
  static let all: [Route] = [
    Route("GET", "/api/assets/:id/thumbnail", .authenticated(permission: Permission.assetView)) {
      store, call in
      let size = try requestedSize(call)
      let caller = try call.user
      guard let asset = store.assets[call.param("id")], asset.visibility != .locked,
        store.canSee(asset, userId: caller.userId)
      else { throw APIError.noAccess(Permission.assetView) }
      guard hasThumbnail(asset) else {
        throw APIError(status: 404, message: "Asset media not found")
      }
      let image = asset.image ?? AssetImage.drawn(from: asset.checksum)
      return .image(contentType: "image/jpeg", bytes: image.jpeg(fitting: size.longestSide))
    }
  ]

  /// Whether the thumbnail job made files for `asset` (`media.service.ts`
  /// `handleGenerateThumbnails`): an image, or a video (a frame of it), unless hidden — the
  /// job skips a hidden asset, so a Live Photo's motion video has none; audio and other
  /// assets have none either.
  static func hasThumbnail(_ asset: AssetRecord) -> Bool {
    (asset.type == .image || asset.type == .video) && asset.visibility != .hidden
  }

  /// `AssetMediaSize`; `original` is deprecated in v3 and answered like `fullsize` here.
  enum Size: String, CaseIterable {
    case original, fullsize, preview, thumbnail

    var longestSide: Int {
      switch self {
      case .thumbnail: return 250
      case .preview: return 1440
      case .fullsize, .original: return 8192
      }
    }
  }

  /// `size` (default `thumbnail`) and, in v3, `edited` (a boolean); v2 strips unknown query
  /// keys, as its `whitelist` validation pipe does.
  static func requestedSize(_ call: RouteCall) throws(APIError) -> Size {
    var issues: [ValidationIssue] = []
    var size = Size.thumbnail
    if let text = call.request.query["size"] {
      if let parsed = Size(rawValue: text) {
        size = parsed
      } else {
        let options = Size.allCases.map(\.rawValue)
        issues.append(
          ValidationIssue(
            code: "invalid_value", path: ["size"],
            message: "Invalid option: expected one of "
              + options.map { "\"\($0)\"" }.joined(separator: "|"),
            extra: [("values", .array(options.map(ImmichJSON.string)))]))
      }
    }
    if call.version.isV3, let edited = call.request.query["edited"], edited != "true",
      edited != "false"
    {
      issues.append(
        ValidationIssue(
          code: "invalid_type", path: ["edited"],
          message: "Invalid input: expected boolean, received string",
          extra: [("expected", "boolean")]))
    }
    if !issues.isEmpty { throw APIError.validation(issues) }
    return size
  }
}
