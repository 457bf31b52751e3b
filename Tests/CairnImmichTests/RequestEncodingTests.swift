import CairnImmich
import CairnSupport
import Foundation
import ImmichTestServer
import Testing

/// Two mistakes a real Immich punishes and a lenient double would forgive (docs/IMMICH-API.md §8.4,
/// §12): a JSON body sent without `Content-Type: application/json` — v2.7.5 then runs a search
/// without its filters and answers with the first page of the timeline — and an upper-case
/// uuid, which fails every all-or-nothing access check. Every client call that sends a body or
/// an id is driven here against the double, which answers them as Immich does.
@Suite struct RequestEncodingTests {
  /// Runs every call of the client that carries a body, as Alice, with ids in upper case.
  func exerciseEveryBodyCall(_ h: Harness, _ library: Library) async throws {
    let connection = try await h.connect()
    let client = connection.client
    let shout = { (id: String) in id.uppercased() }

    // The checksum must select one asset, not the timeline's first page.
    let found = try await client.searchMetadata(
      MetadataQuery(checksum: library.timeline.checksum, page: 1, size: 1000))
    #expect(found.items.map(\.id) == [library.timeline.id])
    let byId = try await client.searchMetadata(
      MetadataQuery(visibility: .archive, id: shout(library.archived.id)))
    #expect(byId.items.map(\.id) == [library.archived.id])
    #expect(try await client.searchStatistics(MetadataQuery(visibility: .archive)) == 1)
    let check = try await client.uploadCheck([(id: "a.jpg", checksum: library.timeline.checksum)])
    #expect(check.first?.action == "reject")

    let tag = try #require(try await client.upsertTags(["cairn/encoding"]).first)
    #expect(
      try await client.tagAssets(tagIds: [shout(tag.id)], assetIds: [shout(library.timeline.id)])
        == 1)
    let added = try await client.addAssets([shout(library.archived.id)], toTag: shout(tag.id))
    #expect(added.map(\.success) == [true])
    #expect(try await client.tag(id: shout(tag.id)).id == tag.id)
    #expect(try await client.asset(id: shout(library.timeline.id)).id == library.timeline.id)

    try await client.trash(assetIds: [shout(library.timeline.id)])
    #expect(h.server.state.asset(library.timeline.id)?.isTrashed == true)
    #expect(try await client.restore(assetIds: [shout(library.timeline.id)]) == 1)
    #expect(h.server.state.asset(library.timeline.id)?.isTrashed == false)

    let run = ImmichRunServer(client: client)
    try await run.trash(assetIDs: [shout(library.archived.id)])
    #expect(h.server.state.asset(library.archived.id)?.isTrashed == true)
    try await run.restore(assetIDs: [shout(library.archived.id)])
    try await run.untagAssets(tagID: shout(tag.id), assetIDs: [shout(library.archived.id)])
    #expect(h.server.state.tagIDs(onAsset: library.archived.id).isEmpty)

    let login = try await client.login(
      email: "alice@example.com", password: Secret(Library.alicePassword))
    let session = client.usingSession(login.accessToken)
    let assetsType = connection.version.major < 3 ? "AssetsV1" : "AssetsV2"
    var acks: [String] = []
    try await session.syncStream(types: [assetsType], reset: false) { line in
      if let ack = line.ack { acks.append(ack) }
    }
    try await session.sendSyncAcks(acks)
    try await session.deleteSyncAcks()
  }

  /// Every request that carried a body said it was JSON.
  @Test(arguments: ImmichVersion.both)
  func everyBodyIsSentAsJSON(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      try await exerciseEveryBodyCall(h, library)
      let withBody = h.server.log.all.filter { !$0.body.isEmpty }
      #expect(withBody.count >= 15)
      for request in withBody {
        let type = request.contentType?.split(separator: ";").first?.lowercased()
        #expect(type == "application/json", "\(request.method) \(request.path)")
        #expect(request.status.map { (200..<300).contains($0) } == true)
      }
    }
  }

  /// No uuid left the client in upper case, in a path or in a body.
  @Test(arguments: ImmichVersion.both)
  func everyIdIsSentLowerCase(version: ImmichVersion) async throws {
    let library = Library(version)
    try await withServer(library.scenario) { h in
      try await exerciseEveryBodyCall(h, library)
      let upperUUID = #/[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}/#
      for request in h.server.log.all {
        // Checksums are base64 and may hold capitals; uuids never should.
        #expect(request.path.firstMatch(of: upperUUID) == nil, "\(request.path)")
        #expect(request.body.firstMatch(of: upperUUID) == nil, "\(request.path): \(request.body)")
      }
    }
  }
}
