import CairnEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Finds assets by id in a listing that keeps no ids: the engine needs the motion video of a
/// Live Photo still that became a candidate (its checksum decides whether the video goes with
/// the still), and a million asset lines are read for their ids only then.
///
/// A line is decoded only when one of its `"id"` keys has a wanted value, so a nested object
/// with an `id` of its own costs a decoding, never a wrong answer: the decoded record's id is
/// what counts. An id spelled with escapes is not found, and a video not found is never sent.
extension ServerAssets {
  /// The index of the asset with each of `ids` (lower case) that the listing holds.
  package func indices(ofIds ids: Set<String>) throws(ListingReadBackError) -> [String: Int] {
    guard !ids.isEmpty else { return [:] }
    let keys = Set(ids.map { Array($0.utf8) })
    var found: [String: Int] = [:]
    try forEachLine { (index, line) throws(ListingReadBackError) in
      guard AssetIdSearch.mentionsId(line, in: keys) else { return }
      let id = try record(index).id.lowercased()
      if ids.contains(id) && found[id] == nil { found[id] = index }
    }
    return found
  }

  /// For each of `videoIds` (lower case), the first asset not in the trash whose
  /// `livePhotoVideoId` names it: read, as `indices(ofIds:)` reads ids, only when a motion
  /// video became a candidate.
  package func stillIndices(ofVideos videoIds: Set<String>) throws(ListingReadBackError)
    -> [String: Int]
  {
    guard !videoIds.isEmpty else { return [:] }
    let keys = Set(videoIds.map { Array($0.utf8) })
    var found: [String: Int] = [:]
    try forEachLine { (index, line) throws(ListingReadBackError) in
      guard !isTrashed(index),
        AssetIdSearch.mentionsId(line, in: keys, key: AssetIdSearch.videoKey)
      else { return }
      guard let video = try record(index).livePhotoVideoId?.lowercased(),
        videoIds.contains(video), found[video] == nil
      else { return }
      found[video] = index
    }
    return found
  }
}

extension ServerAssets {
  /// The assets whose `originalFileName` is one of `names`, byte for byte: read, as
  /// `indices(ofIds:)` reads ids, only when the watcher saw a file it never hashed. A name
  /// spelled with escapes in the line (a quote, a backslash, a control character) is not
  /// found; such a sighting proposes nothing.
  package func indices(ofFileNames names: Set<String>) throws(ListingReadBackError) -> [Int] {
    guard !names.isEmpty else { return [] }
    let keys = Set(names.map { Array($0.utf8) })
    var found: [Int] = []
    try forEachLine { (index, line) throws(ListingReadBackError) in
      guard AssetIdSearch.mentionsId(line, in: keys, key: AssetIdSearch.nameKey) else { return }
      if keys.contains(Array(try record(index).originalFileName.utf8)) { found.append(index) }
    }
    return found
  }
}

enum AssetIdSearch {
  static let idKey = Array("\"id\"".utf8)
  static let videoKey = Array("\"livePhotoVideoId\"".utf8)
  static let nameKey = Array("\"originalFileName\"".utf8)

  /// Whether `line` has a `key` (quoted, as `idKey`) whose string value is one of `ids`, byte
  /// for byte.
  static func mentionsId(
    _ line: UnsafeBufferPointer<UInt8>, in ids: Set<[UInt8]>, key: [UInt8] = idKey
  ) -> Bool {
    var at = 0
    while at + key.count < line.count {
      guard line[at] == key[0], line[at + 1] == key[1], line[at + 2] == key[2],
        line[at + 3] == key[3], key.indices.allSatisfy({ line[at + $0] == key[$0] })
      else {
        at += 1
        continue
      }
      var cursor = skipSpace(line, at + key.count)
      guard cursor < line.count, line[cursor] == UInt8(ascii: ":") else {
        at += 1
        continue
      }
      cursor = skipSpace(line, cursor + 1)
      guard cursor < line.count, line[cursor] == UInt8(ascii: "\"") else {
        at += 1
        continue
      }
      let start = cursor + 1
      var end = start
      while end < line.count && line[end] != UInt8(ascii: "\"") { end += 1 }
      if end < line.count && ids.contains(Array(line[start..<end])) { return true }
      at = end
    }
    return false
  }

  private static func skipSpace(_ line: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
    var at = from
    while at < line.count
      && (line[at] == 0x20 || line[at] == 0x09 || line[at] == 0x0A || line[at] == 0x0D)
    {
      at += 1
    }
    return at
  }
}

extension ListingFile {
  /// Calls `body` with each line at `places` (in file order), read in large chunks rather than
  /// one system call a line. The lines are not checked against their digests here: whatever
  /// is done with one goes through `ServerAssets.record`, which is. A file cut short throws.
  func forEachLine(
    _ places: [ServerAssets.LinePlace],
    _ body: (Int, UnsafeBufferPointer<UInt8>) throws(ListingReadBackError) -> Void
  ) throws(ListingReadBackError) {
    let chunkSize = 8 << 20
    var buffer: [UInt8] = []
    var base = 0
    for (index, place) in places.enumerated() {
      if place.offset < base || place.offset + place.length > base + buffer.count {
        base = place.offset
        buffer = [UInt8](repeating: 0, count: max(chunkSize, place.length))
        var filled = 0
        while filled < buffer.count {
          let got = buffer.withUnsafeMutableBytes { raw in
            pread(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled, off_t(base + filled))
          }
          if got < 0 && errno == EINTR { continue }
          guard got > 0 else { break }
          filled += got
        }
        buffer.removeSubrange(filled...)
        guard place.length <= buffer.count else {
          throw failure("it ends before a line read from it")
        }
      }
      let start = place.offset - base
      try buffer.withUnsafeBufferPointer { (all) throws(ListingReadBackError) in
        try body(index, UnsafeBufferPointer(rebasing: all[start..<start + place.length]))
      }
    }
  }
}
