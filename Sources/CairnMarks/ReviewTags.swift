import Foundation

/// The tags of review inside Immich (`CAIRN_REVIEW_IN_IMMICH=on`, see cairn(7)).
///
/// `review` is cairn's mark on the candidates that wait for a person; `approve` and `keep` are
/// the person's, set in Immich's web app or phone app on a marked asset. They sit under
/// `cairn/v1/` beside the run tags (`RunTag`), so Immich's tag list shows them together, and
/// the last segment is what the list shows (docs/IMMICH-API.md §6.1).
package enum ReviewTags {
  /// cairn's mark: this asset is a pending or held candidate waiting for a decision.
  package static let review = "cairn/v1/review"
  /// A person's decision: trash it (as `cairn-gate --approve` would), through every rail.
  package static let approve = "cairn/v1/approve"
  /// A person's decision: keep it for good (as `cairn-gate --exclude` would).
  package static let keep = "cairn/v1/keep"

  /// The web app's page of the assets carrying `value`: `/tags?path=<value>` on the server's
  /// address (docs/IMMICH-API.md §6.7). `serverURL` may end in `/api`, as `IMMICH_URL` does.
  package static func webPage(_ value: String, serverURL: String) -> String {
    var base = serverURL
    while base.hasSuffix("/") { base.removeLast() }
    if base.hasSuffix("/api") { base.removeLast(4) }
    let query = value.addingPercentEncoding(withAllowedCharacters: pathQueryCharacters) ?? value
    return base + "/tags?path=" + query
  }

  // Slashes stay readable in the link; everything a query value cannot hold is escaped.
  private static let pathQueryCharacters: CharacterSet = {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~/")
    return allowed
  }()
}
