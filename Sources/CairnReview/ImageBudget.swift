import CairnCore

/// The page's size cap: pictures are embedded in page order (to trash first) until
/// `ReviewInput.imageBudget` is spent; later tiles keep their name, date and link to Immich.
extension ReviewInput {
  /// The lower-case ids of the pictures the page shows, in the order it shows them (each
  /// tile's still, then its Live Photo video): the order thumbnails are fetched and embedded.
  package var pageOrder: [String] {
    var ids: [String] = []
    var seen: Set<String> = []
    for section in ReviewSection.all(self) {
      for folder in section.folders {
        for day in folder.days {
          for candidate in day.items {
            let pair = [candidate.assetId] + (candidate.livePhotoVideoId.map { [$0] } ?? [])
            for id in pair.map({ $0.lowercased() })
            where HTMLText.isAssetId(id) && seen.insert(id).inserted {
              ids.append(id)
            }
          }
        }
      }
    }
    return ids
  }

  /// The bytes one image takes in the page, as a `data:` URI.
  package static func embeddedSize(contentType: String, bytes: Int) -> Int {
    "data:;base64,".utf8.count + contentType.utf8.count + (bytes + 2) / 3 * 4
  }

  /// This input with every picture past the budget, in page order, left out (`overBudget`).
  package func withinBudget() -> ReviewInput {
    var capped = self
    var spent = 0
    for id in pageOrder {
      guard case .image(let type, let bytes) = thumbnails[id] else { continue }
      spent += Self.embeddedSize(contentType: type, bytes: bytes.count)
      if spent > imageBudget { capped.thumbnails[id] = .missing(.overBudget) }
    }
    return capped
  }
}
