import Foundation
import ImmichTestServer
import Testing

/// `GET /api/assets/:id/thumbnail` (docs/IMMICH-API.md §13; `asset-media.service.ts` `viewThumbnail`):
/// real JPEG bytes made from the asset's own pixels, `asset.view`, and the real errors.
struct ThumbnailTests {
  /// Width and height from a baseline JPEG's SOF0 segment, or nil when it is not one.
  static func jpegSize(_ bytes: [UInt8]) -> [Int]? {
    guard bytes.starts(with: [0xFF, 0xD8]), bytes.suffix(2) == [0xFF, 0xD9] else { return nil }
    var at = 2
    while at + 9 < bytes.count, bytes[at] == 0xFF {
      let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      if bytes[at + 1] == 0xC0 {
        return [
          Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]),
          Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]),
        ]
      }
      at += 2 + length
    }
    return nil
  }

  @Test(arguments: [ImmichVersion.v3_1, .v2_7])
  func servesAJPEGOfTheAssetsOwnImage(version: ImmichVersion) async throws {
    var scenario = Scenario(version: version)
    let (me, key) = scenario.addUser(email: "me@example.com")
    var pixels: [UInt8] = []
    for y in 0..<8 {
      for x in 0..<260 { pixels += [UInt8(x % 256), UInt8(y * 30), 200] }
    }
    let big = scenario.addAsset(owner: me, fileName: "big.png")
    scenario.assets[scenario.assets.count - 1].image = AssetImage(
      width: 260, height: 8, rgb: pixels)
    let drawn = scenario.addAsset(owner: me, fileName: "drawn.jpg")
    try await ImmichTestServer.withRunning(scenario) { _, url in
      let client = TestClient(base: url)
      let thumbnail = try await client.get(
        "/api/assets/\(big.id)/thumbnail", as: .key(key.secret))
      #expect(thumbnail.status == 200)
      #expect(thumbnail.header("content-type") == "image/jpeg")
      #expect(Self.jpegSize(thumbnail.body) == [250, 7])
      let preview = try await client.get(
        "/api/assets/\(big.id)/thumbnail?size=preview", as: .key(key.secret))
      #expect(Self.jpegSize(preview.body) == [260, 8])
      let other = try await client.get("/api/assets/\(drawn.id)/thumbnail", as: .key(key.secret))
      #expect(Self.jpegSize(other.body) == [48, 36])
      #expect(other.body != thumbnail.body)
    }
  }

  @Test(arguments: [ImmichVersion.v3_1, .v2_7])
  func accessAndErrorsAreTheRealServers(version: ImmichVersion) async throws {
    try await withWorld(version) { w, _, c in
      func status(_ id: String, _ key: String? = nil, query: String = "") async throws -> Int {
        try await c.get("/api/assets/\(id)/thumbnail\(query)", as: .key(key ?? w.aliceKey)).status
      }
      #expect(try await status(w.newest.id) == 200)
      #expect(try await status(w.trashed.id) == 200)  // the trash shows thumbnails too
      #expect(try await status(w.bobs.id) == 200)  // a partner's
      #expect(try await status(w.daves.id) == 400)  // a stranger's
      #expect(try await status(w.locked.id) == 400)
      #expect(try await status(UUID().uuidString.lowercased()) == 400)
      #expect(try await status(w.liveVideo.id) == 404)  // hidden: the job skipped it
      #expect(try await status("not-a-uuid") == 400)
      #expect(try await status(w.newest.id, query: "?size=huge") == 400)
      let bare = try await c.get("/api/assets/\(w.newest.id)/thumbnail", as: .key(w.bareKey))
      #expect(bare.status == 403)
      #expect(bare.text.contains("Missing required permission: asset.view"))
      let unknown = try await c.get(
        "/api/assets/\(UUID().uuidString.lowercased())/thumbnail", as: .key(w.aliceKey))
      #expect(unknown.text.contains("Not found or no asset.view access"))
      let video = try await c.get("/api/assets/\(w.liveVideo.id)/thumbnail", as: .key(w.aliceKey))
      #expect(video.text.contains("Asset media not found"))
      // v3 validates `edited`; v2.7 has no such parameter and strips it.
      #expect(
        try await status(w.newest.id, query: "?edited=maybe") == (version != .v2_7 ? 400 : 200))
    }
  }

  /// The thumbnail job makes a frame of every video it does not skip: a timeline or archived
  /// video has a thumbnail; a hidden one (a Live Photo's motion video), audio and other
  /// assets have none (`media.service.ts` `handleGenerateThumbnails`).
  @Test(arguments: ImmichVersion.allCases)
  func aVideoHasAFrameUnlessHidden(version: ImmichVersion) async throws {
    var scenario = Scenario(version: version)
    let (me, key) = scenario.addUser(email: "me@example.com")
    let clip = scenario.addAsset(owner: me, fileName: "CLIP.MP4", type: .video)
    let archived = scenario.addAsset(
      owner: me, fileName: "OLD.MOV", type: .video, visibility: .archive)
    let hidden = scenario.addAsset(
      owner: me, fileName: "MOTION.MOV", type: .video, visibility: .hidden)
    let audio = scenario.addAsset(owner: me, fileName: "NOTE.M4A", type: .audio)
    try await ImmichTestServer.withRunning(scenario) { _, url in
      let client = TestClient(base: url)
      for video in [clip, archived] {
        let frame = try await client.get("/api/assets/\(video.id)/thumbnail", as: .key(key.secret))
        #expect(frame.status == 200)
        #expect(frame.header("content-type") == "image/jpeg")
        #expect(Self.jpegSize(frame.body) == [48, 36])
      }
      for none in [hidden, audio] {
        let reply = try await client.get("/api/assets/\(none.id)/thumbnail", as: .key(key.secret))
        #expect(reply.status == 404)
        #expect(reply.text.contains("Asset media not found"))
      }
    }
  }

  @Test func scenarioFilesCarryTheImage() throws {
    var scenario = Scenario()
    let (me, _) = scenario.addUser(email: "me@example.com")
    _ = scenario.addAsset(owner: me, fileName: "a.png")
    scenario.assets[0].image = AssetImage(width: 2, height: 1, rgb: [1, 2, 3, 4, 5, 6])
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "thumbnail-scenario-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try scenario.write(to: file)
    #expect(try String(contentsOf: file, encoding: .utf8).contains("\"rgb\" : \"AQIDBAUG\""))
    #expect(try Scenario.load(from: file).assets[0].image == scenario.assets[0].image)
  }
}
