import CairnImmich
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `AlbumMembership.read` (docs/IMMICH-API.md §16): every album Alice is in, her own and those
/// shared with her, searched whatever `assetCount` it reports.
@Suite struct AlbumMembershipTests {
  /// Immich counts neither hidden nor trashed assets, so an album holding only a Live Photo's
  /// motion video reports `assetCount: 0`; its video is still protected, on every version
  /// (before 3.0 it is found only by asking for `hidden`).
  @Test(arguments: ImmichVersion.allCases)
  func anAlbumThatCountsNothingIsStillSearched(version: ImmichVersion) async throws {
    var library = Library(version)
    let carol = Scenario.User(email: "carol-friend@example.com")
    library.scenario.users.append(carol)
    library.scenario.addAlbum(owner: library.alice, name: "Motion", assets: [library.liveVideo])
    library.scenario.addAlbum(
      owner: carol, name: "Shared", assets: [library.archived],
      sharedWith: [(library.alice, .viewer)])
    library.scenario.addAlbum(owner: library.bob, name: "Not shared", assets: [library.timeline])
    try await withServer(library.scenario) { h in
      let connection = try await h.connect()
      let albums = try await connection.client.albums()
      #expect(Set(albums.map(\.albumName)) == ["Motion", "Shared"])
      let counts = h.server.log.all.filter { $0.path == "/api/albums" }.count
      #expect(counts == 2)
      let membership = try await AlbumMembership.read(connection.client)
      #expect(membership == .known([library.liveVideo.id, library.archived.id]))
    }
  }
}
