/// A tag (`TagResponseDto`). `value` is the full path, `name` its last segment.
public struct TagInfo: Decodable, Sendable, Equatable {
  public var id: String
  public var name: String
  public var value: String
  public var parentId: String?
  public var color: String?
  public var createdAt: String?
  public var updatedAt: String?
}

/// One element of `PUT /api/tags/:id/assets` (`BulkIdResponseDto`).
public struct BulkIdResult: Decodable, Sendable, Equatable {
  public var id: String
  public var success: Bool
  /// `duplicate`, `no_permission`, `not_found`, `unknown`, `validation`.
  public var error: String?
  public var errorMessage: String?

  /// Success, or `duplicate` (already tagged): either way the asset carries the tag.
  public var isTagged: Bool { success || error == "duplicate" }
}
