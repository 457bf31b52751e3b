/// An error the server answers with. Rendered per version by `ErrorBody`.
struct APIError: Error, Sendable {
  var status: Int
  var message: String
  /// Non-empty for zod validation failures, which have their own body shape.
  var issues: [ValidationIssue] = []

  static func badRequest(_ message: String) -> APIError { APIError(status: 400, message: message) }
  static func unauthorized(_ message: String) -> APIError {
    APIError(status: 401, message: message)
  }
  static func forbidden(_ message: String) -> APIError { APIError(status: 403, message: message) }

  static let authenticationRequired = unauthorized("Authentication required")

  /// The server uses 400, not 404 or 403, when an id is unknown or belongs to someone else.
  static func noAccess(_ permission: String) -> APIError {
    badRequest("Not found or no \(permission) access")
  }

  static func validation(_ issues: [ValidationIssue]) -> APIError {
    APIError(status: 400, message: "Validation failed", issues: issues)
  }
}

/// One zod issue: `{code, path, message, …}`.
struct ValidationIssue: Sendable {
  var code: String
  var path: [ImmichJSON]
  var message: String
  var extra: [(String, ImmichJSON)] = []

  var json: ImmichJSON {
    .object(
      [("code", .string(code))] + extra + [("path", .array(path)), ("message", .string(message))])
  }
}

/// The global exception filter of each version.
enum ErrorBody {
  static func render(_ error: APIError, version: ImmichVersion, correlationId: String) -> ImmichJSON
  {
    if version.isV3 {
      if !error.issues.isEmpty {
        return ["message": "Validation failed", "errors": .array(error.issues.map(\.json))]
      }
      return ["message": .string(error.message)]
    }
    let message: ImmichJSON =
      error.issues.isEmpty
      ? .string(error.message) : .array(error.issues.map { .string($0.classValidatorMessage) })
    return [
      "message": message, "error": .string(reasonPhrase(error.status)),
      "statusCode": .number(Double(error.status)), "correlationId": .string(correlationId),
    ]
  }

  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 406: return "Not Acceptable"
    case 413: return "Payload Too Large"
    default: return "Internal Server Error"
    }
  }
}
