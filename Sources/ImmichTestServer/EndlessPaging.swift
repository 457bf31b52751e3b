import Foundation

/// Search pages that never end, as a broken or hostile server answers them:
/// `POST /api/search/metadata` keeps pointing to the next page. Armed per server, off by
/// default; the real answer is computed first and only its paging is rewritten.
package final class EndlessPaging: @unchecked Sendable {
  package enum Shape: Sendable, Equatable {
    /// Every page holds the real first page's assets and points to the page after it.
    case counting
    /// Every page is empty and points to the page after it.
    case emptyPagesWithNext
  }

  private let lock = NSLock()
  private var shape: Shape?
  /// The real answer to the last first page, which `counting` repeats.
  private var firstPage: String?

  package init() {}

  /// Arms `shape` for every later search (nil disarms).
  package func arm(_ shape: Shape?) { lock.withLock { self.shape = shape } }

  /// The reply to send instead of `reply` while armed; nil to send `reply` as it is.
  func reshape(_ api: APIRequest, _ reply: Reply) -> Reply? {
    guard let shape = lock.withLock({ self.shape }), api.method == "POST",
      api.path == "/api/search/metadata", case .jsonText(200, let text) = reply
    else { return nil }
    let object = try? JSONSerialization.jsonObject(with: Data(api.body)) as? [String: Any]
    let page = (object?["page"] as? Int) ?? 1
    let next = "\"nextPage\":\"\(page + 1)\"}}"
    switch shape {
    case .counting:
      if page == 1 { lock.withLock { firstPage = text } }
      // The real page-1 answer ends with its own `"nextPage":…}}`: only that is replaced.
      guard let first = lock.withLock({ firstPage }),
        let start = first.range(of: "\"nextPage\":", options: .backwards)
      else { return nil }
      return .jsonText(200, String(first[..<start.lowerBound]) + next)
    case .emptyPagesWithNext:
      return .jsonText(
        200,
        #"{"albums":{"total":0,"count":0,"items":[],"facets":[]},"#
          + #""assets":{"total":0,"count":0,"items":[],"facets":[],"# + next)
    }
  }
}
