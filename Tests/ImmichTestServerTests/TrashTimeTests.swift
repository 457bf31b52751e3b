import Foundation
import ImmichTestServer
import Testing

/// When an asset went to the trash (docs/IMMICH-API.md §17): `DELETE /assets` sets `deletedAt`
/// to the server's clock, a restore clears it, a new trash sets it anew; the flat
/// `trashedAfter`/`trashedBefore` (every version) and 3.2's `filter.trashedAt` search by it.
@Suite struct TrashTimeTests {
  static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  func ids(_ reply: HTTPReply) -> Set<String> {
    Set(reply.json?["assets"]?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
  }

  /// Trashed, restored an hour later, trashed again: only the second trash time is kept, and a
  /// search by trash time tells it from the asset trashed before (the world's `trashed`).
  @Test(arguments: ImmichVersion.allCases)
  func aRestoreClearsTheTrashTimeAndATrashSetsItAnew(version: ImmichVersion) async throws {
    try await withWorld(version) { w, server, c in
      let key = Credential.key(w.aliceKey)
      let body: ImmichJSON = ["ids": [.string(w.newest.id)]]
      #expect(try await c.delete("/api/assets", body, as: key).status == 204)
      let first = try #require(server.state.asset(w.newest.id)?.deletedAt)
      server.state.advanceClock(by: 3600)
      #expect(try await c.post("/api/trash/restore/assets", body, as: key).status == 200)
      #expect(server.state.asset(w.newest.id)?.deletedAt == nil)
      let future = Self.iso(first.addingTimeInterval(86400))
      #expect(try await c.searchIds(["trashedBefore": .string(future)], as: key) == [w.trashed.id])

      #expect(try await c.delete("/api/assets", body, as: key).status == 204)
      let second = try #require(server.state.asset(w.newest.id)?.deletedAt)
      #expect(second >= first.addingTimeInterval(3600))
      let between = Self.iso(first.addingTimeInterval(1800))
      // Each date implies the trash; `after` is `>=`, `before` is `<=`.
      #expect(try await c.searchIds(["trashedAfter": .string(between)], as: key) == [w.newest.id])
      #expect(try await c.searchIds(["trashedBefore": .string(between)], as: key) == [w.trashed.id])
      let justAfter = Self.iso(second.addingTimeInterval(0.002))
      #expect(try await c.searchIds(["trashedAfter": .string(justAfter)], as: key).isEmpty)
      #expect(
        Set(try await c.searchIds(["trashedBefore": .string(justAfter)], as: key))
          == [w.trashed.id, w.newest.id])
      // The flat fields stay, deprecated, beside the tag and visibility a run asks with.
      let elsewhere = try await c.searchIds(
        ["trashedAfter": .string(between), "visibility": "archive"], as: key)
      #expect(elsewhere.isEmpty)
    }
  }

  /// 3.2's `trashedAt` leaf compares `deletedAt` with each operator; an active asset (null)
  /// matches no comparison.
  @Test(arguments: ImmichVersion.allCases.filter(\.hasStructuredSearch))
  func theStructuredTrashedAtComparesTheTrashTime(version: ImmichVersion) async throws {
    try await withWorld(version) { w, server, c in
      let key = Credential.key(w.aliceKey)
      let before = try #require(server.state.asset(w.trashed.id)?.deletedAt)
      server.state.advanceClock(by: 3600)
      let body: ImmichJSON = ["ids": [.string(w.newest.id)]]
      #expect(try await c.delete("/api/assets", body, as: key).status == 204)
      let between = ImmichJSON.string(Self.iso(before.addingTimeInterval(1800)))
      func search(_ leaf: ImmichJSON) async throws -> Set<String> {
        ids(try await c.post("/api/search/metadata", ["filter": ["trashedAt": leaf]], as: key))
      }
      #expect(try await search(["gte": between]) == [w.newest.id])
      #expect(try await search(["gt": between]) == [w.newest.id])
      #expect(try await search(["lt": between]) == [w.trashed.id])
      #expect(try await search(["lte": between]) == [w.trashed.id])
      #expect(try await search(["ne": .null]) == [w.trashed.id, w.newest.id])
      #expect(try await search(["gte": between, "ne": .null]) == [w.newest.id])
      let active = try await search(["eq": .null])
      #expect(!active.contains(w.newest.id) && !active.contains(w.trashed.id))
      #expect(active.contains(w.oldest.id))
    }
  }
}
