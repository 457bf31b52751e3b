/// A tag (`TagResponseDto`). `value` is the full path, `name` its last segment.
package struct TagInfo: Decodable, Sendable, Equatable {
  package var id: String
  package var name: String
  package var value: String
  package var parentId: String?
  package var color: String?
  package var createdAt: String?
  package var updatedAt: String?
}

/// One element of `PUT /api/tags/:id/assets` (`BulkIdResponseDto`).
package struct BulkIdResult: Decodable, Sendable, Equatable {
  package var id: String
  package var success: Bool
  /// `duplicate`, `no_permission`, `not_found`, `unknown`, `validation`.
  package var error: String?
  package var errorMessage: String?

  /// Success, or `duplicate` (already tagged): either way the asset carries the tag.
  package var isTagged: Bool { success || error == "duplicate" }
}
