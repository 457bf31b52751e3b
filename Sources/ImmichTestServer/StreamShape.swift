import Foundation
import Hummingbird

/// How the body of a sync stream is sent: whole, or bent by a fault (cut off, or never ending).
enum StreamShape: Sendable, Equatable {
  case whole
  /// The first K lines, then the connection drops without the final chunk.
  case truncated(afterLines: Int)
  /// The lines but `SyncCompleteV1`, over and over.
  case endlessLines
  /// A line that never ends.
  case endlessLine

  /// The shape a fault asks for; anything else sends the stream whole.
  init(_ action: Fault.Action?) {
    switch action {
    case .truncateStream(let lines)?: self = .truncated(afterLines: lines)
    case .endlessStream?: self = .endlessLines
    case .endlessLine?: self = .endlessLine
    default: self = .whole
    }
  }

  /// An endless body stops on its own after this long, should its client never hang up.
  static let endlessLimit: Duration = .seconds(120)

  func write(_ lines: [ImmichJSON], to writer: inout any ResponseBodyWriter) async throws {
    let texts = lines.map { $0.serialized + "\n" }
    switch self {
    case .whole:
      try await Self.write(texts[...], to: &writer)
      try await writer.finish(nil)
    case .truncated(let after):
      try await Self.write(texts.prefix(after), to: &writer)
      // Throwing mid-body makes Hummingbird close the connection without the final chunk:
      // the client sees a stream cut off after `after` lines.
      throw ImmichTestServer.ServerError.streamTruncated
    case .endlessLines:
      var repeated = zip(lines, texts).filter { $0.0["type"]?.stringValue != "SyncCompleteV1" }
        .map(\.1)
      if repeated.isEmpty { repeated = [#"{"type":"SyncAckV1","data":{}}"# + "\n"] }
      let chunk = ByteBuffer(string: repeated.joined())
      try await Self.repeatUntilGone(chunk, to: &writer)
    case .endlessLine:
      try await writer.write(ByteBuffer(string: #"{"type":"AssetV1","data":{"originalFileName":""#))
      let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 * 1024)
      try await Self.repeatUntilGone(chunk, to: &writer)
    }
  }

  private static func write(_ texts: ArraySlice<String>, to writer: inout any ResponseBodyWriter)
    async throws
  {
    var start = texts.startIndex
    while start < texts.endIndex {
      let end = min(texts.endIndex, start + 256)
      try await writer.write(ByteBuffer(string: texts[start..<end].joined()))
      start = end
    }
  }

  /// Writes `chunk` again and again until the client goes away (the write throws) or the
  /// limit passes; then drops the connection, since the body was never whole.
  private static func repeatUntilGone(_ chunk: ByteBuffer, to writer: inout any ResponseBodyWriter)
    async throws
  {
    let deadline = ContinuousClock.now + endlessLimit
    while ContinuousClock.now < deadline && !Task.isCancelled {
      try await writer.write(chunk)
    }
    throw ImmichTestServer.ServerError.streamTruncated
  }
}
