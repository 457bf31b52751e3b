/// The partition's exclusions that this stream does not show: what a person protected before,
/// when, and the command that lifts it, so an exclusion made on an earlier page is never out
/// of sight.
enum EarlierExclusions {
  static func html(_ exclusions: [EarlierExclusion]) -> String {
    guard !exclusions.isEmpty else { return "" }
    var out = "<section class=\"bucket earlier\" id=\"earlier\">\n"
    out += "<h2>Excluded earlier <span class=\"n\">\(exclusions.count)</span></h2>\n"
    out += "<p class=\"note\">Protected for good by an earlier decision; none of them is in this "
    out += "plan. Each stays excluded until its command is run.</p>\n<table>\n"
    out += "<tr><th>Last seen at</th><th>Checksum</th><th>Why</th><th>Since</th>"
    out += "<th>Lifted by</th></tr>\n"
    for exclusion in exclusions {
      out += "<tr class=\"exclusion\"><td>"
      out += exclusion.lastPath.map(HTMLText.isolated) ?? "(not in the observed store)"
      out += "</td><td><code>\(HTMLText.escape(exclusion.checksum))</code></td>"
      out += "<td>\(HTMLText.escape(exclusion.reason))</td>"
      out += "<td>\(HTMLText.time(exclusion.createdAt))</td>"
      out += "<td><code>\(HTMLText.escape(exclusion.includeCommand))</code></td></tr>\n"
    }
    return out + "</table>\n</section>\n"
  }
}
