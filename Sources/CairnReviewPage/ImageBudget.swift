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

  /// The bytes of pictures the page may carry: `imageBudget` when set, else what the page
  /// budget leaves after the markup (measured by making the page without pictures, less half a
  /// megabyte for the difference between a picture's tag and a placeholder's).
  package var pictureBudget: Int {
    if let imageBudget { return imageBudget }
    var bare = self
    bare.thumbnails = [:]
    bare.imageBudget = 0
    return max(0, Self.pageBudget - 500_000 - ReviewPage.html(bare).utf8.count)
  }

  /// This input with every picture past the budget, in page order, left out (`overBudget`), and
  /// the budget settled.
  package func withinBudget() -> ReviewInput {
    var capped = self
    let budget = pictureBudget
    capped.imageBudget = budget
    var spent = 0
    for id in pageOrder {
      guard case .image(let type, let bytes) = thumbnails[id] else { continue }
      spent += Self.embeddedSize(contentType: type, bytes: bytes.count)
      if spent > budget { capped.thumbnails[id] = .missing(.overBudget) }
    }
    return capped
  }
}
