import CairnCore
import CairnImmich
import CairnReview
import Foundation

/// `cairn-gate --review FILE`: writes the review page for the gate's whole plan, whether or not
/// the rails pass (a refused plan is exactly when a person wants to look), then the gate goes
/// on as always. Thumbnails come from the server the configuration names, with the same
/// settings and API key as cairn-trash; the page itself never holds them.
struct ReviewWriter {
  var path: String

  /// What the gate knows when the rails have spoken.
  struct Plan {
    var plan: GatePlan
    var candidates: [CandidateRecord]
    var header: HeaderRecord
    var refusal: String?
    /// The threshold rail refused: the page offers the override.
    var overThreshold = false
  }

  func write(_ gate: Plan, _ configuration: Configuration) async throws(CairnError) {
    var notes: [String] = []
    var thumbnails: [String: ThumbnailOutcome] = [:]
    let wanted = ReviewInput.wantedThumbnails(gate.plan)
    if !wanted.isEmpty {
      do {
        let connection = try await ServerConnection.connect(configuration: configuration)
        if let stated = gate.header.server?.partition, stated != connection.partition {
          notes.append(
            "thumbnails not fetched: the plan is for \(stated), but the configuration points "
              + "at \(connection.partition)")
        } else {
          thumbnails = await ThumbnailFetch.fetch(wanted, client: connection.client)
        }
      } catch {
        notes.append("thumbnails not fetched: \(error.message)")
      }
    }
    let input = ReviewInput(
      plan: gate.plan, streamDigest: PlanDigest.of(gate.candidates),
      webBase: gate.header.server.flatMap { HTMLText.webBase(apiBase: $0.url) },
      refusal: gate.refusal, overThreshold: gate.overThreshold, thumbnails: thumbnails,
      notes: notes)
    do {
      try Data(ReviewPage.html(input).utf8).write(
        to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CairnError(
        .stateFailure, "cannot write the review page: \(error.localizedDescription)", at: path)
    }
    summarise(input)
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
