import CairnEngine
import CairnJSON
import CairnRecords
import CairnSealedFiles
import CairnSettings
import CairnStateTestSupport
import CairnSupport
import CairnTestSupport
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// The lookups of the server's checksums in the scan, carried over from the last run's
/// (`PresenceCache`), must be exactly the lookups made afresh, and are refused whenever the
/// last run's were made for another listing or another scan.
@Suite struct PresenceCacheTests {
  /// A random history of a library and a listing of its checksums and others; after every
  /// recording, the lookups carried over from the last step's equal the lookups made.
  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func carriedOverLookupsAreTheLookupsMadeAfresh(seed: UInt64) throws {
    var random = SplitMix(seed: seed)
    var library = RandomLibrary()
    let fixture = StoreFixture()
    let store = try fixture.open()
    var cache: PresenceCache?
    var listing = Self.listing(&random)
    var carried = 0
    var decided = 0
    var sighted = 0
    let steps = 60
    for step in 0..<steps {
      let now = t0 + Double(step) * 3_600
      library.change(&random)
      let roll = random.below(12)
      if roll == 0 { listing = Self.listing(&random) }  // another listing
      if roll == 1 { try store.observed.importChecksums(["I\(step)"], at: now) }
      if roll == 2 && step % 3 == 0 { try store.observed.reset() }
      let complete: Set<String> = roll == 3 ? ["/a"] : ["/a", "/b"]
      let files = library.scan(&random)
      var read = ScanFiles(files)
      var preloaded: ScanSnapshotPreload?
      if step % 2 == 0,
        let (inPlace, snapshot) = fixture.readInPlace(files)
      {
        read = inPlace
        preloaded = snapshot
      }
      try store.recordScan(read, completeRoots: complete, at: now, preloaded: preloaded)
      let recorded = try #require(store.lastRecording)

      let assets = ServerAssets(listing)
      let key = ListingKey(assets)
      let hashes = (0..<assets.count).map { assets.withChecksum($0, ByteHashFilter.hash) }
      let made = ScanLookup(files: read, assets: assets)
      let matches = cache.map { $0.listing == key && $0.scan == recorded.previous } ?? false
      let lookup = cache?.carriedOver(
        files: read, assets: assets, listing: key, hashes: hashes, recorded: recorded)
      #expect((lookup != nil) == matches, "step \(step)")
      if let lookup {
        carried += 1
        #expect(lookup.isCarriedOver)
        #expect(lookup.assetIsPresent == made.assetIsPresent, "step \(step)")
        for checksum in Self.checksums + ["I\(step)"] {
          #expect(lookup.contains(checksum) == made.contains(checksum), "step \(step) \(checksum)")
        }
      }
      let (someDecided, someSighted) = try expectSameDecisions(
        store, files: read, readings: [lookup ?? made, made, PlainScan(files)], listing: listing,
        complete: complete, now: now, "step \(step)")
      decided += someDecided
      sighted += someSighted
      // What the next step reads, through its file.
      cache = try recorded.written.flatMap { written in
        let path = fixture.directory.path + "/presence-\(step)"
        try PresenceCache(scan: written, listing: key, present: made.assetIsPresent)
          .write(to: path)
        return PresenceCache.load(path)
      }
    }
    // Most steps must have carried lookups over, and some found candidates, or this test
    // proves nothing.
    #expect(carried > steps / 3)
    #expect(decided > steps / 10)
    #expect(sighted > 0)
  }

  /// The engine decides the same on every reading of the scan (`readings`) and of the
  /// listing: the fast ones (the lookups, the listing's lines kept by `ServerAssets`) and the
  /// plain reference ones (`PlainScan`, `PlainListing`).
  private func expectSameDecisions(
    _ store: PartitionStore, files: ScanFiles, readings: [any ScanContents],
    listing: [AssetRecord], complete: Set<String>, now: Date, _ step: String
  ) throws -> (decided: Int, sighted: Int) {
    var lines = ServerAssets()
    for record in listing { try lines.append(JSONObject(parsing: record.jsonBytes())) }
    let roots = ["/a", "/b"].map { root in
      RootStatus(
        path: root, complete: complete.contains(root),
        files: files.filter { $0.root == root }.count)
    }
    var input = try store.reconciliationInput(
      files: files, roots: roots, assets: PlainListing(listing), settings: .defaults, now: now)
    // Files the watcher saw and never hashed, of every name the listing may hold and one it
    // never does: found by name in the lines as in the records.
    input.unhashed = (Self.checksums + ["none"]).enumerated().map { key, checksum in
      let root = key % 2 == 0 ? "/a" : "/b"
      return UnhashedSighting(
        key: Int64(key), root: root, path: "\(root)/seen/\(checksum).jpg", name: "\(checksum).jpg",
        seenAt: now - 60)
    }
    let reference = try ReconciliationEngine.reconcile(input)
    for (index, scan) in readings.enumerated() {
      for assets in [lines, PlainListing(listing)] as [any AssetListing] {
        input.scan = scan
        input.assets = assets
        let output = try ReconciliationEngine.reconcile(input)
        #expect(output.candidates == reference.candidates, "\(step), reading \(index)")
        #expect(output.gone == reference.gone, "\(step), reading \(index)")
        #expect(output.summary == reference.summary, "\(step), reading \(index)")
        #expect(output.sightedAssets == reference.sightedAssets, "\(step), reading \(index)")
        #expect(output.forgottenSightings == reference.forgottenSightings, "\(step)")
      }
    }
    return (
      reference.candidates.isEmpty ? 0 : 1, reference.sightedAssets.isEmpty ? 0 : 1
    )
  }

  @Test func theFileReadsBackAndRefusesWhatItDidNotWrite() throws {
    let folder = TemporaryDirectory()
    let path = CairnPaths.listingPresence(inPartitionCacheFolder: folder.path)
    let assets = ServerAssets(
      (0..<20).map { asset("C\($0)") })
    let key = ListingKey(assets)
    let present = (0..<20).map { $0 % 3 == 0 }
    let scan = ScanSnapshotStore.FileKey(length: 1234, digest: 0xFEED)
    try PresenceCache(scan: scan, listing: key, present: present).write(to: path)
    let loaded = try #require(PresenceCache.load(path))
    #expect(loaded.scan == scan && loaded.listing == key && loaded.present == present)

    let bytes = try #require(FileManager.default.contents(atPath: path))
    for at in [0, 30, bytes.count / 2, bytes.count - 9, bytes.count - 1] {
      var damaged = bytes
      damaged[at] ^= 0x10
      try damaged.write(to: URL(fileURLWithPath: path))
      #expect(PresenceCache.load(path) == nil, "byte \(at)")
    }
    try bytes.prefix(bytes.count - 1).write(to: URL(fileURLWithPath: path))
    #expect(PresenceCache.load(path) == nil)
    unlink(path)
    #expect(PresenceCache.load(path) == nil)
  }

  @Test func anotherListingHasAnotherKey() {
    let base = (0..<10).map { asset("C\($0)") }
    let key = ListingKey(ServerAssets(base))
    #expect(ListingKey(ServerAssets(base)) == key)
    var reordered = base
    reordered.swapAt(2, 7)
    var renamed = base
    renamed[4] = asset("C4", id: "other")  // the same checksums: the same key
    #expect(ListingKey(ServerAssets(reordered)) != key)
    #expect(ListingKey(ServerAssets(Array(base.dropLast()))) != key)
    #expect(ListingKey(ServerAssets(base + [asset("C0")])) != key)
    #expect(ListingKey(ServerAssets(renamed)) == key)
    #expect(!ListingKey(ServerAssets(base + [asset("caf\u{E9}")])).isASCII)
  }

  /// Every checksum the random library can hold (edits make E1, E2, …, gone once the file is
  /// edited again), and some it cannot.
  private static let checksums =
    (0..<12).map { "C\($0)" } + (1...12).map { "E\($0)" } + ["X1", "X2"]

  /// Some of the library's checksums (a few twice) and some never local, in random order.
  private static func listing(_ random: inout SplitMix) -> [AssetRecord] {
    var records = checksums.filter { _ in random.below(4) != 0 }.map { asset($0) }
    if let first = records.first, random.below(2) == 0 { records.append(asset(first.checksum)) }
    for index in records.indices.reversed() {
      records.swapAt(index, random.below(index + 1))
    }
    return records
  }
}

private func asset(_ checksum: String, id: String? = nil) -> AssetRecord {
  AssetRecord(
    id: id ?? "id-\(checksum)", checksum: checksum, originalFileName: "\(checksum).jpg",
    assetType: "IMAGE", visibility: "timeline", ownerId: "U-1")
}
