import Foundation
import Hummingbird

/// `/__testserver/*`: drives the double from outside the process (demo scripts, out-of-process
/// tests). Not under `/api`, never logged, never subject to faults.
///
/// - `GET  /__testserver/requests` — the request log as a JSON array
/// - `POST /__testserver/reset-log` — empties the log
/// - `GET  /__testserver/state` — counts, trashed ids, tags, sessions
/// - `GET  /__testserver/assets` — every asset row
/// - `POST /__testserver/faults` — `{method?, path, count?, status?, body?, delayMs?, reset?,
///   truncateAfterLines?, endless?}` (`endless`: `"lines"` or `"line"`); `DELETE` clears them
/// - `POST /__testserver/advance-clock` — `{seconds}` or `{days}`
/// - `POST /__testserver/pending-reset` — `{sessionId?}`: flag one or every session
/// - `POST /__testserver/run-jobs` — runs the purge job; answers `{purged: [ids]}`
extension ImmichTestServer {
  func control(_ request: APIRequest) -> Response {
    let body = request.json ?? .object([])
    let route = "\(request.method) \(request.path)"
    switch route {
    case "GET /__testserver/requests":
      return Self.controlJSON(.array(log.all.map(Self.json)))
    case "POST /__testserver/reset-log":
      log.clear()
      return Self.controlJSON(["ok": true])
    case "GET /__testserver/state":
      return Self.controlJSON(stateSummary())
    case "GET /__testserver/assets":
      return Self.controlJSON(.array(state.assets.map(Self.json)))
    case "POST /__testserver/faults":
      guard let fault = Self.fault(from: body) else {
        return Self.controlJSON(
          [
            "error": "need path and one of status, delayMs, reset, truncateAfterLines, endless"
          ], status: 400)
      }
      faults.inject(fault)
      return Self.controlJSON(["ok": true])
    case "DELETE /__testserver/faults":
      faults.clear()
      return Self.controlJSON(["ok": true])
    case "POST /__testserver/advance-clock":
      let seconds =
        (body["seconds"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? 0)
        + Double(body["days"]?.intValue ?? 0) * 86_400
      state.advanceClock(by: seconds)
      return Self.controlJSON(["now": Rendering.date(state.now)])
    case "POST /__testserver/pending-reset":
      let wanted = body["sessionId"]?.stringValue
      for session in state.sessions where wanted == nil || session.id == wanted {
        state.setPendingSyncReset(sessionID: session.id)
      }
      return Self.controlJSON(["ok": true])
    case "POST /__testserver/run-jobs":
      let purged = state.runQueuedJobs()
      return Self.controlJSON(["purged": .array(purged.map(ImmichJSON.string))])
    default:
      return Self.controlJSON(["error": .string("unknown control route \(route)")], status: 404)
    }
  }

  static func fault(from body: ImmichJSON) -> Fault? {
    guard let path = body["path"]?.stringValue else { return nil }
    let method = body["method"]?.stringValue
    let count = body["count"]?.intValue ?? 1
    let action: Fault.Action
    if let status = body["status"]?.intValue {
      action = .status(status, body: body["body"]?.stringValue ?? "")
    } else if let ms = body["delayMs"]?.intValue {
      action = .delay(seconds: Double(ms) / 1000)
    } else if body["reset"]?.boolValue == true {
      action = .reset
    } else if let lines = body["truncateAfterLines"]?.intValue {
      action = .truncateStream(afterLines: lines)
    } else if let endless = body["endless"]?.stringValue, endless == "lines" || endless == "line" {
      action = endless == "lines" ? .endlessStream : .endlessLine
    } else {
      return nil
    }
    return Fault(method: method, path: path, count: count, action: action)
  }

  func stateSummary() -> ImmichJSON {
    let assets = state.assets
    let trashed = assets.filter { $0.status == .trashed }.map(\.id).sorted()
    return [
      "version": .string(state.version.rawValue),
      "now": Rendering.date(state.now),
      "assets": .number(Double(assets.count)),
      "trashed": .number(Double(trashed.count)),
      "trashedIds": .array(trashed.map(ImmichJSON.string)),
      "hardDeletedIds": .array(state.deletedAssetIDs.map(ImmichJSON.string)),
      "pendingPurgeIds": .array(state.pendingPurgeIDs.sorted().map(ImmichJSON.string)),
      "tags": .array(
        state.tags.map {
          ["id": .string($0.id), "value": .string($0.value), "inClosure": .bool($0.inClosure)]
        }),
      "tagAssignments": .array(
        state.tagAssignments.map { ["tagId": .string($0.tagId), "assetId": .string($0.assetId)] }),
      "sessions": .array(
        state.sessions.map { s in
          [
            "id": .string(s.id), "userId": .string(s.userId),
            "isPendingSyncReset": .bool(s.isPendingSyncReset),
            "checkpoints": .object(
              s.checkpoints.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }),
          ]
        }),
    ]
  }

  static func json(_ r: RecordedRequest) -> ImmichJSON {
    [
      "sequence": .number(Double(r.sequence)), "method": .string(r.method), "path": .string(r.path),
      "query": .object(r.query.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }),
      "body": .string(r.body), "contentType": ImmichJSON.from(r.contentType),
      "credential": [
        "kind": .string(r.credential.kind.rawValue), "source": ImmichJSON.from(r.credential.source),
        "name": ImmichJSON.from(r.credential.name), "valid": .bool(r.credential.valid),
      ],
      "status": ImmichJSON.from(r.status), "fault": ImmichJSON.from(r.fault),
      "mutating": .bool(r.isMutating),
    ]
  }

  static func json(_ a: AssetSnapshot) -> ImmichJSON {
    [
      "id": .string(a.id), "ownerId": .string(a.ownerId), "checksum": .string(a.checksum),
      "originalFileName": .string(a.originalFileName), "type": .string(a.type.rawValue),
      "visibility": .string(a.visibility.rawValue),
      "livePhotoVideoId": ImmichJSON.from(a.livePhotoVideoId),
      "fileCreatedAt": Rendering.date(a.fileCreatedAt), "deletedAt": Rendering.date(a.deletedAt),
      "status": .string(a.status.rawValue), "libraryId": ImmichJSON.from(a.libraryId),
      "isOffline": .bool(a.isOffline), "originalPath": .string(a.originalPath),
    ]
  }

  static func controlJSON(_ json: ImmichJSON, status: Int = 200) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(
      status: .init(code: status), headers: headers,
      body: .init(byteBuffer: ByteBuffer(string: json.serialized)))
  }
}
