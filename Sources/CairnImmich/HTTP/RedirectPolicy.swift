import Foundation
import NIOHTTP1

/// Where a redirect may take a request that carries cairn's API key, session token or login
/// password (`x-api-key`, `x-immich-user-token`, the body of `POST /api/auth/login`).
///
/// AsyncHTTPClient, left to follow redirects, strips only the standard credential headers
/// (`Authorization`, `Cookie`) on the way to another host: cairn's own headers and a 307/308's
/// body would go along. So the transport follows redirects itself, and only these: to the same
/// scheme, host and port (a reverse proxy adding a trailing slash or `/api`), and from http to
/// https on the same host, which only encrypts what the first request already sent there. A
/// redirect to any other host, or from https down to http, is refused before anything is sent.
enum RedirectPolicy {
  /// Redirects followed for one request before it fails.
  static let maxRedirects = 5

  enum Decision: Equatable {
    /// Send the request again to this absolute URL.
    case follow(String)
    /// Send nothing more; the words say where the server pointed and what to do.
    case refuse(String)
  }

  /// The statuses that move a request elsewhere, as AsyncHTTPClient and browsers follow them.
  static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

  /// What to do with a redirect from `current` to `location` (the `Location` header).
  static func decide(from current: String, location: String) -> Decision {
    guard let here = Origin(current),
      let target = URL(string: location, relativeTo: URL(string: current))?.absoluteURL,
      let there = Origin(target.absoluteString)
    else {
      return .refuse("the server redirected to an address cairn cannot follow")
    }
    if here.mayGoOn(to: there) { return .follow(target.absoluteString) }
    if there.host == here.host, here.scheme == "https", there.scheme == "http" {
      return .refuse(
        "the server redirected from https to plain http (\(there.address)); cairn does not"
          + " follow, so the API key, session and password never cross the network"
          + " unencrypted: fix the server's proxy, or set IMMICH_URL to \(there.address)"
          + " if plain http is meant")
    }
    return .refuse(
      "the server redirected to another server, \(there.address); cairn sends the API key,"
        + " session and password only to IMMICH_URL's server and did not follow: if"
        + " \(there.address) is your Immich, set IMMICH_URL to it")
  }

  /// What a redirect does to the request, as RFC 9110 and AsyncHTTPClient have it: a 303 asks
  /// for a GET of the new address, and a POST answered 301 or 302 becomes a GET too (as
  /// browsers do); 307 and 308 keep the method and the body.
  static func keepsMethodAndBody(_ status: Int, _ method: HTTPMethod) -> Bool {
    switch status {
    case 303: return method == .HEAD
    case 301, 302: return method != .POST
    default: return true
    }
  }
}

/// Scheme, host and port: what decides which server a request reaches.
struct Origin: Equatable {
  var scheme: String
  var host: String
  var port: Int

  init?(_ url: String) {
    guard let components = URLComponents(string: url),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.percentEncodedHost?.lowercased(), !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host
    self.port = components.port ?? (scheme == "https" ? 443 : 80)
  }

  /// Whether a request that carries cairn's secrets may go on from here to `there`: the same
  /// server, or the same host over https where it was http (any port: TLS proves the host).
  func mayGoOn(to there: Origin) -> Bool {
    there == self || (there.host == host && scheme == "http" && there.scheme == "https")
  }

  /// `https://photos.example.net` or `http://127.0.0.1:2283`: what `IMMICH_URL` would say, with
  /// no path or query (where a token could hide). A host of other characters is not shown.
  var address: String {
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789.-_:[]")
    var shown =
      host.unicodeScalars.allSatisfy(allowed.contains) && host.count <= 253
      ? host : "(a host name cairn will not print)"
    if shown.contains(":"), !shown.hasPrefix("[") { shown = "[" + shown + "]" }
    let defaultPort = scheme == "https" ? 443 : 80
    return scheme + "://" + shown + (port == defaultPort ? "" : ":\(port)")
  }
}
