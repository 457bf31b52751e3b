/// How far one paged listing may go before it is a server that pages for ever.
///
/// Immich points to a next page only after a full one, and never back (page numbers) or to
/// where it was (cursors); its own count of the assets bounds how many pages can hold them. A listing that breaks any of this stops with a
/// server error (exit 69) instead of running for minutes and gigabytes.
struct PageBound {
  /// Pages of one visibility at most, whatever the count (a hundred million assets).
  static let maximumPages = 100_000

  let label: String
  let pageSize: Int
  /// The server's own count of what the listing should hold, once asked; nil when unknown.
  var counted: Int?
  private(set) var listed = 0
  private var cursors = Set<String>()

  init(label: String, pageSize: Int) {
    self.label = label
    self.pageSize = pageSize
  }

  /// Checks the `page`-th page, an answer to `sent`.
  mutating func check(page: Int, items: Int, next answer: SearchPage, sent: MetadataQuery)
    throws(ImmichError)
  {
    guard let cursor = answer.nextCursor else {
      try check(page: sent.page, items: items, next: answer.nextPage)
      return
    }
    if cursor == sent.cursor || !cursors.insert(cursor).inserted {
      throw failure("page \(page) points to a cursor already listed")
    }
    try check(page: page, items: items, next: page + 1)
  }

  /// Checks page `page` with `items` assets pointing to `next`.
  mutating func check(page: Int, items: Int, next: Int?) throws(ImmichError) {
    listed += items
    if let counted, listed > counted + pageSize {
      // A page of slack: assets uploaded while the listing runs are not an endless server.
      throw failure("the server counts \(counted) assets but its pages have listed \(listed)")
    }
    guard let next else { return }
    guard next > page else { throw failure("page \(page) points back to page \(next)") }
    guard items > 0 else { throw failure("page \(page) is empty but points to page \(next)") }
    guard page < Self.maximumPages else {
      throw failure("more than \(Self.maximumPages) pages of \(pageSize) assets")
    }
  }

  private func failure(_ what: String) -> ImmichError {
    ImmichError(.server, "\(label): \(what); the listing is stopped rather than trusted")
  }
}
