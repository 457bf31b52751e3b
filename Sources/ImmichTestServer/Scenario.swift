import Foundation

/// The `type` of an asset (`AssetTypeEnum`).
package enum AssetType: String, Codable, Sendable, CaseIterable {
  case image = "IMAGE"
  case video = "VIDEO"
  case audio = "AUDIO"
  case other = "OTHER"
}

/// `AssetVisibility`: `hidden` marks the video half of a Live Photo; `locked` needs a PIN.
package enum AssetVisibility: String, Codable, Sendable, CaseIterable {
  case archive, timeline, hidden, locked
}

/// `AlbumUserRole` of a member who is not the owner: an editor may add assets, a viewer only
/// look.
package enum AlbumRole: String, Codable, Sendable, CaseIterable {
  case editor, viewer
}

/// Everything a test server starts with: version mode, configuration, users, keys, partners,
/// assets and albums. Build it in Swift or load it from JSON (the same field names, dates in ISO-8601).
package struct Scenario: Codable, Sendable {
  package var version: ImmichVersion
  /// `GET /server/features` → `trash`.
  package var trashEnabled: Bool
  /// `GET /server/config` → `trashDays`.
  package var trashDays: Int
  /// `features.passwordLogin`; when false, login answers 401.
  package var passwordLoginEnabled: Bool
  /// The shape Immich 4 will have (only with `v3.2` or `v3.3`): the flat search fields
  /// answered with 400 and the deprecated `GET /server/config` and `/server/features` gone.
  package var deprecatedRemoved: Bool
  /// `major.minor.patch` the server reports instead of its mode's own (a release newer than
  /// any modelled, behaving as `version`); nil reports the mode's version.
  package var reportedVersion: String?
  package var users: [User]
  package var apiKeys: [APIKey]
  package var partners: [Partner]
  package var assets: [Asset]
  package var albums: [Album]

  package init(
    version: ImmichVersion = .v3_1, trashEnabled: Bool = true, trashDays: Int = 30,
    passwordLoginEnabled: Bool = true, deprecatedRemoved: Bool = false, users: [User] = [],
    apiKeys: [APIKey] = [], partners: [Partner] = [], assets: [Asset] = [], albums: [Album] = []
  ) {
    self.version = version
    self.trashEnabled = trashEnabled
    self.trashDays = trashDays
    self.passwordLoginEnabled = passwordLoginEnabled
    self.deprecatedRemoved = deprecatedRemoved
    self.reportedVersion = nil
    self.users = users
    self.apiKeys = apiKeys
    self.partners = partners
    self.assets = assets
    self.albums = albums
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    version = try c.decodeIfPresent(ImmichVersion.self, forKey: .version) ?? .v3_1
    trashEnabled = try c.decodeIfPresent(Bool.self, forKey: .trashEnabled) ?? true
    trashDays = try c.decodeIfPresent(Int.self, forKey: .trashDays) ?? 30
    passwordLoginEnabled = try c.decodeIfPresent(Bool.self, forKey: .passwordLoginEnabled) ?? true
    deprecatedRemoved = try c.decodeIfPresent(Bool.self, forKey: .deprecatedRemoved) ?? false
    reportedVersion = try c.decodeIfPresent(String.self, forKey: .reportedVersion)
    users = try c.decodeIfPresent([User].self, forKey: .users) ?? []
    apiKeys = try c.decodeIfPresent([APIKey].self, forKey: .apiKeys) ?? []
    partners = try c.decodeIfPresent([Partner].self, forKey: .partners) ?? []
    assets = try c.decodeIfPresent([Asset].self, forKey: .assets) ?? []
    albums = try c.decodeIfPresent([Album].self, forKey: .albums) ?? []
  }

  package struct User: Codable, Sendable, Hashable {
    package var id: String
    package var email: String
    package var password: String
    package var name: String
    package var isAdmin: Bool

    package init(
      id: String = UUID().uuidString.lowercased(), email: String, password: String = "password",
      name: String? = nil, isAdmin: Bool = false
    ) {
      self.id = id
      self.email = email
      self.password = password
      self.name = name ?? String(email.prefix { $0 != "@" })
      self.isAdmin = isAdmin
    }

    package init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      let email = try c.decode(String.self, forKey: .email)
      self.init(
        id: try c.decodeIfPresent(String.self, forKey: .id) ?? UUID().uuidString.lowercased(),
        email: email,
        password: try c.decodeIfPresent(String.self, forKey: .password) ?? "password",
        name: try c.decodeIfPresent(String.self, forKey: .name),
        isAdmin: try c.decodeIfPresent(Bool.self, forKey: .isAdmin) ?? false)
    }
  }

  /// An API key. The server keeps the secret only to match requests; the request log records
  /// the key's `name`, never its secret.
  package struct APIKey: Codable, Sendable, Hashable {
    package var id: String
    package var name: String
    package var secret: String
    package var permissions: [String]
    package var ownerId: String

    package init(
      id: String = UUID().uuidString.lowercased(), name: String, secret: String,
      permissions: [String] = [Permission.all], ownerId: String
    ) {
      self.id = id
      self.name = name
      self.secret = secret
      self.permissions = permissions
      self.ownerId = ownerId
    }

    package init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        id: try c.decodeIfPresent(String.self, forKey: .id) ?? UUID().uuidString.lowercased(),
        name: try c.decode(String.self, forKey: .name),
        secret: try c.decode(String.self, forKey: .secret),
        permissions: try c.decodeIfPresent([String].self, forKey: .permissions) ?? [Permission.all],
        ownerId: try c.decode(String.self, forKey: .ownerId))
    }
  }

  /// `sharedById` shares their library with `sharedWithId`; `inTimeline` is the recipient's
  /// choice to show it, which is what puts the partner's assets into metadata search.
  package struct Partner: Codable, Sendable, Hashable {
    package var sharedById: String
    package var sharedWithId: String
    package var inTimeline: Bool

    package init(sharedById: String, sharedWithId: String, inTimeline: Bool = true) {
      self.sharedById = sharedById
      self.sharedWithId = sharedWithId
      self.inTimeline = inTimeline
    }
  }

  /// An album of `ownerId`'s holding `assetIds`, shared with the users in `sharedWith` (user
  /// id → role), as the web app makes one (docs/IMMICH-API.md §16).
  package struct Album: Codable, Sendable, Hashable {
    package var id: String
    package var ownerId: String
    package var albumName: String
    package var assetIds: [String]
    package var sharedWith: [String: AlbumRole]

    package init(
      id: String = UUID().uuidString.lowercased(), ownerId: String, albumName: String,
      assetIds: [String] = [], sharedWith: [String: AlbumRole] = [:]
    ) {
      self.id = id
      self.ownerId = ownerId
      self.albumName = albumName
      self.assetIds = assetIds
      self.sharedWith = sharedWith
    }

    package init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        id: try c.decodeIfPresent(String.self, forKey: .id) ?? UUID().uuidString.lowercased(),
        ownerId: try c.decode(String.self, forKey: .ownerId),
        albumName: try c.decode(String.self, forKey: .albumName),
        assetIds: try c.decodeIfPresent([String].self, forKey: .assetIds) ?? [],
        sharedWith: try c.decodeIfPresent([String: AlbumRole].self, forKey: .sharedWith) ?? [:])
    }
  }

  package struct Asset: Codable, Sendable, Hashable {
    package var id: String
    package var ownerId: String
    /// Base64 SHA-1 (28 characters), as the API reports it.
    package var checksum: String
    package var originalFileName: String
    package var type: AssetType
    package var visibility: AssetVisibility
    package var livePhotoVideoId: String?
    package var fileCreatedAt: Date
    /// Set when the asset starts in the trash.
    package var trashedAt: Date?
    package var isFavorite: Bool
    /// Videos only; milliseconds.
    package var durationMs: Int?
    /// The external library the asset was imported from; nil for uploads (docs/IMMICH-API.md §13).
    package var libraryId: String?
    /// An external-library asset whose file the library scan could not `stat`: Immich sets
    /// `isOffline` and `deletedAt` but leaves `status` active, so trash restore and "empty
    /// trash" pass it by.
    package var isOffline: Bool
    /// Where the file lies on the server; nil for the upload folder's
    /// `/data/upload/<owner>/<name>`. External-library assets carry their import path.
    package var originalPath: String?
    /// The original's pixels (a video's frame), which thumbnails are made from; nil draws a
    /// picture from the checksum.
    package var image: AssetImage?

    package init(
      id: String = UUID().uuidString.lowercased(), ownerId: String, checksum: String? = nil,
      originalFileName: String, type: AssetType = .image, visibility: AssetVisibility = .timeline,
      livePhotoVideoId: String? = nil, fileCreatedAt: Date = Date(), trashedAt: Date? = nil,
      isFavorite: Bool = false, durationMs: Int? = nil, libraryId: String? = nil,
      isOffline: Bool = false, originalPath: String? = nil, image: AssetImage? = nil
    ) {
      self.id = id
      self.ownerId = ownerId
      // A library import hashes the path, not the bytes; an upload the bytes.
      self.checksum =
        checksum
        ?? (libraryId != nil
          ? Scenario.pathChecksum(
            of: originalPath ?? Scenario.libraryPath(fileName: originalFileName))
          : Scenario.checksum(of: Array("\(id)".utf8)))
      self.originalFileName = originalFileName
      self.type = type
      self.visibility = visibility
      self.livePhotoVideoId = livePhotoVideoId
      self.fileCreatedAt = fileCreatedAt
      self.trashedAt = trashedAt
      self.isFavorite = isFavorite
      self.durationMs = durationMs
      self.libraryId = libraryId
      self.isOffline = isOffline
      self.originalPath =
        originalPath
        ?? (libraryId != nil ? Scenario.libraryPath(fileName: originalFileName) : nil)
      self.image = image
    }

    enum CodingKeys: String, CodingKey {
      case id, ownerId, checksum, originalFileName, type, visibility, livePhotoVideoId
      case fileCreatedAt, trashedAt, trashed, isFavorite, durationMs
      case libraryId, isOffline, originalPath, image
    }

    package init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      let trashed = try c.decodeIfPresent(Bool.self, forKey: .trashed) ?? false
      self.init(
        id: try c.decodeIfPresent(String.self, forKey: .id) ?? UUID().uuidString.lowercased(),
        ownerId: try c.decode(String.self, forKey: .ownerId),
        checksum: try c.decodeIfPresent(String.self, forKey: .checksum),
        originalFileName: try c.decode(String.self, forKey: .originalFileName),
        type: try c.decodeIfPresent(AssetType.self, forKey: .type) ?? .image,
        visibility: try c.decodeIfPresent(AssetVisibility.self, forKey: .visibility) ?? .timeline,
        livePhotoVideoId: try c.decodeIfPresent(String.self, forKey: .livePhotoVideoId),
        fileCreatedAt: try c.decodeIfPresent(Date.self, forKey: .fileCreatedAt) ?? Date(),
        trashedAt: try c.decodeIfPresent(Date.self, forKey: .trashedAt) ?? (trashed ? Date() : nil),
        isFavorite: try c.decodeIfPresent(Bool.self, forKey: .isFavorite) ?? false,
        durationMs: try c.decodeIfPresent(Int.self, forKey: .durationMs),
        libraryId: try c.decodeIfPresent(String.self, forKey: .libraryId),
        isOffline: try c.decodeIfPresent(Bool.self, forKey: .isOffline) ?? false,
        originalPath: try c.decodeIfPresent(String.self, forKey: .originalPath),
        image: try c.decodeIfPresent(AssetImage.self, forKey: .image))
    }

    package func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(ownerId, forKey: .ownerId)
      try c.encode(checksum, forKey: .checksum)
      try c.encode(originalFileName, forKey: .originalFileName)
      try c.encode(type, forKey: .type)
      try c.encode(visibility, forKey: .visibility)
      try c.encodeIfPresent(livePhotoVideoId, forKey: .livePhotoVideoId)
      try c.encode(fileCreatedAt, forKey: .fileCreatedAt)
      try c.encodeIfPresent(trashedAt, forKey: .trashedAt)
      try c.encode(isFavorite, forKey: .isFavorite)
      try c.encodeIfPresent(durationMs, forKey: .durationMs)
      try c.encodeIfPresent(libraryId, forKey: .libraryId)
      try c.encode(isOffline, forKey: .isOffline)
      try c.encodeIfPresent(originalPath, forKey: .originalPath)
      try c.encodeIfPresent(image, forKey: .image)
    }
  }
}

// MARK: - Files

extension Scenario {
  /// Reads a scenario written by `write(to:)` or by hand.
  package static func load(from url: URL) throws -> Scenario {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      guard let date = Timestamps.parseWithOffset(text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "not an ISO-8601 date: \(text)"))
      }
      return date
    }
    return try decoder.decode(Scenario.self, from: Data(contentsOf: url))
  }

  package func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var c = encoder.singleValueContainer()
      try c.encode(Timestamps.format(date))
    }
    try encoder.encode(self).write(to: url)
  }

  /// Base64 SHA-1 of some bytes: the checksum the server would store for that file.
  package static func checksum(of bytes: [UInt8]) -> String {
    Identifiers.base64(SHA1.digest(bytes))
  }

  /// Base64 SHA-1 of `"path:" + path`: what an external-library import stores as the
  /// checksum (`checksumAlgorithm = sha1-path`), so it never equals the file's own SHA-1.
  package static func pathChecksum(of path: String) -> String {
    checksum(of: Array("path:\(path)".utf8))
  }

  /// Where an external-library asset lies when the test names no path.
  package static func libraryPath(fileName: String) -> String { "/mnt/library/\(fileName)" }
}
