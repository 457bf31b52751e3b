import AsyncHTTPClient
import CairnJSON
import CairnRecords
import CairnStream
import Foundation
import NIOCore

/// One line of `POST /api/sync/stream`: `{"type": …, "data": {…}, "ack": "…"}`.
package struct SyncLine: Sendable {
  /// The entity type: `AssetV2`, `AssetV1`, `AssetDeleteV1`, `SyncResetV1`, `SyncCompleteV1`…
  package var type: String
  package var data: JSONObject
  /// `Type|updateId`, to post back once the line is safely stored.
  package var ack: String?
}

extension ImmichClient {
  /// `POST /api/sync/stream {types, reset}` (session only): hands each complete line to
  /// `handle`, in order, as it arrives.
  ///
  /// Returns the number of lines when the body ended normally. A body cut off midway throws
  /// a `.transport` error, and one longer than `SyncStreamBound` allows a `.server` error;
  /// the lines handled before either were all complete (a partial last line is never handed
  /// over), so a caller can keep them.
  @discardableResult
  package func syncStream(
    types: [String], reset: Bool, handle: (SyncLine) async throws -> Void
  ) async throws -> Int {
    let label = "POST /api/sync/stream"
    guard
      let body = try? JSONSerialization.data(withJSONObject: ["types": types, "reset": reset])
    else { throw ImmichError(.configuration, "\(label): cannot encode the request body") }
    let call = HTTPCall(
      method: .POST, url: url("/sync/stream"), credential: credential, body: Array(body),
      retry: .safe, label: label)
    let response = try await transport.open(call)
    let status = Int(response.status.code)
    let contentType = response.headers.first(name: "content-type")
    guard status == 200, !(contentType?.lowercased().contains("text/html") ?? false) else {
      let bytes = (try? await response.body.collect(upTo: 1 << 20)).map { Array(buffer: $0) } ?? []
      let answer = HTTPAnswer(status: status, contentType: contentType, body: bytes)
      throw ServerErrors.error(for: answer, label: label, credential: credential, apiBase: apiBase)
    }
    let bound = SyncStreamBound(label: label, maximumLines: options.syncLineLimit)
    var pending: [UInt8] = []
    var lines = 0
    do {
      for try await buffer in response.body {
        pending.append(contentsOf: buffer.readableBytesView)
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
          let bytes = Array(pending[start..<newline])
          start = newline + 1
          if bytes.isEmpty { continue }
          lines += 1
          try bound.check(lines: lines)
          try await handle(try Self.parseSyncLine(bytes, number: lines))
        }
        if start > 0 { pending.removeFirst(start) }
        try bound.check(pendingBytes: pending.count, line: lines + 1)
      }
    } catch let error as ImmichError {
      throw error
    } catch let error as CairnError {
      throw error
    } catch {
      throw ImmichError(
        .transport,
        "\(label): the stream was cut off after \(lines) lines"
          + " (\(Failure.from(error, timeout: options.requestTimeout).reason))",
        request: label)
    }
    if !pending.isEmpty {
      throw ImmichError(
        .transport, "\(label): the stream ended inside line \(lines + 1)", request: label)
    }
    return lines
  }

  static func parseSyncLine(_ bytes: [UInt8], number: Int) throws(ImmichError) -> SyncLine {
    guard let object = try? JSONObject(parsing: bytes), let type = object["type"]?.string else {
      throw ImmichError(.server, "POST /api/sync/stream: line \(number) is not a sync record")
    }
    let data = object["data"]?.object ?? (try? JSONObject(parsing: Array("{}".utf8)))
    guard let data else {
      throw ImmichError(.server, "POST /api/sync/stream: line \(number) has no data")
    }
    return SyncLine(type: type, data: data, ack: object["ack"]?.string)
  }
}

extension SyncLine {
  /// The asset of an `AssetV2` (v3) or `AssetV1` (v2) line. Trash shows as `deletedAt`.
  package func assetRecord() throws(ImmichError) -> AssetRecord {
    func text(_ key: String) -> String? {
      guard let value = data[key], !value.isNull else { return nil }
      return value.string
    }
    guard let id = text("id"), let ownerId = text("ownerId"), let checksum = text("checksum")
    else {
      throw ImmichError(
        .server, "POST /api/sync/stream: \(type) line without id, owner or checksum")
    }
    return AssetRecord(
      id: id.lowercased(), checksum: checksum, originalFileName: text("originalFileName") ?? "",
      assetType: text("type") ?? "OTHER", visibility: text("visibility") ?? "timeline",
      livePhotoVideoId: text("livePhotoVideoId")?.lowercased(),
      isTrashed: text("deletedAt") != nil, ownerId: ownerId.lowercased(),
      fileCreatedAt: text("fileCreatedAt").flatMap { Date(iso8601: $0) },
      isFavorite: data["isFavorite"]?.bool ?? false, libraryId: text("libraryId")?.lowercased())
  }
}
