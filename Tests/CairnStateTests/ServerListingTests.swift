import CairnCore
import CairnState
import CairnTestSupport
import Foundation
import Testing

/// `--server FILE`: the listing cairn-reconcile decides on.
@Suite struct ServerListingTests {
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

  private func read(_ lines: [String]) throws -> ServerListing {
    let folder = TemporaryDirectory()
    let path = try folder.file("listing.ndjson", lines.joined(separator: "\n") + "\n")
    return try withExtendedLifetime(folder) { try ServerListing.read(path: path) }
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
    let ids = (0..<listing.assets.count).map { listing.assets.record($0).id }
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
}
