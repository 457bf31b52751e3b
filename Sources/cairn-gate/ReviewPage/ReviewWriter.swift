import CairnImmich
import CairnRecords
import CairnReviewPage
import CairnSafety
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

/// `cairn-gate --review FILE`: writes the review page for the gate's whole plan, whether or not
/// the rails pass (a refused plan is exactly when a person wants to look), then the gate goes
/// on as always. Thumbnails come from the server the configuration names, with the same
/// settings and API key as cairn-trash; the page itself never holds them.
struct ReviewWriter {
  var path: String
  /// How long thumbnail fetching may take in all (`--review-deadline`).
  var deadline: Duration = Self.defaultDeadline

  static let defaultDeadline = Duration.seconds(60)
  /// One thumbnail request's own cut-off: a thumbnail is small, and a server that takes longer
  /// is better shown as placeholders than waited for.
  static let requestTimeout = Duration.seconds(10)

  /// What the gate knows when the rails have spoken.
  struct Plan {
    var plan: GatePlan
    var candidates: [CandidateRecord]
    var header: HeaderRecord
    var refusal: String?
    /// The threshold rail refused: the page offers the override.
    var overThreshold = false
    /// The partition's exclusions of checksums not in this stream.
    var earlierExclusions: [EarlierExclusion] = []
  }

  func write(_ gate: Plan, _ configuration: Configuration) async throws(CairnError) {
    var input = ReviewInput(
      plan: gate.plan, streamDigest: PlanDigest.of(gate.candidates),
      webBase: gate.header.server.flatMap { HTMLText.webBase(apiBase: $0.url) },
      refusal: gate.refusal, overThreshold: gate.overThreshold, thumbnails: [:],
      earlierExclusions: gate.earlierExclusions)
    input.imageBudget = input.pictureBudget
    let wanted = input.pageOrder
    if !wanted.isEmpty {
      await fetchThumbnails(
        wanted, into: &input, stated: gate.header.server?.partition, configuration)
    }
    do {
      try Data(ReviewPage.html(input).utf8).write(
        to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CairnError(
        .stateFailure, "cannot write the review page: \(error.localizedDescription)", at: path)
    }
    summarise(input.withinBudget())
  }

  /// Fetches with the configured server's settings, but one short attempt per thumbnail: a
  /// missing picture costs less than a page that never comes.
  func fetchThumbnails(
    _ wanted: [String], into input: inout ReviewInput, stated: ServerPartition?,
    _ configuration: Configuration
  ) async {
    do {
      var options = try ClientOptions.from(configuration)
      options.requestTimeout = min(options.requestTimeout, Self.requestTimeout)
      options.maxAttempts = 1
      let connection = try await ServerConnection.connect(
        configuration: configuration, options: options)
      if let stated, stated != connection.partition {
        input.notes.append(
          "thumbnails not fetched: the plan is for \(stated), but the configuration points "
            + "at \(connection.partition)")
        return
      }
      let fetch = ThumbnailFetch(deadline: deadline, budget: input.pictureBudget)
      let result = await fetch.fetch(wanted, client: connection.client)
      input.thumbnails = result.thumbnails
      if let note = result.note { input.notes.append(note) }
    } catch {
      input.notes.append("thumbnails not fetched: \(error)")
    }
  }

  /// One line where the page is, and one per kind of missing thumbnail.
  func summarise(_ input: ReviewInput) {
    for note in input.notes { Diagnostics.warning(note) }
    Diagnostics.info(
      "review page: \(path) (\(input.tileCount) photo(s), plan \(input.streamDigest))")
    for (why, count) in input.missing where why != .notFetched || input.notes.isEmpty {
      Diagnostics.info("  \(count) without a thumbnail: \(why.summary)")
    }
  }
}
