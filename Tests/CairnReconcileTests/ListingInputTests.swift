import CairnEngine
import CairnRecords
import CairnSettings
import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// `--server FILE`: the listing cairn-reconcile decides on.
@Suite struct ListingInputTests {
  private let me = "00000000-0000-4000-8000-00000000000a"
  private var header: String {
    #"{"type":"header","schema":"1.0","tool":"cairn-fetch","roots":[],"server":{"url":"http://x/api","userId":"\#(me)","version":"2.7.0"}}"#
  }
  private let end = #"{"type":"end","tool":"cairn-fetch","complete":true,"errors":0}"#

  private func asset(_ id: String, owner: String, checksum: String = "c", trashed: Bool = false)
    -> String
  {
    #"{"type":"asset","id":"\#(id)","checksum":"\#(checksum)","isTrashed":\#(trashed),"ownerId":"\#(owner)"}"#
  }

  private func read(_ lines: [String]) throws -> ListingInput {
    let folder = TemporaryDirectory()
    let path = try folder.file(
      "listing.ndjson", StreamText.counted(lines.joined(separator: "\n") + "\n"))
    return try withExtendedLifetime(folder) { try ListingInput.read(path: path) }
  }

  @Test func onlyTheUsersOwnAssetsAreKept() throws {
    let listing = try read([
      header,
      asset("mine", owner: me),
      asset("mine-upper", owner: me.uppercased()),
      asset("mine-escaped", owner: #"\u0030"# + me.dropFirst()),
      asset("partner", owner: "00000000-0000-4000-8000-00000000000b"),
      asset("trashed", owner: me, trashed: true),
      end,
    ])
    let ids = try (0..<listing.assets.count).map { try listing.assets.record($0).id }
    #expect(ids == ["mine", "mine-upper", "mine-escaped", "trashed"])
    let trashed = (0..<listing.assets.count).map(listing.assets.isTrashed)
    #expect(trashed == [false, false, false, true])
  }

  @Test func aMalformedAssetIsRefusedWithItsLine() throws {
    // A partner's asset too: the whole listing is checked, not only what is kept.
    for bad in [
      #"{"type":"asset","id":"x","checksum":7,"ownerId":"\#(me)"}"#,
      #"{"type":"asset","id":"x","checksum":"c","ownerId":"someone","fileCreatedAt":"soon"}"#,
      #"{"type":"asset","id":"x","checksum":"c"}"#,
    ] {
      #expect {
        try read([header, asset("ok", owner: me), bad, end])
      } throws: { error in
        let message = "\(error)"
        return message.contains("listing.ndjson:3:") && message.contains("invalid asset record")
      }
    }
  }

  @Test func aListingWithoutItsEndIsRefused() throws {
    #expect(throws: CairnError.self) { try read([header, asset("a", owner: me)]) }
  }

  /// A listing of every kind of asset line: escaped checksum, live photo, dates, trashed.
  private var assortedListing: [String] {
    [
      header,
      #"{"type":"asset","id":"a1","checksum":"AAAA","originalFileName":"IMG_1.jpg","assetType":"IMAGE","visibility":"timeline","livePhotoVideoId":"v1","isTrashed":false,"ownerId":"\#(me)","fileCreatedAt":"2026-01-02T03:04:05.000Z"}"#,
      #"{"type":"asset","id":"a2","checksum":"B\u0042BB","isTrashed":false,"ownerId":"\#(me)"}"#,
      asset("a3", owner: "00000000-0000-4000-8000-00000000000b", checksum: "partner"),
      asset("a4", owner: me, checksum: "DDDD", trashed: true),
      asset("a5", owner: me, checksum: "EEEE"),
      end,
    ]
  }

  private func everything(_ listing: ListingInput) throws -> [String] {
    try (0..<listing.assets.count).map { index in
      let record = try listing.assets.record(index)
      return "\(record) \(listing.assets.checksum(index)) \(listing.assets.isTrashed(index))"
    }
  }

  @Test func aListingFileIsReadAgainOnlyForTheRecordsAsked() throws {
    let folder = TemporaryDirectory()
    let path = try folder.file(
      "listing.ndjson", StreamText.counted(assortedListing.joined(separator: "\n") + "\n"))
    // Read as a pipe would be: every line kept.
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    let kept = try ListingInput.read(
      RecordStream(reader: RecordReader(fileDescriptor: fd, sourceName: "listing")))
    #expect(kept.assets.count == 4)
    // Read from the file (parsed, then recognised from the listing snapshot): the same.
    let paths = CairnPaths(environment: folder.isolatedEnvironment())
    for round in 0..<2 {
      let listing = try ListingInput.read(path: path, partitions: paths)
      #expect(listing.recognised == (round == 0 ? 0 : 5))
      #expect(try everything(listing) == everything(kept))
    }
  }

  @Test func aListingFileChangedAfterItWasReadIsNotTrusted() throws {
    let folder = TemporaryDirectory()
    let text = StreamText.counted(assortedListing.joined(separator: "\n") + "\n")
    let path = try folder.file("listing.ndjson", text)
    let rewrite = { (text: String) in
      // In place, as a shell's `>` does: the file read is the file changed.
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Array(text.utf8))
      try handle.close()
    }
    // Another asset's id where a5's was, the length unchanged.
    var listing = try ListingInput.read(path: path)
    try rewrite(text.replacingOccurrences(of: #""id":"a5""#, with: #""id":"a6""#))
    #expect(try listing.assets.record(0).id == "a1")  // unchanged bytes: still that line
    #expect {
      try listing.assets.record(3)
    } throws: { error in
      "\(error)".contains("\(path) changed while it was read: a line read from it is no longer")
    }
    // Cut short: the record, and a search of the lines for ids.
    try rewrite(text)
    listing = try ListingInput.read(path: path)
    try rewrite(String(text.prefix(text.count / 2)))
    #expect(throws: ListingReadBackError.self) { try listing.assets.record(3) }
    #expect {
      try listing.assets.indices(ofIds: ["a5"])
    } throws: { error in
      "\(error)".contains("changed while it was read: it ends before a line read from it")
    }

    // Reconciling with it records nothing and says why.
    let fixture = StoreFixture()  // kept: its folder goes when it does
    let store = try fixture.open()
    let roots = [RootStatus(path: "/lib", complete: true, files: 1)]
    try store.recordScan([file("/lib/e.jpg", "EEEE")], completeRoots: ["/lib"], at: t0)
    try store.recordScan([], completeRoots: ["/lib"], at: t0 + day)
    #expect {
      try store.reconcile(
        files: [], roots: roots, assets: listing.assets, settings: .defaults, now: t0 + day)
    } throws: { error in
      (error as? CairnError)?.status == .malformedInput
        && "\(error)".contains("changed while it was read")
    }
    #expect(try store.signals.missing().isEmpty)
    try rewrite(text)
    listing = try ListingInput.read(path: path)
    let output = try store.reconcile(
      files: [], roots: roots, assets: listing.assets, settings: .defaults, now: t0 + day)
    #expect(output.candidates.map(\.assetId) == ["a5"])
    #expect(try store.signals.missing().keys.sorted() == ["EEEE"])
  }
}
