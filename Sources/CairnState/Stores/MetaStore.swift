import CairnJSON
import CairnStream
import Foundation
import GRDB

/// Small named values of a partition, with typed accessors for the ones cairn uses.
package struct MetaStore: Sendable {
  /// The names in use.
  package enum Key: String, Sendable, CaseIterable {
    /// Matched assets (server checksums observed) at the last real run: the empty-server rail.
    case lastMatchedCount
    /// When a person first reviewed a dry run of this partition (ends the first-run rule).
    case firstDryRunReviewedAt
    /// When `cairn-reconcile` last finished.
    case lastReconcileAt
    /// When `cairn-observe` last recorded a scan.
    case lastObserveAt
  }

  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  package func string(_ key: String) throws(CairnError) -> String? {
    try database.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }
  }

  /// Sets `key` (nil removes it).
  package func set(_ key: String, _ value: String?) throws(CairnError) {
    try database.write { db in
      if let value {
        try db.execute(
          sql:
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
          arguments: [key, value])
      } else {
        try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
      }
    }
  }

  package func string(_ key: Key) throws(CairnError) -> String? { try string(key.rawValue) }
  package func set(_ key: Key, _ value: String?) throws(CairnError) { try set(key.rawValue, value) }

  package func int(_ key: Key) throws(CairnError) -> Int? {
    try string(key).flatMap { Int($0) }
  }

  package func set(_ key: Key, _ value: Int?) throws(CairnError) {
    try set(key, value.map(String.init))
  }

  /// A date stored as ISO-8601 UTC.
  package func date(_ key: Key) throws(CairnError) -> Date? {
    try string(key).flatMap { Date(iso8601: $0) }
  }

  package func set(_ key: Key, _ value: Date?) throws(CairnError) {
    try set(key, value?.iso8601)
  }
}
