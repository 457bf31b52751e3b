/// The notification services anyone can use, run by others. What reaches one of them is on
/// someone else's server: on ntfy.sh an attachment is a public URL for hours and the topic
/// name is the only secret. `cairn-fetch check` says so when `CAIRN_NOTIFY_URL` points at
/// one; a self-hosted ntfy or gotify is not on the list.
///
/// cairn-nightly, a shell script, holds the same list and the same rule (`public_host`); a
/// test holds the two equal.
package enum PublicNotifiers {
  /// The hosts, each with every name under it (`eo1.m.pipedream.net` is `pipedream.net`'s).
  package static let hosts = [
    "ntfy.sh", "pushover.net", "pushbullet.com", "api.telegram.org", "discord.com",
    "discordapp.com", "hooks.slack.com", "chat.googleapis.com", "webhook.office.com",
    "maker.ifttt.com", "hooks.zapier.com", "pipedream.net", "webhook.site", "api.day.app",
  ]

  /// The URL's host, lower-case and without a trailing dot, when it is a public service's;
  /// nil for any other host (and for an IP literal). Reads the URL as curl would: after the
  /// scheme, up to the path, query or fragment, after the last `@`, before the port.
  package static func publicHost(of url: String) -> String? {
    guard let host = host(of: url), !host.hasPrefix("[") else { return nil }
    return hosts.contains { host == $0 || host.hasSuffix("." + $0) } ? host : nil
  }

  /// The URL's host, lower-case and without a trailing dot (an IP literal in its brackets);
  /// nil when there is none. Only the host: the rest of the URL may hold a token.
  package static func host(of url: String) -> String? {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    rest = rest.prefix { !"/?#".contains($0) }
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("["), let end = rest.firstIndex(of: "]") {
      return String(rest[...end])
    }
    var host = rest.prefix { $0 != ":" }.lowercased()
    if host.hasSuffix(".") { host.removeLast() }
    return host.isEmpty ? nil : host
  }
}
