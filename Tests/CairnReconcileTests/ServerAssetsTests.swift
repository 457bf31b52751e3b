import CairnEngine
import CairnJSON
import CairnRecords
import Foundation
import Testing

@testable import CairnReconcile

/// The listing keeps each asset as its line and decodes it only for a candidate, so the check
/// made when a line is added must refuse exactly what decoding refuses, with the same words.
@Suite struct ServerAssetsTests {
  private static let good =
    #"{"type":"asset","id":"A1","checksum":"oAmfwnj7zQz/KOqcJFYJdawUtWE=","originalFileName":"IMG_1.jpg","assetType":"IMAGE","visibility":"timeline","livePhotoVideoId":"V1","isTrashed":false,"ownerId":"u1","fileCreatedAt":"2026-01-01T00:00:00.000Z"}"#

  /// Every field of the good line missing, null, or replaced by a value of each kind, plus
  /// dates well and badly formed and strings with escapes.
  private static func variants() throws -> [String] {
    let fields = [
      "id", "checksum", "originalFileName", "assetType", "visibility", "livePhotoVideoId",
      "isTrashed", "ownerId", "fileCreatedAt", "isFavorite", "libraryId",
    ]
    let values = [
      "null", "true", "7", "\"text\"", "[]", "{}", "\"2026-02-30T10:00:00+01:00\"",
      "\"2026-01-01\"", #""2026-01-01T00:00:00\u005A""#, #""a\/b""#,
    ]
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(good.utf8)) as? [String: Any])
    var lines = [good]
    for field in fields {
      var without = object
      without[field] = nil
      lines.append(try Self.line(without))
      for value in values {
        let parsed = try JSONSerialization.jsonObject(
          with: Data(value.utf8), options: .fragmentsAllowed)
        var changed = object
        changed[field] = parsed
        lines.append(try Self.line(changed))
      }
    }
    // Escapes in place, where JSONSerialization would not write them.
    lines.append(good.replacingOccurrences(of: "zQz/KOq", with: #"zQz\/KOq"#))
    lines.append(good.replacingOccurrences(of: "00.000Z", with: #"00.000\u005A"#))
    lines.append(good.replacingOccurrences(of: "00.000Z", with: #"00.000\u005B"#))
    return lines
  }

  private static func line(_ object: [String: Any]) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func checkingRefusesWhatDecodingRefuses() throws {
    var refused = 0
    for line in try Self.variants() {
      let object = try JSONObject(parsing: Array(line.utf8))
      let decoded = Result { () throws(RecordError) in try AssetRecord(object) }
      let checked = Result { () throws(RecordError) in try AssetRecord.check(object) }
      switch (decoded, checked) {
      case (.success, .success): break
      case (.failure(let a), .failure(let b)):
        #expect(a == b, "\(line)")
        refused += 1
      default: Issue.record("decoding and checking disagree on \(line)")
      }
    }
    #expect(refused > 40)  // the variants do exercise refusal
  }

  @Test func anAssetKeptAsItsLineDecodesAsTheLineDoes() throws {
    var assets = ServerAssets()
    var expected: [AssetRecord] = []
    for line in try Self.variants() {
      let object = try JSONObject(parsing: Array(line.utf8))
      guard let record = try? AssetRecord(object) else {
        #expect(throws: RecordError.self) { try assets.append(object) }
        continue
      }
      try assets.append(object)
      expected.append(record)
    }
    #expect(assets.count == expected.count)
    for (index, record) in expected.enumerated() {
      #expect(try assets.record(index) == record)
      #expect(assets.checksum(index) == record.checksum)
      #expect(assets.withChecksum(index) { String(decoding: $0, as: UTF8.self) } == record.checksum)
      #expect(assets.isTrashed(index) == record.isTrashed)
    }
  }

  @Test func manyLinesSpanChunks() throws {
    // Long names make the lines fill more than one 16 MB chunk.
    let name = String(repeating: "n", count: 100_000)
    var assets = ServerAssets()
    for index in 0..<400 {
      let record = AssetRecord(
        id: "a\(index)", checksum: "c\(index)", originalFileName: name, assetType: "IMAGE",
        visibility: "timeline", isTrashed: index % 3 == 0, ownerId: "u")
      try assets.append(JSONObject(parsing: record.jsonBytes()))
    }
    for index in [0, 150, 167, 168, 399] {
      #expect(try assets.record(index).id == "a\(index)")
      #expect(assets.checksum(index) == "c\(index)")
      #expect(assets.isTrashed(index) == (index % 3 == 0))
    }
  }

  /// The listing keeps lines, not ids: the video is found by reading them, whatever the order
  /// of their fields and whatever nested object carries an `id` of its own.
  @Test func videosAreFoundInListingLinesByTheirIds() throws {
    let lines = [
      #"{"type":"asset","id":"s1","checksum":"S","ownerId":"u","livePhotoVideoId":"v1"}"#,
      #"{"type":"asset","extra":{"id":"v1"},"checksum":"N","ownerId":"u","id":"n1"}"#,
      #"{"type":"asset","checksum":"V","ownerId":"u","id" : "v1","visibility":"hidden"}"#,
    ]
    var assets = ServerAssets()
    for line in lines { try assets.append(JSONObject(parsing: Array(line.utf8))) }
    let found = try assets.indices(ofIds: ["v1", "zz"])
    #expect(found == ["v1": 2])
    #expect(assets.checksum(2) == "V")
  }

  /// An unhashed file's name is found in the lines as the plain reading finds it in the
  /// records: byte for byte, whatever else mentions the name, trashed assets included (the
  /// engine leaves those out).
  @Test func fileNamesAreFoundInTheLinesAsInTheRecords() throws {
    let lines = [
      #"{"type":"asset","id":"a","checksum":"A","ownerId":"u","originalFileName":"IMG_1.JPG"}"#,
      #"{"type":"asset","id":"b","checksum":"B","ownerId":"u","originalFileName":"img_1.jpg"}"#,
      #"{"type":"asset","id":"c","checksum":"C","ownerId":"u","note":{"originalFileName":"IMG_1.JPG"},"originalFileName":"x.jpg"}"#,
      #"{"type":"asset","id":"d","checksum":"D","ownerId":"u","originalFileName" : "IMG_1.JPG","isTrashed":true}"#,
      #"{"type":"asset","id":"e","checksum":"E","ownerId":"u","originalFileName":"cafe\#u{301}.jpg"}"#,
    ]
    var assets = ServerAssets()
    var records: [AssetRecord] = []
    for line in lines {
      let object = try JSONObject(parsing: Array(line.utf8))
      try assets.append(object)
      records.append(try AssetRecord(object))
    }
    for names: Set<String> in [["IMG_1.JPG"], ["img_1.jpg", "x.jpg"], ["caf\u{E9}.jpg"], []] {
      let found = try assets.indices(ofFileNames: names)
      #expect(found == PlainListing(records).indices(ofFileNames: names), "\(names)")
    }
    #expect(try assets.indices(ofFileNames: ["IMG_1.JPG"]) == [0, 3])
  }

  /// A motion video's still is found by the `livePhotoVideoId` naming it, read from the lines
  /// as ids are; a still in the trash belongs to no Live Photo on the server, and the plain
  /// reading finds the same.
  @Test func stillsAreFoundByTheVideoTheyName() throws {
    let lines = [
      #"{"type":"asset","id":"v1","checksum":"V","ownerId":"u","visibility":"hidden"}"#,
      #"{"type":"asset","id":"old","checksum":"O","ownerId":"u","livePhotoVideoId":"v1","isTrashed":true}"#,
      #"{"type":"asset","id":"n1","checksum":"N","ownerId":"u","note":{"livePhotoVideoId":"v2"}}"#,
      #"{"type":"asset","checksum":"S","ownerId":"u","livePhotoVideoId" : "v1","id":"s1"}"#,
    ]
    var assets = ServerAssets()
    var records: [AssetRecord] = []
    for line in lines {
      let object = try JSONObject(parsing: Array(line.utf8))
      try assets.append(object)
      records.append(try AssetRecord(object))
    }
    #expect(try assets.stillIndices(ofVideos: ["v1", "v2", "zz"]) == ["v1": 3])
    #expect(PlainListing(records).stillIndices(ofVideos: ["v1", "v2", "zz"]) == ["v1": 3])
  }
}
