import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Album protection through the built binaries against the double: the photo filed in an
/// album the way the web app files it (`POST /api/albums`, `PUT /api/albums/:id/assets`)
/// waits for review (`pending`, `in-album`) when deleted locally, the one beside it that no
/// album holds is trashed, and approving the album photo trashes it. With a key lacking
/// `album.read`, protection is off: nothing waits, the run says so once, and
/// `cairn-fetch check` names the missing permission. An album another user shares with the
/// person protects the photo they filed there in the same way.
@Suite(.serialized)
struct AlbumProtectionPipelineTests {
  static let names = ["filed.jpg", "loose.jpg", "a.jpg", "b.jpg", "c.jpg", "d.jpg"]
  static let narrowSecret = "cairn-e2e-NOALBUM-5b2c8d71e0f9"
  static let friendSecret = "cairn-e2e-FRIEND-9d4e1a7c3b62"

  static func bytes(_ name: String) -> [UInt8] { Array("cairn album bytes of \(name)\n".utf8) }

  /// One request to the double as the web app would send it, with the full key (mine unless
  /// `key` says whose).
  static func send(
    _ method: String, _ url: String, _ body: String, key: String = ActFixture.secret
  ) async throws -> String {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(key, forHTTPHeaderField: "x-api-key")
    request.httpBody = Data(body.utf8)
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    #expect((200..<300).contains(status), "\(method) \(url): \(status)")
    return String(decoding: data, as: UTF8.self)
  }

  struct World {
    let dir: TemporaryDirectory
    let server: ImmichTestServer
    let base: String
    let ids: [String: String]
    var library: String { dir.path + "/Photos" }

    func pipeline(key: String, gate: String = "") async throws -> ToolResult {
      let env = dir.isolatedEnvironment(["IMMICH_URL": base, "IMMICH_API_KEY": key])
      let script =
        "cairn-hash '\(library)' | cairn-reconcile | cairn-gate \(gate) | setsid cairn-trash --yes"
      let directory = dir.path
      return try await ActFixture.offPool {
        try ToolRunner.shell(script, environment: env, workingDirectory: directory)
      }
    }

    func trashed(_ name: String) -> Bool { server.state.asset(ids[name] ?? "")?.isTrashed ?? false }
  }

  /// A library of six photos on the server, `filed.jpg` put into an album over HTTP: one of
  /// mine, or with `sharedByFriend` one a friend made and shared with me as an editor.
  static func world(_ version: ImmichVersion, sharedByFriend: Bool = false) async throws
    -> World
  {
    let dir = TemporaryDirectory("cairn-album")
    for name in names { try dir.file("Photos/\(name)", contents: bytes(name)) }
    var scenario = Scenario(version: version)
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    let (friend, _) = scenario.addUser(email: "friend@example.com", keySecret: friendSecret)
    scenario.addAsset(owner: friend, fileName: "friends.jpg")
    scenario.addKey(
      for: me, name: "no albums", secret: narrowSecret, permissions: Permission.cairnNeeds)
    var ids: [String: String] = [:]
    for name in names {
      // The album photo is archived: before 3.0 a search must name that visibility.
      ids[name] =
        scenario.addAsset(
          owner: me, fileName: name, visibility: name == "filed.jpg" ? .archive : .timeline,
          checksum: Scenario.checksum(of: bytes(name))
        ).id
    }
    let server = ImmichTestServer(scenario: scenario)
    let base = try await server.start().absoluteString + "/api"
    let created =
      sharedByFriend
      ? try await send(
        "POST", base + "/albums",
        #"{"albumName":"Trip","albumUsers":[{"userId":"\#(me.id)","role":"editor"}]}"#,
        key: friendSecret)
      : try await send("POST", base + "/albums", #"{"albumName":"Summer"}"#)
    let albumId = try #require(
      created.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first.map(String.init))
    let added = try await send(
      "PUT", base + "/albums/\(albumId)/assets", #"{"ids":["\#(ids["filed.jpg"] ?? "")"]}"#)
    #expect(added.contains(#""success":true"#), "\(added)")
    return World(dir: dir, server: server, base: base, ids: ids)
  }

  @Test(arguments: [ImmichVersion.v2_7, .v3_1, .v3_2, .v3_3])
  func anAlbumPhotoWaitsAndAnApprovalTrashesIt(_ version: ImmichVersion) async throws {
    let w = try await Self.world(version)
    defer { Task { await w.server.stop() } }
    let seed = try await w.pipeline(key: ActFixture.secret)
    #expect(seed.status == 0, "\(seed.stderr)")
    for name in ["filed.jpg", "loose.jpg"] {
      try FileManager.default.removeItem(atPath: w.library + "/" + name)
    }
    // The first run with something to trash is a dry run; the second trashes.
    let dry = try await w.pipeline(key: ActFixture.secret)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("in an album on Immich"), "\(dry.stderr)")
    let real = try await w.pipeline(key: ActFixture.secret)
    #expect(real.status == 0, "\(real.stderr)")
    #expect(w.trashed("loose.jpg"))
    #expect(!w.trashed("filed.jpg"))
    #expect(!real.stderr.contains("album.read"))

    let approved = try await w.pipeline(
      key: ActFixture.secret, gate: "--approve \(w.ids["filed.jpg"] ?? "")")
    #expect(approved.status == 0, "\(approved.stderr)")
    #expect(w.trashed("filed.jpg"))
    #expect(!w.trashed("a.jpg"))
  }

  /// The album is the friend's: mine lists it only as shared with me (`shared=true` before
  /// 3.0, in the unfiltered answer and `isShared=true` from 3.0), and the photo I filed there
  /// waits for review like one in my own album.
  @Test(arguments: [ImmichVersion.v2_7, .v3_1, .v3_2, .v3_3])
  func anAlbumSharedWithMeProtectsThePhotoIFiledThere(_ version: ImmichVersion) async throws {
    let w = try await Self.world(version, sharedByFriend: true)
    defer { Task { await w.server.stop() } }
    let seed = try await w.pipeline(key: ActFixture.secret)
    #expect(seed.status == 0, "\(seed.stderr)")
    for name in ["filed.jpg", "loose.jpg"] {
      try FileManager.default.removeItem(atPath: w.library + "/" + name)
    }
    let dry = try await w.pipeline(key: ActFixture.secret)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("in an album on Immich"), "\(dry.stderr)")
    let real = try await w.pipeline(key: ActFixture.secret)
    #expect(real.status == 0, "\(real.stderr)")
    #expect(real.stderr.contains("in an album on Immich"), "\(real.stderr)")
    #expect(w.trashed("loose.jpg"))
    #expect(!w.trashed("filed.jpg"))
  }

  @Test func withoutAlbumReadProtectionIsOffAndSaidSo() async throws {
    let w = try await Self.world(.v3_1)
    defer { Task { await w.server.stop() } }
    let seed = try await w.pipeline(key: Self.narrowSecret)
    #expect(seed.status == 0, "\(seed.stderr)")
    try FileManager.default.removeItem(atPath: w.library + "/filed.jpg")
    _ = try await w.pipeline(key: Self.narrowSecret)
    let real = try await w.pipeline(key: Self.narrowSecret)
    #expect(real.status == 0, "\(real.stderr)")
    #expect(w.trashed("filed.jpg"))
    let warnings = real.stderr.components(separatedBy: "lacks album.read").count - 1
    #expect(warnings == 1, "\(real.stderr)")

    let env = w.dir.isolatedEnvironment(["IMMICH_URL": w.base, "IMMICH_API_KEY": Self.narrowSecret])
    let directory = w.dir.path
    let check = try await ActFixture.offPool {
      try ToolRunner.shell("cairn-fetch check", environment: env, workingDirectory: directory)
    }
    #expect(
      (check.stdout + check.stderr).contains("permission album.read missing"), "\(check.stdout)")
  }

  /// A listing served from the sync stream's cache carries the marks too.
  @Test func theSyncStreamListingIsMarked() async throws {
    let w = try await Self.world(.v3_2)
    defer { Task { await w.server.stop() } }
    let env = w.dir.isolatedEnvironment([
      "IMMICH_URL": w.base, "IMMICH_API_KEY": ActFixture.secret,
      "IMMICH_EMAIL": "me@example.com", "IMMICH_PASSWORD": "password",
    ])
    let directory = w.dir.path
    let login = try await ActFixture.offPool {
      try ToolRunner.shell("cairn-fetch --login", environment: env, workingDirectory: directory)
    }
    #expect(login.status == 0, "\(login.stderr)")
    let listed = try await ActFixture.offPool {
      try ToolRunner.shell("cairn-fetch", environment: env, workingDirectory: directory)
    }
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(w.server.log.requests(path: "/api/sync/stream").count == 1)
    let marked = listed.stdout.split(separator: "\n").filter { $0.contains(#""inAlbum":true"#) }
    #expect(marked.count == 1)
    #expect(marked.first?.contains(w.ids["filed.jpg"] ?? "-") == true, "\(listed.stdout)")
  }
}
