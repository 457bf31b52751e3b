import CairnEngine
import CairnRecords
import CairnSettings
import Foundation
import Testing

/// The engine's per-asset rules, one row per case: a Live Photo's motion video that stays, a
/// favourite, an external-library asset, and a photo put back after a cairn run trashed it.
///
/// The library: a Live Photo (still `S`, hidden video `V`, linked by `livePhotoVideoId`), a
/// plain photo `P`, all observed under `/lib`; the scan holds whatever a row puts in it.
@Suite struct AssetRulesEngineTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var scanned: [String] = []
    var observed: [String] = ["S", "V", "P"]
    var exclusions: Set<String> = []
    var strict = false
    var listed: [AssetRecord] = AssetRulesEngineTests.library()
    var trashedByRuns: [String: String] = [:]
    var confirmed: [String] = []
    /// asset id → bucket, reason, whether its video stays, the video checksum it names.
    var expected: [String: Expected]
    var matched: Int? = nil

    var testDescription: String { name }
  }

  struct Expected: Equatable, Sendable {
    var bucket: Bucket
    var reason: String
    var videoKept: Bool? = nil
    var videoChecksum: String? = nil
  }

  static func asset(
    _ id: String, _ checksum: String, video: String? = nil, type: String = "IMAGE",
    visibility: String = "timeline", trashed: Bool = false, favorite: Bool = false,
    library: String? = nil
  ) -> AssetRecord {
    AssetRecord(
      id: id, checksum: checksum, originalFileName: "\(id).jpg", assetType: type,
      visibility: visibility, livePhotoVideoId: video, isTrashed: trashed, ownerId: "u",
      isFavorite: favorite, libraryId: library)
  }

  static func library(
    stillFavorite: Bool = false, trashed: Bool = false, listVideo: Bool = true
  ) -> [AssetRecord] {
    var assets = [
      asset("s", "S", video: "v", trashed: trashed, favorite: stillFavorite),
      asset("p", "P", trashed: trashed),
    ]
    if listVideo {
      assets.append(asset("v", "V", type: "VIDEO", visibility: "hidden", trashed: trashed))
    }
    return assets
  }

  static let rows: [Row] = [
    Row(
      name: "a Live Photo deleted whole goes whole",
      expected: [
        "s": Expected(bucket: .delete, reason: "gone", videoChecksum: "V"),
        "v": Expected(bucket: .delete, reason: "gone"),
        "p": Expected(bucket: .delete, reason: "gone"),
      ]),
    Row(
      name: "a still deleted with its video in the library waits, and goes alone",
      scanned: ["V", "P"],
      expected: [
        "s": Expected(
          bucket: .pending, reason: "live-video-kept", videoKept: true, videoChecksum: "V")
      ]),
    Row(
      name: "a still whose video is excluded waits, and goes alone",
      scanned: ["P"], exclusions: ["V"],
      expected: [
        "s": Expected(
          bucket: .pending, reason: "live-video-kept", videoKept: true, videoChecksum: "V")
      ]),
    Row(
      name: "a video never in the library goes with its still",
      scanned: ["P"], observed: ["S", "P"],
      expected: [
        "s": Expected(bucket: .delete, reason: "gone", videoChecksum: "V")
      ]),
    Row(
      name: "a video the listing lacks is never sent",
      scanned: ["P"], listed: library(listVideo: false),
      expected: [
        "s": Expected(bucket: .delete, reason: "gone", videoKept: true)
      ]),
    Row(
      name: "strict mode keeps its reason and keeps the video",
      scanned: ["V", "P"], strict: true,
      expected: [
        "s": Expected(
          bucket: .pending, reason: "unconfirmed", videoKept: true, videoChecksum: "V")
      ]),
    Row(
      name: "a favourite waits for review when trusting",
      scanned: ["V"], observed: ["P", "V"], listed: [asset("p", "P", favorite: true)],
      expected: ["p": Expected(bucket: .pending, reason: "favorite")]),
    Row(
      name: "a favourite waits for review when strict",
      observed: ["P"], strict: true, listed: [asset("p", "P", favorite: true)],
      expected: ["p": Expected(bucket: .pending, reason: "favorite")]),
    Row(
      name: "a favourite confirmed deleted is held through its quarantine",
      observed: ["P"], listed: [asset("p", "P", favorite: true)], confirmed: ["P"],
      expected: ["p": Expected(bucket: .held, reason: "quarantine")]),
    Row(
      name: "a favourite past its quarantine still waits for review",
      observed: ["P"], listed: [asset("p", "P", favorite: true)], confirmed: ["P-old"],
      expected: ["p": Expected(bucket: .pending, reason: "favorite")]),
    Row(
      name: "an external-library asset is never a candidate, nor matched",
      observed: ["P", "X"],
      listed: [asset("p", "P"), asset("x", "X", library: "lib-1")],
      expected: ["p": Expected(bucket: .delete, reason: "gone")], matched: 1),
    Row(
      name: "a photo cairn trashed and the user put back is restored",
      scanned: ["P"], observed: ["P"], listed: [asset("p", "P", trashed: true)],
      trashedByRuns: ["p": "RUN-1"],
      expected: ["p": Expected(bucket: .restore, reason: "put-back")], matched: 0),
    Row(
      name: "a Live Photo put back is restored from its still",
      scanned: ["S", "V"], listed: library(trashed: true),
      trashedByRuns: ["s": "RUN-1", "v": "RUN-1", "p": "RUN-1"],
      expected: [
        "s": Expected(bucket: .restore, reason: "put-back"),
        "v": Expected(bucket: .restore, reason: "put-back"),
      ]),
    Row(
      name: "a trashed photo cairn never trashed stays in the trash, bytes or not",
      scanned: ["P"], observed: ["P"], listed: [asset("p", "P", trashed: true)],
      trashedByRuns: ["other": "RUN-1"], expected: [:]),
    Row(
      name: "a photo cairn trashed that is still gone stays in the trash",
      observed: ["P"], listed: [asset("p", "P", trashed: true)],
      trashedByRuns: ["p": "RUN-1"], expected: [:]),
    Row(
      name: "an external-library asset is never put back",
      scanned: ["P"], observed: ["P"],
      listed: [asset("p", "P", trashed: true, library: "lib-1")],
      trashedByRuns: ["p": "RUN-1"], expected: [:]),
  ]

  @Test(arguments: rows)
  func row(_ row: Row) throws {
    let files = row.scanned.map { checksum in
      ScannedFile(
        root: "/lib", path: "/lib/\(checksum).jpg", checksum: checksum,
        identity: FileIdentity(key: "1:\(checksum)"))
    }
    var observed: [String: ObservedEntry] = [:]
    for checksum in row.observed {
      observed[checksum] = ObservedEntry(
        checksum: checksum, roots: ["/lib"], paths: ["/lib/\(checksum).jpg"],
        firstSeen: Self.now, lastSeen: Self.now)
    }
    var confirmations: [String: DeletionConfirmation] = [:]
    for name in row.confirmed {
      // `P-old`: confirmed long enough ago that the quarantine has ended.
      let checksum = String(name.prefix { $0 != "-" })
      let at = name.hasSuffix("-old") ? Self.now.addingTimeInterval(-30 * 86_400) : Self.now
      confirmations[checksum] = DeletionConfirmation(
        checksum: checksum, confirmedAt: at, source: "freedesktop")
    }
    let input = ReconciliationInput(
      scan: PlainScan(files),
      roots: [RootStatus(path: "/lib", complete: true, files: files.count)],
      observed: observed, confirmations: confirmations, exclusions: row.exclusions,
      assets: PlainListing(row.listed),
      settings: ReconciliationSettings(strictness: row.strict ? .strict : .trusting),
      now: Self.now, trashedByRuns: row.trashedByRuns)
    let output = try ReconciliationEngine.reconcile(input)
    var found: [String: Expected] = [:]
    for c in output.candidates {
      found[c.assetId] = Expected(
        bucket: c.bucket, reason: c.reason, videoKept: c.livePhotoVideoKept,
        videoChecksum: c.livePhotoVideoChecksum)
    }
    #expect(found == row.expected)
    if let matched = row.matched { #expect(output.summary.matched == matched) }
    #expect(
      output.summary.restore == row.expected.values.filter { $0.bucket == .restore }.count)
  }
}
