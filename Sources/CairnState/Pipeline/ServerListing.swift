import CairnCore
import Foundation

/// The server's assets and identity, from a file of `cairn-fetch` output or a live run of it.
public struct ServerListing: Sendable {
  public var identity: ServerIdentity
  public var assets: [AssetRecord]

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
    var assets: [AssetRecord] = []
    while let line = try stream.next() {
      guard line.type == AssetRecord.recordType else { continue }
      assets.append(try stream.decode(AssetRecord.self, line))
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
