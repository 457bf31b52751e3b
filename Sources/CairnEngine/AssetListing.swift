import CairnRecords

/// The server's assets as the engine reads them, by index in listing order: every asset's
/// checksum and trashed flag, and the whole record of the few that become candidates.
///
/// `PlainListing` holds the records in an array; the fast readings (`ServerAssets`, in
/// CairnReconcile) keep lines or only where each line lies in a listing file, and decode a
/// record when asked. A record read again from a file can fail (the file was saved over
/// meanwhile): that is a `ListingReadBackError`, thrown before the engine decides anything, so
/// no half-known record can reach a candidate.
package protocol AssetListing: Sendable {
  var count: Int { get }
  func isTrashed(_ index: Int) -> Bool
  func checksum(_ index: Int) -> String
  /// Asset `index`, decoded.
  func record(_ index: Int) throws(ListingReadBackError) -> AssetRecord
  /// The index of the first asset with each of `ids` (lower case) that the listing holds.
  func indices(ofIds ids: Set<String>) throws(ListingReadBackError) -> [String: Int]
  /// For each of `videoIds` (lower case), the index of the first asset not in the trash whose
  /// `livePhotoVideoId` names it: the Live Photo still a motion video belongs to.
  func stillIndices(ofVideos videoIds: Set<String>) throws(ListingReadBackError) -> [String: Int]
  /// The indices, in listing order, of the assets whose `originalFileName` is one of `names`
  /// byte for byte (UTF-8; no normalization, no folding of case): where a file the watcher
  /// never hashed may be on the server.
  func indices(ofFileNames names: Set<String>) throws(ListingReadBackError) -> [Int]
}

/// A listing's line could not be read again as it was first read: the file it lies in was
/// changed or cut short meanwhile. Nothing may be recorded or acted on.
package struct ListingReadBackError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Which file, and what went wrong.
  package var message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}

/// The reference reading of a listing: its records in an array.
package struct PlainListing: AssetListing, ExpressibleByArrayLiteral {
  package let records: [AssetRecord]

  package init(_ records: [AssetRecord]) { self.records = records }

  package init(arrayLiteral records: AssetRecord...) { self.init(records) }

  package var count: Int { records.count }
  package func isTrashed(_ index: Int) -> Bool { records[index].isTrashed }
  package func checksum(_ index: Int) -> String { records[index].checksum }
  package func record(_ index: Int) -> AssetRecord { records[index] }

  package func indices(ofIds ids: Set<String>) -> [String: Int] {
    var found: [String: Int] = [:]
    for (index, record) in records.enumerated() {
      let id = record.id.lowercased()
      if ids.contains(id) && found[id] == nil { found[id] = index }
    }
    return found
  }

  package func indices(ofFileNames names: Set<String>) -> [Int] {
    let wanted = Set(names.map { Array($0.utf8) })
    return records.indices.filter { wanted.contains(Array(records[$0].originalFileName.utf8)) }
  }

  package func stillIndices(ofVideos videoIds: Set<String>) -> [String: Int] {
    var found: [String: Int] = [:]
    for (index, record) in records.enumerated() where !record.isTrashed {
      guard let video = record.livePhotoVideoId?.lowercased(), videoIds.contains(video),
        found[video] == nil
      else { continue }
      found[video] = index
    }
    return found
  }
}
