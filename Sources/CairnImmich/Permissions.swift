/// The API-key permissions cairn uses, and which of them it cannot do without.
package enum CairnPermissions {
  /// Without these the pipeline cannot run:
  /// - `asset.read`: listing the server (`search/metadata`), reading assets.
  /// - `asset.delete`: moving assets to the trash and restoring them (both need it).
  /// - `tag.create`: creating the run tag (`PUT /tags`) before anything is trashed.
  /// - `tag.asset`: putting the run tag on the assets, so a run can be found and undone.
  /// - `user.read`: `users/me`, which names the user and so the state partition.
  package static let required = [
    "asset.read", "asset.delete", "tag.create", "tag.asset", "user.read",
  ]

  /// Useful, not essential:
  /// - `tag.read`: listing runs from the server's tags (`cairn-tag`, restore by run when the
  ///   local journal is lost); the journal covers the usual case.
  /// - `server.about`: build details for `check`; the public version endpoint suffices.
  /// - `asset.view`: the thumbnails of `cairn-gate --review`'s page; without it the page
  ///   shows each photo's name and reasons without its picture.
  /// - `album.read`: album protection (a photo in an album waits for review); without it
  ///   protection is off, said once a run.
  package static let optional = ["tag.read", "server.about", "asset.view", "album.read"]

  /// Needed besides `required` when review in Immich is on (`CAIRN_REVIEW_IN_IMMICH`,
  /// docs/IMMICH-API.md §1.3, §6): `tag.read` to find cairn's tags (`GET /tags`), `tag.create`
  /// to make the review tag (`PUT /tags`), `tag.asset` to mark and unmark
  /// (`PUT /tags/assets`, `DELETE /tags/:id/assets`), `asset.read` to find what carries a tag
  /// (`POST /search/metadata` with `tagIds`).
  package static let reviewInImmich = ["tag.read", "tag.create", "tag.asset", "asset.read"]

  /// Why review in Immich needs each permission, for `check` lines.
  package static func reviewPurpose(_ permission: String) -> String {
    switch permission {
    case "tag.read": return "find the review, approve and keep tags"
    case "tag.create": return "create the review tag"
    case "tag.asset": return "mark candidates for review and take marks off"
    case "asset.read": return "find the assets carrying a decision tag"
    default: return purpose(permission)
    }
  }

  /// `userConfig.read` (`GET /api/config`, the trash settings) exists from this version on.
  /// Useful, not essential: without it cairn reads the deprecated `GET /api/server/config`
  /// and `/server/features`, which still answer in 3.2.
  package static let configPermissionSince = ServerVersion(major: 3, minor: 2, patch: 0)

  /// Why each permission matters, for `check` lines.
  package static func purpose(_ permission: String) -> String {
    switch permission {
    case "asset.read": return "list the server's assets"
    case "asset.delete": return "move assets to the trash and restore them"
    case "tag.create": return "create run tags"
    case "tag.asset": return "tag the assets of a run"
    case "user.read": return "identify the key's user"
    case "tag.read": return "list past runs from the server"
    case "server.about": return "read the server's build details"
    case "userConfig.read": return "read the trash settings (Immich 3.2 and later)"
    case "album.read": return "protect photos in albums (off without it)"
    case "asset.view": return "show thumbnails on the review page (cairn-gate --review)"
    default: return permission
    }
  }
}
