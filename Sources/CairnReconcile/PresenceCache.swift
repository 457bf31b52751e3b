import CairnEngine
import CairnJSON
import CairnSealedFiles
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// The server's checksums in listing order, as a key: a listing with the same one has the
/// same checksum at every index.
package struct ListingKey: Equatable, Sendable {
  let count: Int
  let digest: LineDigest
  /// Whether every checksum is ASCII (see `PresenceCache.carriedOver`).
  let isASCII: Bool

  package init(_ assets: ServerAssets) {
    count = assets.count
    var high: UInt64 = 0x6A09_E667_F3BC_C908
    var low: UInt64 = 0xBB67_AE85_84CA_A73B
    var isASCII = true
    for index in 0..<assets.count {
      let checksum = assets.withChecksum(index) { bytes in
        isASCII = isASCII && bytes.isASCII
        return LineDigest(bytes)
      }
      // Order matters: each step multiplies what came before.
      high = (high ^ checksum.high) &* 0x9E37_79B9_7F4A_7C15
      low = (low ^ checksum.low) &* 0xC2B2_AE3D_27D4_EB4F
      high ^= high >> 31
      low ^= low >> 29
    }
    digest = LineDigest(high: high, low: low)
    self.isASCII = isASCII
  }

  init(count: Int, digest: LineDigest, isASCII: Bool) {
    self.count = count
    self.digest = digest
    self.isASCII = isASCII
  }
}

/// The last run's lookups of the server's checksums in its scan, kept in the partition's
/// cache folder beside the listing's snapshot (`listing-presence`): for each asset of the listing, whether the scan had its
/// checksum. The next run against the same checksums, whose scan is recorded by its
/// difference from that scan's snapshot, needs only the lookups of checksums whose presence
/// can differ — those of files that changed, appeared or went, which recording asked about
/// anyway — and not a table of a million checksums and a million lookups in it.
///
/// A checksum no changed file carries is in this scan exactly when it was in the last: a file
/// that has it and did not change is in both, and a file that changed or went is listed by
/// the difference. So the answers carried over are those the lookups would give, when the
/// keys match: the snapshot the scan was compared with is the one the file was made for,
/// and the listing has the same checksums in the same order. Anything else — another
/// snapshot, another listing, a damaged file, a scan recorded whole, a checksum that is not
/// ASCII (whose `String` equality is not byte equality) — makes every lookup afresh.
///
/// The file: a magic line and a version, the snapshot's length and digest, the listing's
/// count and digest (64-bit numbers, little-endian), one bit per asset, then the digest of all
/// before it (as the snapshot files end).
package struct PresenceCache: Sendable, SnapshotFile.Encoding {
  static let magic = Array("cairn-listing-presence\n".utf8)
  static let version: UInt32 = 1

  let scan: ScanSnapshotStore.FileKey
  let listing: ListingKey
  let present: [Bool]

  init(scan: ScanSnapshotStore.FileKey, listing: ListingKey, present: [Bool]) {
    self.scan = scan
    self.listing = listing
    self.present = present
  }

  package func encode(into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (
    length: Int, digest: UInt64
  ) {
    try SnapshotFile.encode(into: sink) { writer in
      try writer.append(Self.magic)
      try writer.append(Self.version)
      try writer.append(UInt64(scan.length))
      try writer.append(scan.digest)
      try writer.append(UInt64(listing.count))
      try writer.append(listing.digest.high)
      try writer.append(listing.digest.low)
      var bits = [UInt8](repeating: 0, count: (present.count + 7) / 8)
      for (index, isPresent) in present.enumerated() where isPresent {
        bits[index >> 3] |= 1 << UInt8(index & 7)
      }
      try writer.append(bits)
    }
  }

  /// Reads the file at `path`; nil when there is none, or it is damaged or of another version.
  static func load(_ path: String) -> PresenceCache? {
    guard let bytes = SnapshotFile.contents(path),
      bytes.withUnsafeBytes(SnapshotFile.hasOwnDigest)
    else { return nil }
    return bytes.withUnsafeBytes { raw -> PresenceCache? in
      var reader = SnapshotFile.Reader(UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 8]))
      guard reader.bytes(magic.count)?.elementsEqual(magic) == true,
        reader.integer() == version,
        // A length beyond Int is damage, not a trap (a crash the fuzzer found).
        let scanLength = reader.word().flatMap(Int.init(exactly:)), let scanDigest = reader.word(),
        let count = reader.word(), let high = reader.word(), let low = reader.word(),
        count <= UInt64(Int.max / 8), let bits = reader.bytes((Int(count) + 7) / 8),
        reader.atEnd
      else { return nil }
      let present = (0..<Int(count)).map { bits[bits.startIndex + ($0 >> 3)] >> ($0 & 7) & 1 == 1 }
      return PresenceCache(
        scan: ScanSnapshotStore.FileKey(length: scanLength, digest: scanDigest),
        listing: ListingKey(
          count: Int(count), digest: LineDigest(high: high, low: low), isASCII: true),
        present: present)
    }
  }

  /// The lookups for `files` and `assets` (whose key is `listing`, and `hashes` their
  /// checksums' `ByteHashFilter.hash`), carried over from this file's with `recorded` (what
  /// recording `files` found); nil unless the keys match (see the type).
  func carriedOver(
    files: ScanFiles, assets: ServerAssets, listing: ListingKey, hashes: [UInt64],
    recorded: ScanSnapshotStore.Recording
  ) -> ScanLookup? {
    guard listing == self.listing, listing.isASCII, recorded.previous == scan,
      hashes.count == assets.count, files.checksumsAreASCII,
      recorded.listed.keys.allSatisfy({ $0.string.withBytes(\.isASCII) })
    else { return nil }
    let filter = ByteHashFilter(Set(recorded.listed.keys))
    var present = self.present
    for (index, hash) in hashes.enumerated() where filter.mayContain(hash: hash) {
      assets.withChecksum(index) { checksum in
        if let listed = recorded.listed[ByteKey(String(decoding: checksum, as: UTF8.self))] {
          present[index] = listed
        }
      }
    }
    var known: [String: Bool] = [:]
    for (key, listed) in recorded.listed { known[key.string] = listed }
    return ScanLookup(assetIsPresent: present, known: known, files: files, assets: assets)
  }
}

/// How the engine's lookups of the server's checksums in the scan are had: made (on the
/// listing's core, while the scan is recorded), or carried over from the last run's
/// (`PresenceCache`) once recording the scan has said what changed.
package enum ScanLookupPlan: Sendable {
  case made(ScanLookup, ListingKey)
  /// With each asset's checksum's `ByteHashFilter.hash`, made on this core too.
  case carryOver(PresenceCache, ListingKey, hashes: [UInt64])

  /// Carries the lookups over when the partition's `PresenceCache` was made for this listing
  /// and for the snapshot recording will compare the scan with (`snapshot`, read ahead);
  /// makes them otherwise. The scan's table of checksums is made while `listing` is still
  /// being read, unless a cache for this snapshot promises that it will not be needed.
  package static func prepare(
    files: ScanFiles, listing assets: () throws(CairnError) -> ServerAssets,
    cacheFolder: String, snapshot: ScanSnapshotPreload?
  ) throws(CairnError) -> ScanLookupPlan {
    var cache: PresenceCache?
    if files.checksumsAreASCII, let scan = snapshot?.lastScan,
      let kept = PresenceCache.load(
        CairnPaths.listingPresence(inPartitionCacheFolder: cacheFolder)),
      kept.scan == scan.key
    {
      cache = kept
    }
    let table = cache == nil ? ScanLookup.Table(files) : nil
    let assets = try assets()
    let listing = ListingKey(assets)
    if let cache, listing.isASCII, cache.listing == listing {
      let hashes = (0..<assets.count).map { assets.withChecksum($0, ByteHashFilter.hash) }
      return .carryOver(cache, listing, hashes: hashes)
    }
    return .made(ScanLookup(table ?? ScanLookup.Table(files), assets: assets), listing)
  }

  package var listing: ListingKey {
    switch self {
    case .made(_, let listing), .carryOver(_, let listing, _): listing
    }
  }
}

extension ScanLookupPlan {
  /// The lookups for `files` and `assets` as this plan has them: carried over when the
  /// partition's last recording (this process's `recordScan` of `files`) compared them with
  /// the snapshot the cache was made for, made here otherwise.
  func lookup(files: ScanFiles, assets: ServerAssets, recordedIn state: some ReconcileAccess)
    -> ScanLookup
  {
    switch self {
    case .made(let lookup, _):
      return lookup
    case .carryOver(let cache, let listing, let hashes):
      if let recorded = state.lastRecording,
        let lookup = cache.carriedOver(
          files: files, assets: assets, listing: listing, hashes: hashes, recorded: recorded)
      {
        return lookup
      }
      return ScanLookup(files: files, assets: assets)
    }
  }
}

extension PresenceCache {
  /// Keeps `lookup` in the partition's cache folder `cacheFolder` for the next run when the
  /// partition's last recording (this process's, in `state`) wrote the snapshot it was made
  /// for; removes the last one otherwise. A file that cannot be written costs the next run
  /// only the shortcut.
  static func keep(
    _ lookup: ScanLookup, listing: ListingKey, recordedIn state: some ReconcileAccess,
    cacheFolder: String
  ) {
    let path = CairnPaths.listingPresence(inPartitionCacheFolder: cacheFolder)
    try? CairnPaths.makePrivateDirectory(cacheFolder)
    guard let written = state.lastRecording?.written, listing.isASCII,
      lookup.assetIsPresent.count == listing.count,
      (try? PresenceCache(scan: written, listing: listing, present: lookup.assetIsPresent)
        .write(to: path)) != nil
    else {
      unlink(path)
      return
    }
  }
}
