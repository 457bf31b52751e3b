import CairnCore
import CairnImmich
import CairnReview

/// Fetches the review page's thumbnails, a few at a time, with a progress line. A thumbnail the
/// server does not give becomes a placeholder with its reason; it never fails the run.
enum ThumbnailFetch {
  /// At most this many requests at once: enough to hide latency, gentle on a home server.
  static let width = 4

  static func fetch(_ ids: [String], client: ImmichClient) async -> [String: ThumbnailOutcome] {
    let progress = ProgressLine.standardError
    progress.phase("fetching thumbnails")
    var results: [String: ThumbnailOutcome] = [:]
    await withTaskGroup(of: (String, ThumbnailOutcome).self) { group in
      var next = 0
      while next < min(width, ids.count) {
        let id = ids[next]
        group.addTask { (id, await one(id, client)) }
        next += 1
      }
      for await (id, outcome) in group {
        results[id] = outcome
        progress.count("thumbnails", results.count, of: ids.count)
        if next < ids.count {
          let id = ids[next]
          group.addTask { (id, await one(id, client)) }
          next += 1
        }
      }
    }
    progress.finish()
    return results
  }

  static func one(_ id: String, _ client: ImmichClient) async -> ThumbnailOutcome {
    do {
      let thumbnail = try await client.thumbnail(id: id)
      return .served(contentType: thumbnail.contentType, bytes: thumbnail.bytes)
    } catch {
      switch error.httpStatus {
      case 403: return .missing(.noPermission)
      case 400: return .missing(.gone)
      case 404: return .missing(.noImage)
      default: return .missing(error.kind == .forbidden ? .noPermission : .serverError)
      }
    }
  }
}
