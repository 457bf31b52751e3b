import CairnEngine
import CairnStream
import Foundation
import GRDB

/// Checksums never to trash, with why and when. They survive `ObservedStore.reset()`.
package struct ExclusionStore: Sendable {
  let database: StateDatabase
  init(_ database: StateDatabase) { self.database = database }

  /// Every exclusion, oldest first.
  package func all() throws(CairnError) -> [Exclusion] {
    try database.read { db in
      try Row.fetchAll(
        db, sql: "SELECT checksum, reason, createdAt FROM exclusion ORDER BY createdAt, checksum"
      ).map { Exclusion(checksum: $0[0], reason: $0[1], createdAt: Date(stateValue: $0[2])) }
    }
  }

  /// The excluded checksums, for the engine.
  package func checksums() throws(CairnError) -> Set<String> {
    try database.read { db in Set(try String.fetchAll(db, sql: "SELECT checksum FROM exclusion")) }
  }

  package func contains(_ checksum: String) throws(CairnError) -> Bool {
    try database.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM exclusion WHERE checksum = ?)",
        arguments: [checksum]) ?? false
    }
  }

  /// Excludes `checksums`; an existing exclusion keeps its first reason and date.
  /// Returns how many were new.
  @discardableResult
  package func add<S: Sequence>(_ checksums: S, reason: String, at now: Date) throws(CairnError)
    -> Int where S.Element == String
  {
    try database.write { db in
      let statement = try db.cachedStatement(
        sql: "INSERT INTO exclusion VALUES (?, ?, ?) ON CONFLICT(checksum) DO NOTHING")
      var added = 0
      for checksum in checksums {
        try statement.execute(arguments: [checksum, reason, now.stateValue])
        added += db.changesCount
      }
      return added
    }
  }

  /// Lifts exclusions; returns how many existed.
  @discardableResult
  package func remove<S: Sequence>(_ checksums: S) throws(CairnError) -> Int
  where S.Element == String {
    try database.write { db in
      var removed = 0
      for checksum in checksums {
        try db.execute(sql: "DELETE FROM exclusion WHERE checksum = ?", arguments: [checksum])
        removed += db.changesCount
      }
      return removed
    }
  }
}
