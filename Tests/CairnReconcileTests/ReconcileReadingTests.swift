import CairnRecords
import CairnSettings
import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// The plain reading (every line parsed, every lookup made) and digest recognition read the
/// same scan, the same listing and the same lookups, run after run.
@Suite struct ReconcileReadingTests {
  private let me = "00000000-0000-4000-8000-00000000000a"

  private var listing: [String] {
    [
      #"{"type":"header","schema":"1.0","tool":"cairn-fetch","roots":[],"server":{"url":"http://x/api","userId":"\#(me)","version":"2.7.0"}}"#
    ]
      + (0..<40).map { index in
        #"{"type":"asset","id":"a\#(index)","checksum":"C\#(index * 2)","isTrashed":\#(index % 7 == 0),"ownerId":"\#(me)"}"#
      } + [#"{"type":"end","tool":"cairn-fetch","complete":true,"errors":0}"#]
  }

  private func scan(without gone: Set<Int>) -> String {
    let files = (0..<50).filter { !gone.contains($0) }.map { index in
      #"{"type":"file","path":"/lib/\#(String(format: "%03d", index)).jpg","root":"/lib","size":1,"mtime":"2026-01-01T00:00:00Z","checksum":"C\#(index)","dev":1,"ino":\#(index + 1)}"#
    }
    return StreamText.counted(
      ([#"{"type":"header","schema":"1.0","tool":"cairn-hash","roots":["/lib"]}"#] + files
        + [#"{"type":"end","tool":"cairn-hash","complete":true,"errors":0}"#])
        .joined(separator: "\n") + "\n")
  }

  /// One run: the scan read and recorded, the listing read, the lookups taken.
  private func run(
    _ recognition: LineRecognition, scan text: String, folder: TemporaryDirectory,
    paths: CairnPaths, listingPath: String
  ) throws -> (
    files: [ScannedFile], assets: [AssetRecord], present: [Bool], recognised: Int, carried: Bool
  ) {
    let reading = ReconcileReading(
      listing: .file(listingPath), paths: paths, recognition: recognition)
    let scanPath = try folder.file("scan.ndjson", text)
    let scan = try reading.readScan(RecordStream(reader: RecordReader(path: scanPath)))
    let store = try PartitionStore.open(try reading.server().partition, paths: paths)
    defer { store.close() }
    try store.recordScan(
      scan.files, completeRoots: scan.completeRoots, at: Date(), preloaded: reading.lastScan())
    let listing = try reading.readServerListing()
    let (lookup, key) = try reading.lookUpServerChecksums(in: store)
    reading.keepLookups(lookup, listing: key, in: store)
    let assets = try (0..<listing.assets.count).map { try listing.assets.record($0) }
    return (
      Array(scan.files), assets, lookup.presence(of: listing.assets),
      scan.recognised + listing.recognised, lookup.isCarriedOver
    )
  }

  @Test func bothReadingsReadTheSame() throws {
    let folder = TemporaryDirectory()
    let listingPath = try folder.file(
      "listing.ndjson", StreamText.counted(listing.joined(separator: "\n") + "\n"))
    let plainPaths = CairnPaths(environment: folder.isolatedEnvironment())
    let fastFolder = TemporaryDirectory()
    let fastPaths = CairnPaths(environment: fastFolder.isolatedEnvironment())
    var recognised = 0
    for gone in [[], [3, 4], [3, 4, 10]] as [Set<Int>] {
      let text = scan(without: gone)
      let plain = try run(
        .parseEveryLine, scan: text, folder: folder, paths: plainPaths, listingPath: listingPath)
      let fast = try run(
        .byDigest, scan: text, folder: fastFolder, paths: fastPaths, listingPath: listingPath)
      #expect(plain.recognised == 0)
      #expect(fast.files == plain.files)
      #expect(fast.assets == plain.assets)
      #expect(fast.present == plain.present)
      let expected = plain.assets.map { asset in
        Int(asset.checksum.dropFirst()).map { $0 < 50 && !gone.contains($0) } ?? false
      }
      #expect(plain.present == expected)
      recognised += fast.recognised
    }
    // The second and third runs recognised lines, or this test compares nothing.
    #expect(recognised > 80)
  }

  /// The lookups are kept in the partition's cache folder. Lookups an older cairn kept in the
  /// state folder are never read from there, and go: a run with wrong ones there reads what
  /// the plain reading reads, and the next run carries over the ones it kept.
  @Test func lookupsLeftInTheStateFolderAreIgnoredAndRemoved() throws {
    let folder = TemporaryDirectory()
    let listingPath = try folder.file(
      "listing.ndjson", StreamText.counted(listing.joined(separator: "\n") + "\n"))
    let paths = CairnPaths(environment: folder.isolatedEnvironment())
    let plainFolder = TemporaryDirectory()
    let plainPaths = CairnPaths(environment: plainFolder.isolatedEnvironment())
    let partition = try ListingInput.identity(serverFile: listingPath).partition
    let kept = CairnPaths.listingPresence(
      inPartitionCacheFolder: paths.partitionCacheDirectory(partition))
    let former = CairnPaths.formerListingPresence(
      inPartitionFolder: paths.partitionDirectory(partition))
    let text = scan(without: [3, 4])
    _ = try run(.byDigest, scan: text, folder: folder, paths: paths, listingPath: listingPath)
    let lookups = try #require(PresenceCache.load(kept))
    // The same lookups with every answer turned, where an older cairn kept them: carried over,
    // they would be wrong.
    _ = try PresenceCache(
      scan: lookups.scan, listing: lookups.listing, present: lookups.present.map { !$0 }
    ).write(to: former)
    unlink(kept)

    let plain = try run(
      .parseEveryLine, scan: text, folder: plainFolder, paths: plainPaths, listingPath: listingPath)
    let second = try run(
      .byDigest, scan: text, folder: folder, paths: paths, listingPath: listingPath)
    let (secondPresent, secondCarried) = (second.present, second.carried)
    #expect(!secondCarried)
    #expect(secondPresent == plain.present)
    #expect(!FileManager.default.fileExists(atPath: former))
    #expect(PresenceCache.load(kept) != nil)
    let third = try run(
      .byDigest, scan: text, folder: folder, paths: paths, listingPath: listingPath)
    let (thirdPresent, thirdCarried) = (third.present, third.carried)
    #expect(thirdCarried, "the lookups kept in the cache folder are carried over")
    #expect(thirdPresent == plain.present)
  }
}
