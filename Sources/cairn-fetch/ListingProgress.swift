import CairnImmich
import CairnSupport

// The listing's progress line (`cairn-fetch: 12000 assets listed`), drawn on a terminal while
// the pages come in. It is erased before the header is written: `cairn-reconcile`, which runs
// this tool with the same terminal, draws its own line only once it has read that header (it
// needs the partition it names to record anything), so the two never draw at once.
extension SearchLister {
  /// Lists every page, counting the assets on the progress line as they arrive.
  func listShowingProgress() async throws(ImmichError) -> ServerListing {
    try await list(progress: { ProgressLine.standardError.count("assets listed", $0) })
  }
}
