import Foundation
import ImmichTestServer
import Testing

@Suite struct WireFormatTests {
  @Test func timestampsAreMillisecondISO8601InUTC() async throws {
    var world = World(.v3_1)
    // 2000-02-29, a leap day, with milliseconds.
    world.scenario.assets[0].fileCreatedAt = Date(timeIntervalSince1970: 951_782_400.123)
    try await world.run { _, client in
      let asset = try await client.get("/api/assets/\(world.oldest.id)", as: .key(world.aliceKey))
        .json
      #expect(asset?["fileCreatedAt"] == "2000-02-29T00:00:00.123Z")
    }
  }

  @Test func parserKeepsKeyOrderAndEscapes() {
    let parsed = ImmichJSON.parse(
      Array(#"{"b":1,"a":[true,null,"x\"\u00e9\n"],"c":{"d":-1.5e1}}"#.utf8))
    guard case .object(let pairs)? = parsed else {
      Issue.record("not parsed")
      return
    }
    #expect(pairs.map(\.0) == ["b", "a", "c"])
    #expect(parsed?["a"] == [true, .null, "x\"é\n"])
    #expect(parsed?["c"]?["d"] == .number(-15))
    #expect(ImmichJSON.parse(Array("{".utf8)) == nil)
    #expect(ImmichJSON.parse(Array("[1] x".utf8)) == nil)
  }
}
