import Foundation

/// Shortcuts for the shapes tests need most.
extension Scenario {
  /// Adds a user with one API key (all permissions unless told otherwise).
  @discardableResult
  package mutating func addUser(
    email: String, password: String = "password", name: String? = nil,
    keySecret: String? = nil, permissions: [String] = [Permission.all]
  ) -> (user: User, key: APIKey) {
    let user = User(email: email, password: password, name: name)
    let key = APIKey(
      name: "\(user.name)-key", secret: keySecret ?? "secret-\(user.id)",
      permissions: permissions, ownerId: user.id)
    users.append(user)
    apiKeys.append(key)
    return (user, key)
  }

  /// Adds another key for an existing user, e.g. one lacking a permission.
  @discardableResult
  package mutating func addKey(
    for user: User, name: String, secret: String, permissions: [String]
  ) -> APIKey {
    let key = APIKey(name: name, secret: secret, permissions: permissions, ownerId: user.id)
    apiKeys.append(key)
    return key
  }

  package mutating func addPartner(sharing owner: User, with viewer: User, inTimeline: Bool = true)
  {
    partners.append(Partner(sharedById: owner.id, sharedWithId: viewer.id, inTimeline: inTimeline))
  }

  /// Adds one asset; the checksum defaults to the SHA-1 of the file name and id — or, for an
  /// external-library asset (`libraryId` set), to `pathChecksum(of:)` its path
  /// (`originalPath`, default `libraryPath(fileName:)`). An `isOffline` asset starts with
  /// `deletedAt` set, as the library scan leaves it.
  @discardableResult
  package mutating func addAsset(
    owner: User, fileName: String, type: AssetType = .image,
    visibility: AssetVisibility = .timeline, createdAt: Date = Date(), trashed: Bool = false,
    checksum: String? = nil, libraryId: String? = nil, isOffline: Bool = false,
    originalPath: String? = nil
  ) -> Asset {
    let asset = Asset(
      ownerId: owner.id, checksum: checksum, originalFileName: fileName, type: type,
      visibility: visibility, fileCreatedAt: createdAt,
      trashedAt: trashed || isOffline ? createdAt : nil,
      durationMs: type == .video ? 3000 : nil, libraryId: libraryId, isOffline: isOffline,
      originalPath: originalPath)
    assets.append(asset)
    return asset
  }

  /// Adds a Live Photo: a timeline still whose `livePhotoVideoId` points at a hidden video.
  @discardableResult
  package mutating func addLivePhoto(
    owner: User, baseName: String, createdAt: Date = Date()
  ) -> (still: Asset, video: Asset) {
    let video = Asset(
      ownerId: owner.id, originalFileName: "\(baseName).MOV", type: .video, visibility: .hidden,
      fileCreatedAt: createdAt, durationMs: 2500)
    let still = Asset(
      ownerId: owner.id, originalFileName: "\(baseName).HEIC", type: .image,
      livePhotoVideoId: video.id, fileCreatedAt: createdAt)
    assets.append(video)
    assets.append(still)
    return (still, video)
  }

  /// Adds an album of `owner`'s holding `assets`, shared with `members` in their roles — the
  /// state `POST /api/albums` and `PUT /api/albums/:id/assets` leave.
  @discardableResult
  package mutating func addAlbum(
    owner: User, name: String, assets: [Asset] = [], sharedWith members: [(User, AlbumRole)] = []
  ) -> Album {
    let album = Album(
      ownerId: owner.id, albumName: name, assetIds: assets.map(\.id),
      sharedWith: Dictionary(members.map { ($0.0.id, $0.1) }, uniquingKeysWith: { $1 }))
    albums.append(album)
    return album
  }

  /// One user (`demo@example.com` / `demo`) with an all-permission key `demo-secret`.
  package static func demo(version: ImmichVersion = .v3_1) -> Scenario {
    var scenario = Scenario(version: version)
    scenario.addUser(
      email: "demo@example.com", password: "demo", name: "Demo", keySecret: "demo-secret")
    return scenario
  }

  /// The demo user owning `count` timeline images, one minute apart, with distinct checksums.
  /// Builds 100,000 assets in well under a second: no hashing, no per-asset sorting.
  package static func generated(count: Int, version: ImmichVersion = .v3_1) -> Scenario {
    var scenario = demo(version: version)
    guard let owner = scenario.users.first else { return scenario }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    scenario.assets.reserveCapacity(count)
    for i in 0..<count {
      var digest = [UInt8](repeating: 0xca, count: 20)
      for byte in 0..<8 { digest[12 + byte] = UInt8(truncatingIfNeeded: i >> (56 - byte * 8)) }
      scenario.assets.append(
        Asset(
          ownerId: owner.id, checksum: Identifiers.base64(digest),
          originalFileName: String(format: "IMG_%06d.JPG", i),
          fileCreatedAt: start.addingTimeInterval(Double(i) * 60)))
    }
    return scenario
  }
}
