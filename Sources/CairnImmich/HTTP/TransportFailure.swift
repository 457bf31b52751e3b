import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request that got no usable answer, sorted by what a person would do about it.
struct Failure: Error {
  enum Reason: Equatable {
    case refused, reset, timeout, dns, tls, unreadable, redirected, other
  }

  var reason: Reason
  /// The underlying error's words, for `other`, or where a refused redirect pointed, for
  /// `redirected`; never holds request headers, paths or queries.
  var detail: String
  var timeout: Duration

  /// Failures where the request most likely never took effect, or where trying again is
  /// what a person would do anyway: a server restarting, a proxy dropping a connection.
  var retryable: Bool { [.refused, .reset, .timeout].contains(reason) }

  func immichError(_ label: String, attempts: Int) -> ImmichError {
    let tries = attempts > 1 ? " (\(attempts) attempts)" : ""
    let what: String
    switch reason {
    case .refused: what = "connection refused: is the server running, and is the port right?"
    case .reset: what = "the server closed the connection before answering"
    case .timeout: what = "no answer within \(Self.seconds(timeout))"
    case .dns: what = "cannot resolve the host name: check IMMICH_URL"
    case .tls: what = "TLS failed (certificate or protocol): \(detail)"
    case .unreadable: what = "the answer is not HTTP: \(detail)"
    case .redirected, .other: what = detail
    }
    return ImmichError(.transport, "\(label): \(what)\(tries)", request: label)
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if seconds >= 1 { return "\(seconds) s" }
    return "\(attoseconds / 1_000_000_000_000_000) ms"
  }

  static func from(_ error: any Error, timeout: Duration) -> Failure {
    if let failure = error as? Failure { return failure }
    func make(_ reason: Reason) -> Failure {
      Failure(reason: reason, detail: describe(error), timeout: timeout)
    }
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout, .readTimeout, .deadlineExceeded, .writeTimeout,
        .getConnectionFromPoolTimeout:
        return make(.timeout)
      case .remoteConnectionClosed, .cancelled: return make(.reset)
      case .tlsHandshakeTimeout: return make(.tls)
      default: return make(.other)
      }
    }
    if let error = error as? NIOConnectionError {
      if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
        return make(.dns)
      }
      if let first = error.connectionErrors.first {
        return from(first.error, timeout: timeout)
      }
      return make(.refused)
    }
    if let error = error as? IOError {
      switch error.errnoCode {
      case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: return make(.refused)
      case ECONNRESET, EPIPE, ECONNABORTED: return make(.reset)
      case ETIMEDOUT: return make(.timeout)
      default: return make(.other)
      }
    }
    if let error = error as? ChannelError {
      switch error {
      case .connectTimeout: return make(.timeout)
      case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
        return make(.reset)
      default: return make(.other)
      }
    }
    if error is CancellationError { return make(.reset) }
    let typeName = String(reflecting: type(of: error))
    if typeName.contains("SSL") || typeName.contains("TLS") || typeName.contains("Certificate") {
      return make(.tls)
    }
    if typeName.contains("HTTPParserError") { return make(.unreadable) }
    let text = describe(error).lowercased()
    if text.contains("refused") { return make(.refused) }
    if text.contains("reset") || text.contains("closed") { return make(.reset) }
    if text.contains("dns") || text.contains("resolve") { return make(.dns) }
    return make(.other)
  }

  /// An error's words on one line.
  static func describe(_ error: any Error) -> String {
    String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
