import Foundation

/// From what a person wrote in `IMMICH_URL` to the API base URL cairn talks to.
///
/// `https://photos.example.net`, `https://photos.example.net/`, `HTTPS://Photos.Example.net:443`
/// and `https://photos.example.net/api` all name the same server, so they must give the same
/// partition: the scheme and host are lower-cased, a default port is dropped, trailing slashes
/// go. Without `/api`, the server's `/.well-known/immich` says where the API lives (as the
/// Immich CLI does); if it cannot, `/api` is appended.
package enum ServerAddress {
  /// The normalised form of `text`, not yet checked against a server.
  package static func normalise(_ text: String) throws(ImmichError) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let components = URLComponents(string: trimmed),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty
    else {
      throw ImmichError(
        .configuration,
        "IMMICH_URL is not an http:// or https:// URL: '\(redacted(trimmed))'")
    }
    if components.user != nil || components.password != nil {
      throw ImmichError(
        .configuration,
        "IMMICH_URL must not carry a user name or password; put the API key in IMMICH_API_KEY")
    }
    var result = scheme + "://" + host.lowercased()
    if let port = components.port, !(scheme == "http" && port == 80),
      !(scheme == "https" && port == 443)
    {
      result += ":\(port)"
    }
    var path = components.percentEncodedPath
    while path.hasSuffix("/") { path.removeLast() }
    return result + path
  }

  /// True when the normalised URL already names the API.
  static func endsInAPI(_ url: String) -> Bool { url.hasSuffix("/api") }

  /// Where the API is, asking `/.well-known/immich` when the URL does not end in `/api`. A
  /// document that puts the API on another server is refused, as a redirect there would be
  /// (`RedirectPolicy`): the key goes only to IMMICH_URL's server.
  static func discover(_ normalised: String, transport: HTTPTransport) async throws(ImmichError)
    -> String
  {
    if endsInAPI(normalised) { return normalised }
    let fallback = normalised + "/api"
    let call = HTTPCall(
      method: .GET, url: normalised + "/.well-known/immich", credential: .none, body: nil,
      retry: .never, label: "GET /.well-known/immich")
    guard let answer = try? await transport.send(call), answer.status == 200,
      let document = try? JSONDecoder().decode(WellKnown.self, from: Data(answer.body)),
      let base = URL(string: normalised + "/"),
      let resolved = URL(string: document.api.endpoint, relativeTo: base)?.absoluteURL,
      let normalisedAPI = try? normalise(resolved.absoluteString)
    else { return fallback }
    try checkSameServer(normalisedAPI, as: normalised)
    return normalisedAPI
  }

  /// Refuses an API base on another scheme, host or port than IMMICH_URL's (an upgrade from
  /// http to https on the same host aside).
  static func checkSameServer(_ api: String, as configured: String) throws(ImmichError) {
    guard let here = Origin(configured), let there = Origin(api), !here.mayGoOn(to: there)
    else { return }
    throw ImmichError(
      .server,
      "GET /.well-known/immich: the server puts its API on another server, \(there.address);"
        + " cairn sends the API key only to IMMICH_URL's server: if \(there.address) is your"
        + " Immich, set IMMICH_URL to it",
      request: "GET /.well-known/immich")
  }

  /// Shows a URL without anything that could be a credential (query strings).
  static func redacted(_ text: String) -> String {
    guard let question = text.firstIndex(of: "?") else { return text }
    return String(text[..<question]) + "?…"
  }
}
