import CairnEngine
import CairnRecords
import CairnSealedFiles
import CairnSupport
import GRDB

extension PartitionStore {
  /// Records a scan by what differs from the previous scan of the same roots, which the store
  /// matches (`ScanSnapshot`): the same changes as `recordWhole`, for a fraction of the work.
  ///
  /// An unchanged file — same path, root, checksum and identity as in the previous scan, with
  /// an identity no change involves and that neither scan lists twice — needs nothing at all
  /// (the new snapshot dates its checksum), because recording the previous scan left the
  /// store so:
  /// - its checksum is observed and its path stored (removing either would have ended the
  ///   snapshot's validity);
  /// - under a complete root, a checksum listed in a scan keeps exactly the paths listed, so
  ///   the stored paths of a checksum that only unchanged files carry are all listed again;
  ///   a stale path is one a changed or replaced file had;
  /// - its identity's anchor holds its checksum, root and path, which the anchor rules leave
  ///   alone; anchors under the roots are exactly those of the previous scan's identities,
  ///   so the ones to drop are identities of replaced files this scan does not list;
  /// - the observed checksums are the previous scan's and its absent ones: those absent now
  ///   are among the absent ones and the replaced files'.
  /// Whatever else the whole comparison asks of the scan (is a checksum listed under a root,
  /// is an identity listed and how often) is asked only for the checksums and identities
  /// involved, in one pass over the scan.
  func recordDelta(
    _ db: Database, files: ScanFiles, previous: ScanSnapshot, delta: ScanDelta,
    completeRoots: Set<ByteKey>, lastScan: Double, time: Double
  ) throws -> (ScanRecordingSummary, ScanSnapshot.Contents, listed: [ByteKey: Bool]) {
    var summary = ScanRecordingSummary()
    summary.files = files.count
    let involved = try Involved(db, files: files, previous: previous, delta: delta)
    var scan = ScanQuery(files: files)
    scan.find(checksums: involved.checksums, identities: involved.identities, collectingFiles: true)

    summary.newChecksums = try Self.observeChanged(db, files: files, delta: delta, time: time)
    try Self.dropStalePaths(
      db, of: involved.moved, files: files, delta: delta, scan: scan,
      completeRoots: completeRoots)
    let retired = try updateAnchors(
      db, involved: involved, scan: &scan, completeRoots: completeRoots, time: time)
    summary.retiredEdits = retired.count
    try forgetVersionsSeenAgain(db, scan: &scan, asked: involved.checksums)
    summary.reappeared = try Self.endSignalsOfReturning(
      db, involved: involved, retired: retired, scan: &scan)
    let absent = try Self.recordAbsent(
      db, involved: involved, previous: previous, scan: scan, lastScan: lastScan)

    let next = ScanSnapshot.Contents(
      roots: completeRoots.map(\.string).sorted(), files: files, absent: absent,
      sharedIdentities: scan.identityCount.filter { $0.value > 1 }.map(\.key.string).sorted())
    // Whether the scan lists each checksum involved: every one whose presence may differ
    // from the previous scan's (those of changed and replaced files), and more.
    var listed: [ByteKey: Bool] = [:]
    for key in involved.checksums { listed[key] = scan.roots[key] != nil }
    return (summary, next, listed)
  }

  /// What a change involves (see `recordDelta`): the checksums whose rows can change and the
  /// identities whose anchors can, read from the difference and the store.
  private struct Involved {
    /// The previous scan's files that changed or went.
    let replaced: [ScannedFile]
    /// Checksums of changed and replaced files.
    let moved: Set<ByteKey>
    /// Checksums with a first-missing time or a positive signal.
    let signalled: [String]
    /// The versions of deleted edited files (`deletedVersion`: last, original).
    let versions: [Row]
    /// Checksums whose rows can change: moved, absent before (they may be back), signalled (a
    /// signal ends when its checksum is back), a deleted edited file's (one seen again ends
    /// its row, and a file whose last bytes are back gets its original again).
    let checksums: Set<ByteKey>
    /// Identities whose anchors can change: changed and replaced files', and those the
    /// previous scan listed more than once.
    let identities: Set<ByteKey>

    init(_ db: Database, files: ScanFiles, previous: ScanSnapshot, delta: ScanDelta) throws {
      replaced = delta.replaced.map(previous.file)
      moved = Set(
        delta.changed.map { ByteKey(files[$0].checksum) }
          + replaced.map { ByteKey($0.checksum) })
      signalled = try String.fetchAll(
        db, sql: "SELECT checksum FROM missing UNION SELECT checksum FROM confirmation")
      versions = try Row.fetchAll(
        db,
        sql: """
          SELECT lastChecksum, originalChecksum FROM deletedVersion
          ORDER BY lastChecksum, originalChecksum
          """)
      var checksums = moved
      checksums.formUnion(previous.absent.map(ByteKey.init))
      checksums.formUnion(signalled.map(ByteKey.init))
      for row in versions {
        checksums.insert(ByteKey(row[0] as String))
        checksums.insert(ByteKey(row[1] as String))
      }
      self.checksums = checksums
      var identities = Set(
        delta.changed.map { ByteKey(files[$0].identity.key) }
          + replaced.map { ByteKey($0.identity.key) })
      identities.formUnion(previous.sharedIdentities.map(ByteKey.init))
      self.identities = identities
    }
  }

  /// Observations and paths of the changed files. Returns how many checksums are new.
  private static func observeChanged(
    _ db: Database, files: ScanFiles, delta: ScanDelta, time: Double
  ) throws -> Int {
    let observe = try db.cachedStatement(
      sql: "INSERT INTO observed VALUES (?, ?, ?) ON CONFLICT(checksum) DO NOTHING")
    let place = try db.cachedStatement(sql: "INSERT OR IGNORE INTO observedPath VALUES (?, ?, ?)")
    var new = 0
    for index in delta.changed {
      let file = files[index]
      try observe.execute(arguments: [file.checksum, time, time])
      new += db.changesCount
      try place.execute(arguments: [file.checksum, file.root, file.path])
    }
    return new
  }

  /// Stale paths (see `recordDelta`): stored under a complete root where the checksum is
  /// listed now, and not listed.
  private static func dropStalePaths(
    _ db: Database, of moved: Set<ByteKey>, files: ScanFiles, delta: ScanDelta,
    scan: ScanQuery, completeRoots: Set<ByteKey>
  ) throws {
    let placesOf = try db.cachedStatement(
      sql: "SELECT root, path FROM observedPath WHERE checksum = ? ORDER BY root, path")
    let unplace = try db.cachedStatement(
      sql: "DELETE FROM observedPath WHERE checksum = ? AND root = ? AND path = ?")
    for key in moved.sorted(by: { $0.string.utf8.lexicographicallyPrecedes($1.string.utf8) }) {
      guard let listedRoots = scan.roots[key] else { continue }
      let checksum = key.string
      for row in try Row.fetchAll(placesOf, arguments: [checksum]) {
        let root: String = row[0]
        let path: String = row[1]
        let rootKey = ByteKey(root)
        guard completeRoots.contains(rootKey), listedRoots.contains(rootKey) else { continue }
        if let index = delta.file(atPath: path), files[index].checksum.sameBytes(as: checksum),
          files[index].root.sameBytes(as: root)
        {
          continue
        }
        try unplace.execute(arguments: [checksum, root, path])
      }
    }
  }

  /// Anchors: the rules for every file carrying an involved identity, in scan order, then the
  /// anchors of replaced files' identities this scan does not list dropped. Returns the
  /// versions retired.
  private func updateAnchors(
    _ db: Database, involved: Involved, scan: inout ScanQuery, completeRoots: Set<ByteKey>,
    time: Double
  ) throws -> [String] {
    let files = scan.files
    let anchorOf = try db.cachedStatement(
      sql: "SELECT firstChecksum, currentChecksum, root, path FROM anchor WHERE identity = ?")
    var stored: [String: StoredAnchor] = [:]
    var unanchored: [Int] = []
    for index in scan.carrying {
      let identity = files[index].identity.key
      guard stored[identity] == nil else { continue }
      if let row = try Row.fetchOne(anchorOf, arguments: [identity]) {
        stored[identity] = StoredAnchor(first: row[0], current: row[1], root: row[2], path: row[3])
      } else {
        unanchored.append(index)
      }
    }
    var predecessors = try absentAnchors(db, for: unanchored, in: &scan)
    predecessors.atPath = try replacedAnchors(
      db, for: unanchored, replaced: involved.replaced, scan: scan, statement: anchorOf)
    for row in involved.versions where scan.roots[ByteKey(row[0] as String)] != nil {
      predecessors.restored[row[0]] = row[1]
    }
    let changes = try applyAnchorRules(
      db, files: files, changing: scan.carrying, stored: stored, absent: predecessors,
      time: time)
    let dropped = Set(involved.replaced.map { ByteKey($0.identity.key) })
      .filter { scan.identityCount[$0] == nil }.map(\.string)
    try Self.dropAnchors(
      db, of: dropped, completeRoots: completeRoots, inherited: changes.inherited, time: time)
    return changes.retired
  }

  /// Drops the anchors of `identities` (deleted files) under the complete roots, unless a new
  /// identity inherited them, remembering an edited file's deletion (`deletedVersion`).
  /// (One statement for all the identities: a few thousand deleted files cost more in
  /// statements than in the b-tree, which the sorted list walks in order.)
  private static func dropAnchors(
    _ db: Database, of identities: [String], completeRoots: Set<ByteKey>,
    inherited: Set<String>, time: Double
  ) throws {
    guard !identities.isEmpty else { return }
    let dropped = JSONText.array(ByteKey.sorted(identities))
    let roots = JSONText.array(completeRoots.map(\.string).sorted())
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO deletedVersion
        SELECT currentChecksum, firstChecksum, ?4 FROM anchor
        WHERE identity IN (SELECT value FROM json_each(?1))
        AND root IN (SELECT value FROM json_each(?2)) AND firstChecksum <> currentChecksum
        AND identity NOT IN (SELECT value FROM json_each(?3))
        """,
      arguments: [dropped, roots, JSONText.array(inherited.sorted()), time])
    try db.execute(
      sql: """
        DELETE FROM anchor WHERE identity IN (SELECT value FROM json_each(?))
        AND root IN (SELECT value FROM json_each(?))
        """,
      arguments: [dropped, roots])
  }

  /// Back in the library: no longer missing or signalled. Returns how many came back.
  private static func endSignalsOfReturning(
    _ db: Database, involved: Involved, retired: [String], scan: inout ScanQuery
  ) throws -> Int {
    var returning = Set(involved.signalled.map(ByteKey.init))
    returning.formUnion(retired.map(ByteKey.init))
    scan.find(checksums: returning.subtracting(involved.checksums), identities: [])
    let unmiss = try db.cachedStatement(sql: "DELETE FROM missing WHERE checksum = ?")
    let unconfirm = try db.cachedStatement(sql: "DELETE FROM confirmation WHERE checksum = ?")
    var reappeared = 0
    for key in returning where scan.roots[key] != nil {
      reappeared += 1
      try unmiss.execute(arguments: [key.string])
      try unconfirm.execute(arguments: [key.string])
    }
    return reappeared
  }

  /// What is absent now, into `temp.absentChecksum`, and returned. The previous snapshot dated
  /// those it listed; those it listed and this scan does not get that date (`lastScan`) in
  /// their rows, as the new snapshot will not list them. (What this scan lists, the new
  /// snapshot dates.)
  private static func recordAbsent(
    _ db: Database, involved: Involved, previous: ScanSnapshot, scan: ScanQuery, lastScan: Double
  ) throws -> [String] {
    var absent: [String] = []
    var seen = Set<ByteKey>()
    for key in involved.replaced.map({ ByteKey($0.checksum) }) + previous.absent.map(ByteKey.init)
    where scan.roots[key] == nil && seen.insert(key).inserted {
      absent.append(key.string)
    }
    try ScanTable.replaceAbsent(db, with: absent)
    let wasAbsent = Set(previous.absent.map(ByteKey.init))
    let newlyAbsent = absent.filter { !wasAbsent.contains(ByteKey($0)) }
    if !newlyAbsent.isEmpty {
      try db.execute(
        sql: """
          UPDATE observed SET lastSeen = max(lastSeen, ?)
          WHERE checksum IN (SELECT value FROM json_each(?))
          """, arguments: [lastScan, JSONText.array(ByteKey.sorted(newlyAbsent))])
    }
    return absent
  }

  /// Deletes the rows of `deletedVersion` with a version this scan lists, as `updateAnchors`
  /// does; the scan is asked about the checksums of rows written by this recording that
  /// `asked` does not hold.
  private func forgetVersionsSeenAgain(
    _ db: Database, scan: inout ScanQuery, asked: Set<ByteKey>
  ) throws {
    let rows = try Row.fetchAll(
      db, sql: "SELECT lastChecksum, originalChecksum FROM deletedVersion")
    guard !rows.isEmpty else { return }
    let keys = Set(rows.flatMap { [ByteKey($0[0] as String), ByteKey($0[1] as String)] })
    scan.find(checksums: keys.subtracting(asked), identities: [])
    let forget = try db.cachedStatement(
      sql: "DELETE FROM deletedVersion WHERE lastChecksum = ? AND originalChecksum = ?")
    for row in rows {
      let last: String = row[0]
      let original: String = row[1]
      guard scan.roots[ByteKey(last)] != nil || scan.roots[ByteKey(original)] != nil else {
        continue
      }
      try forget.execute(arguments: [last, original])
    }
  }

  /// The anchors absent from the scan whose current checksum is that of a file at `indexes`
  /// (whose identities have no anchor), by current checksum: as `updateAnchors` collects them,
  /// the anchor with the greatest identity winning a tie.
  private func absentAnchors(_ db: Database, for indexes: [Int], in scan: inout ScanQuery)
    throws -> AbsentAnchors
  {
    guard !indexes.isEmpty else { return AbsentAnchors() }
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT identity, currentChecksum, firstChecksum FROM anchor
        WHERE currentChecksum IN (SELECT value FROM json_each(?)) ORDER BY identity
        """, arguments: [JSONText.array(indexes.map { scan.files[$0].checksum })])
    let unknown = Set(rows.map { ByteKey($0[0] as String) }).subtracting(scan.identitiesAsked)
    scan.find(checksums: [], identities: unknown)
    var absent = AbsentAnchors()
    for row in rows where scan.identityCount[ByteKey(row[0] as String)] == nil {
      absent.byCurrent[row[1]] = AbsentAnchor(identity: row[0], first: row[2], current: row[1])
    }
    return absent
  }

  /// The anchors of the previous scan's files at the paths of the files at `indexes` (whose
  /// identities have no anchor) that a replace by rename left behind, by path: as
  /// `updateAnchors` collects them, those whose identity and bytes this scan lists nowhere.
  /// (The scan was asked about every replaced file's identity and checksum.)
  private func replacedAnchors(
    _ db: Database, for indexes: [Int], replaced: [ScannedFile], scan: ScanQuery,
    statement: Statement
  ) throws -> [ByteKey: AbsentAnchor] {
    guard !indexes.isEmpty, !replaced.isEmpty else { return [:] }
    var before: [ByteKey: ScannedFile] = [:]
    for file in replaced { before[ByteKey(file.path)] = file }
    var found: [ByteKey: AbsentAnchor] = [:]
    for index in indexes {
      let path = ByteKey(scan.files[index].path)
      guard let previous = before[path],
        scan.identityCount[ByteKey(previous.identity.key)] == nil,
        scan.roots[ByteKey(previous.checksum)] == nil,
        let row = try Row.fetchOne(statement, arguments: [previous.identity.key])
      else { continue }
      found[path] = AbsentAnchor(identity: previous.identity.key, first: row[0], current: row[1])
    }
    return found
  }
}

/// Questions about a scan, asked for a few checksums and identities at a time, each batch
/// answered in one pass over its files.
struct ScanQuery {
  let files: ScanFiles
  /// For each checksum asked about, the roots it is listed under (absent: not listed).
  var roots: [ByteKey: Set<ByteKey>] = [:]
  /// For each identity asked about, how many files carry it (absent: none).
  var identityCount: [ByteKey: Int] = [:]
  /// Indexes of the files carrying an identity asked about with `collectingFiles`, in scan
  /// order.
  var carrying: [Int] = []
  private(set) var identitiesAsked = Set<ByteKey>()

  init(files: ScanFiles) { self.files = files }

  mutating func find(
    checksums: Set<ByteKey>, identities: Set<ByteKey>, collectingFiles: Bool = false
  ) {
    guard !checksums.isEmpty || !identities.isEmpty else { return }
    identitiesAsked.formUnion(identities)
    // Hashing every file's strings for the sets costs more than the rest of the pass: a
    // cheaper hash rules out nearly all of them first.
    let checksumFilter = ByteHashFilter(checksums)
    let identityFilter = ByteHashFilter(identities)
    func visit(
      _ index: Int, _ checksum: UnsafeBufferPointer<UInt8>, _ identity: UnsafeBufferPointer<UInt8>
    ) {
      if !checksums.isEmpty && checksumFilter.mayContain(checksum) {
        let key = ByteKey(String(decoding: checksum, as: UTF8.self))
        if checksums.contains(key) { roots[key, default: []].insert(ByteKey(files.root(index))) }
      }
      if !identities.isEmpty && identityFilter.mayContain(identity) {
        let key = ByteKey(String(decoding: identity, as: UTF8.self))
        if identities.contains(key) {
          identityCount[key, default: 0] += 1
          if collectingFiles { carrying.append(index) }
        }
      }
    }
    // Files read in place from a snapshot are visited there, without a call through
    // `ScanFiles` per field: this pass is over every file.
    let stored = files.source as? ScanSnapshot
    files.withPlaces { places in
      for index in files.indices {
        if let stored, let places, places[index] >= 0 {
          let at = Int(places[index])
          visit(index, stored.bytes(at, 1), stored.bytes(at, 2))
        } else {
          files.withChecksum(index) { checksum in
            files.withIdentity(index) { visit(index, checksum, $0) }
          }
        }
      }
    }
  }
}
