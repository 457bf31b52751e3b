import CairnEngine
import CairnRecords
import CairnSettings
import CairnStream
import CairnTestSupport
import Foundation
import Testing

/// The globs of `CAIRN_IGNORE_PATHS`, matched against paths relative to a root, and the
/// engine's rule: nothing last seen under an ignored path is gone.
@Suite struct IgnoredPathsTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var pattern: String
    var path: String
    var covered: Bool
    var testDescription: String { "\(pattern) \(covered ? "covers" : "leaves") \(path)" }
  }

  static let rows: [Row] = [
    Row(pattern: "WhatsApp/", path: "WhatsApp/IMG-1.jpg", covered: true),
    Row(pattern: "WhatsApp/", path: "WhatsApp/Media/Sent/IMG-1.jpg", covered: true),
    Row(pattern: "WhatsApp/", path: "Phone/WhatsApp/IMG-1.jpg", covered: false),
    Row(pattern: "WhatsApp/", path: "WhatsApp", covered: false),
    Row(pattern: "WhatsApp", path: "WhatsApp", covered: true),
    Row(pattern: "WhatsApp/", path: "WhatsAppX/IMG-1.jpg", covered: false),
    Row(pattern: "/Downloads/", path: "Downloads/x.jpg", covered: true),
    Row(pattern: "**/Screenshots/**", path: "Screenshots/s.png", covered: true),
    Row(pattern: "**/Screenshots/**", path: "2024/Pixel/Screenshots/s.png", covered: true),
    Row(pattern: "**/Screenshots/**", path: "2024/Screenshots-old/s.png", covered: false),
    Row(pattern: "**/*.png", path: "a/b/c.png", covered: true),
    Row(pattern: "**/*.png", path: "a/b/c.jpg", covered: false),
    Row(pattern: "20??/tmp*/", path: "2024/tmp-import/x.jpg", covered: true),
    Row(pattern: "20??/tmp*/", path: "2024/import/x.jpg", covered: false),
    Row(pattern: "Caméra/", path: "Caméra/x.jpg", covered: true),
    Row(pattern: "?améra/", path: "Caméra/x.jpg", covered: true),
  ]

  @Test(arguments: rows)
  func row(_ row: Row) throws {
    let ignored = try IgnoredPaths([row.pattern])
    #expect(ignored.covers(relative: row.path) == row.covered)
    #expect(ignored.covers(path: "/lib/" + row.path, root: "/lib") == row.covered)
    #expect(!ignored.covers(path: "/elsewhere/" + row.path, root: "/lib"))
  }

  @Test func theWalkAsksOfEachEntryAlone() throws {
    let ignored = try IgnoredPaths(["WhatsApp/", "**/*.png"])
    #expect(ignored.matches(relative: "WhatsApp", isFolder: true))
    #expect(!ignored.matches(relative: "WhatsApp", isFolder: false))
    #expect(ignored.matches(relative: "x/y.png", isFolder: false))
    #expect(!ignored.matches(relative: "x", isFolder: true))
  }

  @Test func aPatternThatCouldReachOutsideItsRootIsAConfigurationError() throws {
    #expect(throws: IgnoredPathError.self) { try IgnoredPaths(["../Other/"]) }
    let folder = TemporaryDirectory()
    var env = folder.isolatedEnvironment()
    env["CAIRN_IGNORE_PATHS"] = "WhatsApp/:a/../b"
    let config = try Configuration.load(environment: env, workingDirectory: folder.path)
    let error = #expect(throws: CairnError.self) { try ReconciliationSettings(config) }
    #expect(error?.status == .configuration)
    env["CAIRN_IGNORE_PATHS"] = "WhatsApp/::**/Screenshots/**"
    let good = try Configuration.load(environment: env, workingDirectory: folder.path)
    #expect(
      try ReconciliationSettings(good).ignoredPaths.patterns == ["WhatsApp/", "**/Screenshots/**"])
  }

  /// Two photos last seen at `/lib/a.jpg` and `/lib/WhatsApp/w.jpg`, both absent from the scan.
  static func gone(settings: [String], scanned: [String]) throws -> [String] {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var observed: [String: ObservedEntry] = [:]
    for (checksum, path) in [("A", "/lib/a.jpg"), ("W", "/lib/WhatsApp/w.jpg")] {
      observed[checksum] = ObservedEntry(
        checksum: checksum, roots: ["/lib"], paths: [path], firstSeen: now, lastSeen: now)
    }
    var root = RootStatus(path: "/lib", complete: true, files: 3)
    root.ignored = scanned
    var reconciliation = ReconciliationSettings()
    reconciliation.ignoredPaths = try IgnoredPaths(settings)
    let assets = ["A", "W"].map {
      AssetRecord(
        id: $0.lowercased(), checksum: $0, originalFileName: "\($0).jpg", assetType: "IMAGE",
        visibility: "timeline", ownerId: "u")
    }
    let input = ReconciliationInput(
      scan: PlainScan([]), roots: [root], observed: observed, assets: PlainListing(assets),
      settings: reconciliation, now: now)
    let output = try ReconciliationEngine.reconcile(input)
    return output.candidates.map(\.checksum)
  }

  @Test func nothingLastSeenUnderAnIgnoredPathIsGone() throws {
    #expect(try Self.gone(settings: [], scanned: []) == ["A", "W"])
    // The judging stage's own setting, or the scan's word that it left the folder out.
    #expect(try Self.gone(settings: ["WhatsApp/"], scanned: []) == ["A"])
    #expect(try Self.gone(settings: [], scanned: ["WhatsApp/"]) == ["A"])
  }
}
