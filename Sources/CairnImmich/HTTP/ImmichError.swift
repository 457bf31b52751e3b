import CairnStream
import CairnSupport

/// A failed call to the Immich server, phrased so a person knows what to do next.
///
/// Every public method of `ImmichClient` throws only this type. `cairnError` turns it into the
/// one-line message and exit status a tool ends with (`throw error.cairnError`).
package struct ImmichError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure, which decides the exit status.
  package enum Kind: Sendable, Equatable {
    /// Wrong or missing configuration (no URL, no key, malformed URL): exit 78.
    case configuration
    /// The credential was rejected (401): exit 77.
    case unauthorized
    /// The API key lacks a permission, or the route refuses this kind of credential (403): 77.
    case forbidden
    /// The server refused the request itself (400), e.g. an asset the user does not own.
    case rejected
    /// The URL answers, but not as an Immich API (HTML, 406, 404 on a known route): exit 69.
    case notImmich
    /// 5xx after retries, or an answer cairn cannot read: exit 69.
    case server
    /// Connection refused or reset, DNS, TLS, timeout: exit 69.
    case transport
  }

  package let kind: Kind
  /// The HTTP status, when the server answered.
  package let httpStatus: Int?
  /// The server's own `message`, when it sent one (already free of credentials).
  package let serverMessage: String?
  /// `METHOD /api/path`, or the URL that failed.
  package let request: String?
  /// The whole human line, without the tool prefix.
  package let message: String

  package init(
    _ kind: Kind, _ message: String, httpStatus: Int? = nil, serverMessage: String? = nil,
    request: String? = nil
  ) {
    self.kind = kind
    self.message = message
    self.httpStatus = httpStatus
    self.serverMessage = serverMessage
    self.request = request
  }

  package var description: String { message }

  /// The exit status a tool should end with.
  package var exitStatus: ExitStatus {
    switch kind {
    case .configuration: return .configuration
    case .unauthorized, .forbidden: return .permission
    // An ownership 400 ("Not found or no asset.delete access") is a permission problem from the
    // person's point of view; any other 400 means the server would not take our request.
    case .rejected:
      return (serverMessage?.contains("no ") == true && serverMessage?.contains("access") == true)
        ? .permission : .serverFailure
    case .notImmich, .server, .transport: return .serverFailure
    }
  }

  /// The same failure as the `CairnError` every tool's `Tool.run` reports.
  package var cairnError: CairnError { CairnError(exitStatus, message) }

  /// The permission named by a `403 Missing required permission: X`, if that is what this is.
  package var missingPermission: String? {
    guard kind == .forbidden, let serverMessage else { return nil }
    let prefix = "Missing required permission: "
    guard serverMessage.hasPrefix(prefix) else { return nil }
    return String(serverMessage.dropFirst(prefix.count))
  }
}
