import CairnCore
import Foundation

/// The server's assets and identity, from a file of `cairn-fetch` output or a live run of it.
public struct ServerListing: Sendable {
  public var identity: ServerIdentity
  /// The assets of the identity's user: a listing that strays into a partner's library (an
  /// older cairn-fetch, a hand-made file) must not make their assets candidates.
  public var assets: ServerAssets

  /// Reads a complete `cairn-fetch` stream; `identified` is told the server's identity as
  /// soon as the header names it.
  public static func read(
    _ stream: RecordStream, identified: (ServerIdentity) -> Void = { _ in }
  ) throws(CairnError) -> ServerListing {
    guard let identity = stream.header.server else {
      throw CairnError(
        .malformedInput, "the server listing's header names no server (is it cairn-fetch output?)",
        at: stream.reader.sourceName)
    }
    identified(identity)
    let userId = identity.partition.userId
    var assets = ServerAssets()
    while let line = try stream.next() {
      guard line.type == AssetRecord.recordType else { continue }
      do {
        // The owner as the partition spells it (lower case), without making a million
        // strings in the common case, where the bytes are the same.
        let owner = line.object["ownerId"]
        let mine =
          owner.map { owner in
            owner.withUnescapedBytes { userId.withBytes($0.sameBytes) } == true
              || owner.string.map { $0 == userId || $0.lowercased() == userId } == true
          } ?? true  // no owner: `append` refuses the record
        if mine {
          try assets.append(line.object)
        } else {
          try AssetRecord.check(line.object)
        }
      } catch {
        throw CairnError(
          .malformedInput, "invalid \(line.type) record: \(error)",
          at: "\(stream.reader.sourceName):\(line.number)")
      }
    }
    try stream.requireComplete()
    return ServerListing(identity: identity, assets: assets)
  }

  /// Reads `path` (cairn-fetch output).
  public static func read(
    path: String, identified: (ServerIdentity) -> Void = { _ in }
  ) throws(CairnError) -> ServerListing {
    let reader: RecordReader
    do {
      reader = try RecordReader(path: path)
    } catch {
      throw CairnError(.malformedInput, error.message, at: path)
    }
    return try read(RecordStream(reader: reader), identified: identified)
  }

  /// Runs the sibling `cairn-fetch` with `arguments` and reads its listing.
  public static func fetch(
    _ arguments: [String], identified: (ServerIdentity) -> Void = { _ in }
  ) throws(CairnError) -> ServerListing {
    let tool = try SiblingTool("cairn-fetch", arguments)
    let listing: Result<ServerListing, CairnError>
    do {
      listing = .success(
        try read(RecordStream(reader: tool.reader()), identified: identified))
    } catch {
      listing = .failure(error)
    }
    // Its own failure explains a broken stream better than the stream does.
    try tool.finish()
    return try listing.get()
  }

  /// Only the identity: `--server FILE`'s header, or `cairn-fetch --identity`.
  public static func identity(serverFile: String?, fetchArguments: [String] = [])
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
    let tool = try SiblingTool("cairn-fetch", ["--identity"] + fetchArguments)
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
      throw CairnError(.malformedInput, "cairn-fetch --identity printed no server identity")
    }
    return identity
  }
}
