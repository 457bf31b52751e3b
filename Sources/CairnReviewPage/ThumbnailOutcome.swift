/// What the server gave for one asset's thumbnail.
package enum ThumbnailOutcome: Sendable, Equatable {
  /// Image bytes as served (`image/webp` or `image/jpeg`), embedded as a `data:` URI.
  case image(contentType: String, bytes: [UInt8])
  /// No picture: the tile shows a placeholder saying why, and the summary counts it.
  case missing(MissingThumbnail)

  /// Only the raster types browsers decode in `<img>` are embedded; anything else (an SVG,
  /// HTML from a proxy) becomes a placeholder.
  package static func served(contentType: String, bytes: [UInt8]) -> ThumbnailOutcome {
    let type = contentType.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard let type, embeddable.contains(type), !bytes.isEmpty else {
      return .missing(.notAnImage)
    }
    return .image(contentType: type, bytes: bytes)
  }

  static let embeddable: Set<String> = [
    "image/jpeg", "image/webp", "image/png", "image/avif", "image/gif",
  ]
}

/// Why a tile has no picture.
package enum MissingThumbnail: String, Sendable, CaseIterable {
  /// 403: the API key lacks `asset.view`.
  case noPermission
  /// 400: the asset is no longer on the server, or not the key's user's.
  case gone
  /// 404: the server has no thumbnail for it: a Live Photo's motion video (Immich makes none
  /// for a hidden asset), audio, or one whose thumbnail job has not run or failed.
  case noImage
  /// The server failed or could not be reached.
  case serverError
  /// The server sent something that is not an image.
  case notAnImage
  /// Left out to keep the page small (`ReviewInput.imageBudget`): the tile links to Immich.
  case overBudget
  /// The overall deadline for fetching thumbnails passed first.
  case deadline
  /// The server stopped answering (several requests in a row refused or timed out), so the
  /// rest were not asked for.
  case serverDown
  /// Thumbnails were not fetched at all (see the page's notes).
  case notFetched

  /// The summary's words, after a count.
  package var summary: String {
    switch self {
    case .noPermission: return "not allowed: the API key lacks the asset.view permission"
    case .gone: return "not on the server any more, or not this user's"
    case .noImage: return "the server has no thumbnail (not made yet, or a motion video)"
    case .serverError: return "the server failed to send it"
    case .notAnImage: return "the server sent something that is not an image"
    case .overBudget:
      return "left out to keep this page small: open them in Immich (each tile links there)"
    case .deadline: return "not fetched: the deadline for fetching thumbnails passed"
    case .serverDown: return "not fetched: the server stopped answering"
    case .notFetched: return "not fetched"
    }
  }

  /// The placeholder's words.
  var placeholder: String {
    switch self {
    case .noPermission: return "no permission"
    case .gone: return "not on the server"
    case .noImage: return "no thumbnail"
    case .serverError: return "server error"
    case .notAnImage: return "not an image"
    case .overBudget: return "not embedded (page size)"
    case .deadline: return "not fetched (deadline)"
    case .serverDown: return "not fetched (server down)"
    case .notFetched: return "not fetched"
    }
  }
}
