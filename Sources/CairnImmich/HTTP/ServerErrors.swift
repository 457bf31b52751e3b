import Foundation

/// Turns an unsuccessful answer into an `ImmichError` a person can act on.
///
/// Error bodies differ by version: v3 sends `{"message": "…"}` (plus `errors` for validation),
/// v2 sends `{"message": "…" | ["…"], "error": "Bad Request", "statusCode": 400}`. Both read
/// the same here.
enum ServerErrors {
  static func error(
    for answer: HTTPAnswer, label: String, credential: Credential, apiBase: String
  ) -> ImmichError {
    let message = serverMessage(answer)
    let said = message.map { " (\($0))" } ?? ""
    let status = answer.status
    func make(_ kind: ImmichError.Kind, _ text: String) -> ImmichError {
      ImmichError(kind, text, httpStatus: status, serverMessage: message, request: label)
    }
    if answer.isHTML || status == 406 {
      return make(
        .notImmich,
        "not an Immich API URL: \(apiBase) answered \(label) with a web page;"
          + " set IMMICH_URL to the server's address (with or without /api)")
    }
    switch status {
    case 401:
      switch credential {
      case .apiKey:
        return make(.unauthorized, "the server rejected the API key\(said): check IMMICH_API_KEY")
      case .session:
        return make(
          .unauthorized,
          "the server rejected the saved session\(said): run 'cairn-fetch login' again")
      case .none:
        return make(.unauthorized, "\(label): authentication required\(said)")
      }
    case 403:
      if let message, message.hasPrefix("Missing required permission: ") {
        let permission = message.dropFirst("Missing required permission: ".count)
        return make(
          .forbidden,
          "the API key lacks the permission '\(permission)' (\(label)): in Immich, open"
            + " Account Settings → API Keys, edit this key and grant '\(permission)'")
      }
      return make(.forbidden, "\(label): refused\(said)")
    case 400, 409, 413, 422:
      return make(.rejected, "\(label): \(message ?? "the server refused the request (\(status))")")
    case 404:
      return make(
        .notImmich,
        "\(label): not found\(said): is IMMICH_URL the address of an Immich server"
          + " (version 2.7 or later)?")
    case 500...599:
      let tries = answer.attempts > 1 ? " after \(answer.attempts) attempts" : ""
      return make(.server, "\(label): server error \(status)\(said)\(tries)")
    default:
      return make(.server, "\(label): unexpected HTTP status \(status)\(said)")
    }
  }

  /// The `message` of an error body, whichever version wrote it; nil when there is none.
  static func serverMessage(_ answer: HTTPAnswer) -> String? {
    guard !answer.body.isEmpty,
      let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
    else { return nil }
    var text: String?
    if let message = object["message"] as? String {
      text = message
    } else if let messages = object["message"] as? [String] {
      text = messages.joined(separator: "; ")
    }
    // v3 validation failures list their issues apart from the message.
    if let issues = object["errors"] as? [[String: Any]], !issues.isEmpty {
      let details = issues.compactMap { issue -> String? in
        guard let message = issue["message"] as? String else { return nil }
        let path = (issue["path"] as? [Any])?.map { "\($0)" }.joined(separator: ".") ?? ""
        return path.isEmpty ? message : "\(path): \(message)"
      }
      if !details.isEmpty {
        text = (text.map { $0 + ": " } ?? "") + details.joined(separator: "; ")
      }
    }
    return text.map(oneLine)
  }

  static func oneLine(_ text: String) -> String {
    let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return line.count > 300 ? String(line.prefix(300)) + "…" : line
  }
}
