import CairnImmich
import CairnReviewPage
import CairnSupport

/// Fetches the review page's thumbnails, a few at a time and in page order, with a progress
/// line. A thumbnail the server does not give becomes a placeholder with its reason; it never
/// fails the run, and the whole fetch is bounded: it stops at its deadline, after a few
/// requests in a row find the server gone, and once the page's picture budget is spent.
struct ThumbnailFetch {
  /// How long fetching may take in all; what is not fetched by then is a placeholder.
  var deadline: Duration
  /// Bytes of pictures the page will embed (`ReviewInput.imageBudget`): no more are asked for.
  var budget: Int

  /// At most this many requests at once: enough to hide latency, gentle on a home server.
  static let width = 6
  /// Requests in a row refused, timed out or answered 5xx before the server is taken for gone.
  static let giveUpAfter = 3

  /// The thumbnails by id, and a note for the page when the fetch was cut short.
  struct Result {
    var thumbnails: [String: ThumbnailOutcome] = [:]
    var note: String?
  }

  /// One finished request, or the deadline.
  enum Event: Sendable {
    case fetched(String, ThumbnailOutcome, failure: String?)
    case deadline
  }

  func fetch(_ ids: [String], client: ImmichClient) async -> Result {
    guard !ids.isEmpty else { return Result() }
    let progress = ProgressLine.standardError
    progress.phase("fetching thumbnails")
    var run = Run(ids: ids, budget: budget)
    await withTaskGroup(of: Event.self) { group in
      let deadline = self.deadline
      group.addTask {
        try? await Task.sleep(for: deadline)
        return .deadline
      }
      while run.launched < min(Self.width, ids.count) { run.launch(into: &group, client) }
      for await event in group {
        run.record(event)
        if case .fetched = event { progress.count("thumbnails", run.done, of: ids.count) }
        if run.stop == nil, run.spent <= budget, run.launched < ids.count {
          run.launch(into: &group, client)
        } else if run.stop != nil || run.done == run.launched {
          // Stopped, or nothing more to ask: cancel what is still out, and the deadline.
          group.cancelAll()
          break
        }
      }
    }
    progress.finish()
    return run.result(deadline: deadline)
  }

  /// What one fetch has done so far.
  struct Run {
    let ids: [String]
    let budget: Int
    var thumbnails: [String: ThumbnailOutcome] = [:]
    var launched = 0
    var done = 0
    var spent = 0
    var failuresInARow = 0
    var lastFailure = ""
    var stop: MissingThumbnail?

    mutating func launch(into group: inout TaskGroup<Event>, _ client: ImmichClient) {
      let id = ids[launched]
      launched += 1
      group.addTask {
        let (outcome, failure) = await ThumbnailFetch.one(id, client)
        return .fetched(id, outcome, failure: failure)
      }
    }

    mutating func record(_ event: Event) {
      switch event {
      case .deadline:
        stop = .deadline
      case .fetched(let id, let outcome, let failure):
        done += 1
        thumbnails[id] = outcome
        if case .image(let type, let bytes) = outcome {
          spent += ReviewInput.embeddedSize(contentType: type, bytes: bytes.count)
        }
        if let failure {
          failuresInARow += 1
          lastFailure = failure
          if failuresInARow >= ThumbnailFetch.giveUpAfter { stop = .serverDown }
        } else {
          failuresInARow = 0
        }
      }
    }

    /// Every id without an answer gets the reason the fetch stopped for: a request still out
    /// then was cancelled.

    func result(deadline: Duration) -> Result {
      var result = Result(thumbnails: thumbnails)
      let rest = stop ?? .overBudget
      var left = 0
      for id in ids where thumbnails[id] == nil {
        result.thumbnails[id] = .missing(rest)
        left += 1
      }
      switch stop {
      case .deadline?:
        result.note =
          "thumbnail fetching stopped at its deadline (\(deadline.components.seconds) s): "
          + "\(left) not fetched"
      case .serverDown?:
        result.note =
          "thumbnail fetching gave up after \(ThumbnailFetch.giveUpAfter) requests in a row "
          + "failed (\(lastFailure)): \(left) not fetched"
      default:
        break
      }
      return result
    }
  }

  /// One thumbnail, and the failure's words when the server could not be reached or failed
  /// (the kind that, repeated, means it is gone).
  static func one(_ id: String, _ client: ImmichClient) async -> (ThumbnailOutcome, String?) {
    do {
      let thumbnail = try await client.thumbnail(id: id)
      return (.served(contentType: thumbnail.contentType, bytes: thumbnail.bytes), nil)
    } catch {
      switch error.httpStatus {
      case 403: return (.missing(.noPermission), nil)
      case 400: return (.missing(.gone), nil)
      case 404: return (.missing(.noImage), nil)
      default:
        if error.kind == .forbidden { return (.missing(.noPermission), nil) }
        return (.missing(.serverError), error.message)
      }
    }
  }
}
