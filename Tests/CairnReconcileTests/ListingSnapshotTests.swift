import CairnRecords
import CairnSettings
import CairnStateTestSupport
import CairnStream
import CairnTestSupport
import Foundation
import Testing

@testable import CairnReconcile
@testable import CairnState

/// A listing read with the last one at hand passes over the lines it recognises; it must read
/// exactly what checking every line reads, and refuse exactly what checking refuses.
@Suite struct ListingSnapshotTests {
  private let me = "00000000-0000-4000-8000-00000000000a"
  private let partner = "00000000-0000-4000-8000-00000000000b"
  private func header(_ user: String) -> String {
    #"{"type":"header","schema":"1.0","tool":"cairn-fetch","roots":[],"server":{"url":"http://x/api","userId":"\#(user)","version":"2.7.0"}}"#
  }
  private let end = #"{"type":"end","tool":"cairn-fetch","complete":true,"errors":0}"#

  private func asset(_ index: Int, owner: String? = nil, trashed: Bool = false) -> String {
    let checksum = index % 13 == 0 ? #"c\/\#(index)"# : "c\(index)"  // some escaped
    return
      #"{"type":"asset","id":"a\#(index)","checksum":"\#(checksum)","isTrashed":\#(trashed),"ownerId":"\#(owner ?? me)","fileCreatedAt":"2026-01-01T00:00:00.000Z"}"#
  }

  /// The listing before: 200 assets, some trashed, some a partner's.
  private var before: [String] {
    (0..<200).map { asset($0, owner: $0 % 17 == 0 ? partner : nil, trashed: $0 % 5 == 0) }
  }

  /// Reads `lines` as a listing file in `state` (the partitions' home when `remember`).
  private func read(
    _ lines: [String], state: TemporaryDirectory, remember: Bool = true,
    user: String? = nil
  ) throws -> ListingInput {
    let path = try state.file(
      "listing.ndjson",
      StreamText.counted(([header(user ?? me)] + lines + [end]).joined(separator: "\n") + "\n"))
    let paths = CairnPaths(environment: [
      "HOME": state.path, "XDG_CACHE_HOME": state.path + "/cache",
    ])
    return try ListingInput.read(path: path, partitions: remember ? paths : nil)
  }

  private func summary(_ listing: ListingInput) throws -> [String] {
    try (0..<listing.assets.count).map { index in
      let record = try listing.assets.record(index)
      return "\(record.id) \(record.checksum) \(listing.assets.checksum(index)) "
        + "\(listing.assets.isTrashed(index)) \(record.ownerId)"
    }
  }

  @Test(arguments: ListingChange.allCases)
  func readsWhatCheckingEveryLineReads(_ change: ListingChange) throws {
    let state = TemporaryDirectory()
    let first = try read(before, state: state)
    #expect(first.recognised == 0)
    let after = change.apply(to: before, asset: asset)
    let path = try #require(snapshotPath(state, me))
    let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]
    let remembered = try read(after, state: state)
    let checked = try read(after, state: TemporaryDirectory(), remember: false)
    #expect(try summary(remembered) == summary(checked))
    #expect(remembered.recognised >= change.leastRecognised, "\(remembered.recognised)")
    // The snapshot now is what recording this listing afresh writes; left as it was, not
    // written again, when the listing did not change.
    let fresh = TemporaryDirectory()
    _ = try read(after, state: fresh)
    #expect(
      FileManager.default.contents(atPath: path)
        == FileManager.default.contents(atPath: try #require(snapshotPath(fresh, me))))
    let rewritten =
      try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
      != inode as? Int
    #expect(rewritten == (change != .none))
    // And the listing just read is the one remembered now.
    #expect(try read(after, state: state).recognised == after.count)
  }

  @Test func anotherUsersListingIsNotRecognised() throws {
    let state = TemporaryDirectory()
    _ = try read(before, state: state)
    // The same lines for another partition: its own state, nothing to recognise there; and a
    // snapshot made for one user is never read for another.
    let other = try read(before, state: state, user: partner)
    #expect(other.recognised == 0)
    #expect(
      ListingSnapshot.Stored.load(
        try #require(snapshotPath(state, me)), userId: partner) == nil)
  }

  @Test func aDamagedSnapshotIsIgnored() throws {
    let state = TemporaryDirectory()
    _ = try read(before, state: state)
    let path = try #require(snapshotPath(state, me))
    var bytes = try #require(FileManager.default.contents(atPath: path))
    for at in [0, bytes.count / 2, bytes.count - 1] {
      var damaged = bytes
      damaged[at] ^= 0x20
      #expect(ListingSnapshot.Stored(Array(damaged), userId: me) == nil, "byte \(at)")
    }
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: URL(fileURLWithPath: path))
    let again = try read(before, state: state)
    #expect(again.recognised == 0)
    #expect(again.assets.count == 200 - 12)
  }

  @Test func aMalformedLineIsRefusedAndLeavesNoSnapshot() throws {
    let state = TemporaryDirectory()
    _ = try read(before, state: state)
    let path = try #require(snapshotPath(state, me))
    let kept = try #require(FileManager.default.contents(atPath: path))
    let broken = before + [#"{"type":"asset","id":"x","checksum":7,"ownerId":"\#(me)"}"#]
    #expect(throws: CairnError.self) { try read(broken, state: state) }
    // The last good one stays, and no temporary file is left beside it.
    #expect(FileManager.default.contents(atPath: path) == kept)
    let folder = (path as NSString).deletingLastPathComponent
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy {
        !$0.contains(".tmp-")
      })
  }

  @Test func aLineThatMatchesAfterTheEndIsStillRefused() throws {
    let state = TemporaryDirectory()
    _ = try read(before, state: state)
    #expect(throws: CairnError.self) { try read(before + [end, before[3]], state: state) }
  }

  private func snapshotPath(_ state: TemporaryDirectory, _ user: String) -> String? {
    let root = state.path + "/cache/cairn/servers"
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return folders.first { $0.hasSuffix(user) }.map {
      root + "/" + $0 + "/" + ListingSnapshot.fileName
    }
  }
}

/// What happens on the server between two listings.
enum ListingChange: String, CaseIterable, CustomTestStringConvertible {
  case none, removed, added, trashed, reordered, shuffled

  var testDescription: String { rawValue }

  func apply(to lines: [String], asset: (Int, String?, Bool) -> String) -> [String] {
    switch self {
    case .none: return lines
    case .removed: return lines.enumerated().filter { $0.offset % 9 != 4 }.map(\.element)
    case .added: return lines + (200..<230).map { asset($0, nil, false) }
    case .trashed:
      return lines.enumerated().map { index, line in
        index % 7 == 1
          ? asset(index, index % 17 == 0 ? "00000000-0000-4000-8000-00000000000b" : nil, true)
          : line
      }
    case .reordered: return Array(lines[100...] + lines[..<100])
    case .shuffled:
      var generator = SplitMix(seed: 7)
      return lines.shuffled(using: &generator)
    }
  }

  var leastRecognised: Int {
    switch self {
    case .none: return 200
    case .removed: return 177
    case .added: return 200
    case .trashed: return 170
    case .reordered: return 136  // 64 misses before looking up by digest
    case .shuffled: return 100  // after 64 misses, found by digest
    }
  }
}
