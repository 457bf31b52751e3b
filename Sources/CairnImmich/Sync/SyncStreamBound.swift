/// How far one `POST /api/sync/stream` may go before it is a server that streams for ever.
///
/// The body is read as it arrives, so nothing else limits it: a server that never sends
/// `SyncCompleteV1`, or never ends a line, would keep cairn-fetch reading (and the pending line
/// growing) until the disk or the memory gives out. A stream that breaks either bound is
/// stopped with a server error; the lines that arrived whole before it stay committed and
/// acknowledged, so the next run resumes after them.
struct SyncStreamBound {
  /// Bytes of one line at most. An asset line is about a kilobyte; a megabyte is no asset.
  static let maximumLineBytes = 1 << 20

  let label: String
  /// Lines of one stream at most (`CAIRN_SYNC_MAX_LINES`).
  let maximumLines: Int

  /// Checks the count of lines received so far.
  func check(lines: Int) throws(ImmichError) {
    guard lines <= maximumLines else {
      throw failure(
        "more than \(maximumLines) lines in one stream (CAIRN_SYNC_MAX_LINES)")
    }
  }

  /// Checks the bytes of the line still waiting for its newline.
  func check(pendingBytes: Int, line: Int) throws(ImmichError) {
    guard pendingBytes <= Self.maximumLineBytes else {
      throw failure("line \(line) is longer than \(Self.maximumLineBytes) bytes")
    }
  }

  private func failure(_ what: String) -> ImmichError {
    ImmichError(.server, "\(label): \(what); the stream is stopped rather than trusted")
  }
}
