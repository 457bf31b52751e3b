import CairnJSON
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

/// A session from `cairn-fetch login`, which the sync stream needs (API keys get 403).
package struct SavedSession: Sendable {
  package var token: Secret
  /// A random id of this login: the server-asset cache remembers which login its sync
  /// checkpoints belong to, and starts over (reset) for a new one.
  package var loginId: String
  package var email: String
  package var userId: String
  package var createdAt: Date

  package init(token: Secret, loginId: String, email: String, userId: String, createdAt: Date) {
    self.token = token
    self.loginId = loginId
    self.email = email
    self.userId = userId
    self.createdAt = createdAt
  }
}

/// Keeps the session token in the partition's state folder, mode 0600, folder 0700.
package enum SessionStore {
  package static func path(_ paths: CairnPaths, _ partition: ServerPartition) -> String {
    paths.session(partition)
  }

  package static func load(_ paths: CairnPaths, _ partition: ServerPartition) throws(CairnError)
    -> SavedSession?
  {
    let file = path(paths, partition)
    guard FileManager.default.fileExists(atPath: file) else { return nil }
    guard let data = FileManager.default.contents(atPath: file),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let token = object["token"] as? String, let loginId = object["loginId"] as? String,
      let userId = object["userId"] as? String
    else {
      throw CairnError(
        .stateFailure, "unreadable session file: run 'cairn-fetch logout' and 'login'",
        at: file)
    }
    return SavedSession(
      token: Secret(token), loginId: loginId, email: object["email"] as? String ?? "",
      userId: userId,
      createdAt: (object["createdAt"] as? String).flatMap { Date(iso8601: $0) } ?? Date())
  }

  package static func save(
    _ session: SavedSession, _ paths: CairnPaths, _ partition: ServerPartition
  ) throws(CairnError) {
    try CairnPaths.makePrivateDirectory(paths.partitionDirectory(partition))
    let object: [String: Any] = [
      "token": session.token.reveal(), "loginId": session.loginId, "email": session.email,
      "userId": session.userId, "createdAt": session.createdAt.iso8601,
    ]
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { throw CairnError(.stateFailure, "cannot encode the session") }
    try CairnPaths.writePrivateFile(path(paths, partition), Array(data))
  }

  /// Removes the saved session; false when there was none.
  @discardableResult
  package static func remove(_ paths: CairnPaths, _ partition: ServerPartition) throws(CairnError)
    -> Bool
  {
    let file = path(paths, partition)
    guard FileManager.default.fileExists(atPath: file) else { return false }
    do {
      try FileManager.default.removeItem(atPath: file)
    } catch {
      throw CairnError(.stateFailure, "cannot remove the session file", at: file)
    }
    return true
  }
}
