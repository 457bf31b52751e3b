import CairnJSON
import CairnRecords
import CairnSettings
import CairnState
import CairnStream
import CairnSupport
import Foundation

/// A server listing as cairn-reconcile reads it: the server's assets and identity, from a file
/// of `cairn-fetch` output or a live run of it. (What `cairn-fetch` lists is CairnImmich's
/// `ServerListing`.)
package struct ListingInput: Sendable {
  package var identity: ServerIdentity
  /// The assets of the identity's user: a listing that strays into a partner's library (an
  /// older cairn-fetch, a hand-made file) must not make their assets candidates.
  package var assets: ServerAssets
  /// Asset lines known from the last listing without parsing (see `read`).
  package var recognised = 0

  /// Reads a complete `cairn-fetch` stream; `identified` is told the server's identity as
  /// soon as the header names it. With `partitions` (where each partition's cache lives), the
  /// lines of the last listing read for the same user are known without parsing, and this
  /// listing's are kept for the next (`ListingSnapshot`).
  package static func read(
    _ stream: RecordStream, identified: (ServerIdentity) -> Void = { _ in },
    partitions: CairnPaths? = nil
  ) throws(CairnError) -> ListingInput {
    guard let identity = stream.header.server else {
      throw CairnError(
        .malformedInput, "the server listing's header names no server (is it cairn-fetch output?)",
        at: stream.reader.sourceName)
    }
    identified(identity)
    let lines = ListingLines(
      reader: stream.reader, userId: identity.partition.userId,
      cacheDirectory: partitions?.partitionCacheDirectory(identity.partition))
    let known: ((UnsafeBufferPointer<UInt8>) -> Bool)? =
      lines.follower == nil ? nil : { lines.recognise($0) }
    while let line = try stream.next(skipping: known, claimedAs: AssetRecord.recordType) {
      guard line.type == AssetRecord.recordType else { continue }
      do {
        try lines.check(line.object, bytes: line.bytes)
      } catch {
        throw CairnError(
          .malformedInput, "invalid \(line.type) record: \(error)",
          at: "\(stream.reader.sourceName):\(line.number)")
      }
    }
    try stream.requireComplete()
    lines.recorder?.finish()
    return ListingInput(
      identity: identity, assets: lines.assets, recognised: lines.follower?.recognised ?? 0)
  }

  /// Reads `path` (cairn-fetch output).
  package static func read(
    path: String, identified: (ServerIdentity) -> Void = { _ in }, partitions: CairnPaths? = nil
  ) throws(CairnError) -> ListingInput {
    let reader: RecordReader
    do {
      reader = try RecordReader(path: path)
    } catch {
      throw CairnError(.malformedInput, error.message, at: path)
    }
    return try read(RecordStream(reader: reader), identified: identified, partitions: partitions)
  }

  /// Runs the sibling `cairn-fetch` with `arguments` and reads its listing.
  package static func fetch(
    _ arguments: [String], identified: (ServerIdentity) -> Void = { _ in },
    partitions: CairnPaths? = nil
  ) throws(CairnError) -> ListingInput {
    let tool = try SiblingTool("cairn-fetch", arguments)
    let listing: Result<ListingInput, CairnError>
    do {
      listing = .success(
        try read(
          RecordStream(reader: tool.reader()), identified: identified, partitions: partitions))
    } catch {
      listing = .failure(error)
    }
    // Its own failure explains a broken stream better than the stream does.
    try tool.finish()
    return try listing.get()
  }

  /// Only the identity: `--server FILE`'s header, or `cairn-fetch identity`.
  package static func identity(serverFile: String?, fetchArguments: [String] = [])
    throws(CairnError) -> ServerIdentity
  {
    if let serverFile {
      let reader: RecordReader
      do {
        reader = try RecordReader(path: serverFile)
      } catch {
        throw CairnError(.malformedInput, error.message, at: serverFile)
      }
      let stream = try RecordStream(reader: reader)
      guard let identity = stream.header.server else {
        throw CairnError(
          .malformedInput, "the header names no server (is it cairn-fetch output?)", at: serverFile)
      }
      return identity
    }
    let tool = try SiblingTool("cairn-fetch", ["identity"] + fetchArguments)
    var identity: ServerIdentity?
    var failure: CairnError?
    do {
      let stream = try RecordStream(reader: tool.reader())
      identity = stream.header.server
      while try stream.next() != nil {}
    } catch {
      failure = error
    }
    try tool.finish()
    if let failure { throw failure }
    guard let identity else {
      throw CairnError(.malformedInput, "cairn-fetch identity printed no server identity")
    }
    return identity
  }
}

/// The asset lines of one listing as they are read: checked, kept when they are the user's
/// (only where each lies, from a file, which is read again for the few that become
/// candidates), recognised from the last listing when it is at hand, and recorded for the next.
private final class ListingLines {
  let userId: String
  let reader: RecordReader
  let file: ListingFile?
  var assets: ServerAssets
  var follower: ListingSnapshot.Follower?
  let recorder: ListingSnapshot.Recorder?

  init(reader: RecordReader, userId: String, cacheDirectory: String?) {
    self.reader = reader
    self.userId = userId
    file = reader.duplicateDescriptor().map {
      ListingFile(descriptor: $0, path: reader.sourceName)
    }
    assets = file.map(ServerAssets.init(readingBackFrom:)) ?? ServerAssets()
    let path = cacheDirectory.map(CairnPaths.listingSnapshot(inPartitionCacheFolder:))
    let stored = path.flatMap { ListingSnapshot.Stored.load($0, userId: userId) }
    follower = stored.map(ListingSnapshot.Follower.init)
    if let cacheDirectory { try? CairnPaths.makePrivateDirectory(cacheDirectory) }
    recorder = path.map { ListingSnapshot.Recorder(path: $0, userId: userId, previous: stored) }
  }

  /// Takes `line` as it was in the last listing, when it is one of its lines (its digest says
  /// so): what checking it found then holds now.
  func recognise(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let digest = LineDigest(line)
    guard let entry = follower?.entry(for: digest) else { return false }
    if entry.isMine {
      assets.append(
        recognised: line, checksum: entry.checksum, isTrashed: entry.isTrashed,
        at: place(line.count, digest))
    }
    recorder?.add(entry)
    return true
  }

  /// Checks a parsed asset line as decoding it would, and keeps it when it is the user's.
  func check(_ object: JSONObject, bytes: [UInt8]) throws(RecordError) {
    let mine = isMine(object)
    var entry = ListingSnapshot.Entry(
      digest: bytes.withUnsafeBufferPointer(LineDigest.init), checksum: nil, isTrashed: false,
      isMine: mine)
    if mine {
      (entry.checksum, entry.isTrashed) = try assets.append(
        object, at: place(bytes.count, entry.digest))
    } else {
      try AssetRecord.check(object)
    }
    recorder?.add(entry)
  }

  /// Whether the owner is the partition's user as the partition spells it (lower case),
  /// without making a million strings in the common case, where the bytes are the same. A
  /// line without an owner counts as the user's: `ServerAssets.append` refuses it.
  private func isMine(_ object: JSONObject) -> Bool {
    guard let owner = object["ownerId"] else { return true }
    return owner.withUnescapedBytes { userId.withBytes($0.sameBytes) } == true
      || owner.string.map { $0 == userId || $0.lowercased() == userId } == true
  }

  /// Where the line just read lies in the file, when the listing is one.
  private func place(_ length: Int, _ digest: LineDigest) -> ServerAssets.LinePlace? {
    guard file != nil else { return nil }
    return ServerAssets.LinePlace(offset: reader.lastLineOffset, length: length, digest: digest)
  }
}
