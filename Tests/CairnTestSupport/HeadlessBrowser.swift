import Foundation

/// Debian's Chromium, headless, for tests that look at a generated page the way a person's
/// browser would: its scripts run, its images decode, and its net log shows every request.
///
/// The command (one browser run per call, about a second):
/// `chromium --headless=new --no-sandbox --disable-gpu --disable-background-networking
/// --disable-component-update --no-first-run --user-data-dir=DIR --log-net-log=DIR/net.json
/// --window-size=W,H --virtual-time-budget=MS --dump-dom file://PAGE#FRAGMENT`; the virtual
/// time lets what a page does after its load (lazy pictures, say) finish before the dump.
package enum HeadlessBrowser {
  /// The browser, when installed (`scripts/setup.sh` installs Debian's `chromium`).
  package static let executable: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  package static var isAvailable: Bool { executable != nil }

  /// What one load of a page gave.
  package struct Rendering: Sendable {
    /// The document after the page's load handlers ran (`--dump-dom`).
    package let dom: String
    /// Every non-`file:`, non-`data:` URL the page itself asked for (requests whose network
    /// isolation key is the page's `file://` site; the browser's own background requests to
    /// its vendor are not the page's and are left out).
    package let pageRequests: [String]
  }

  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  /// Loads `path` (with `fragment` after `#`) and returns the DOM and the page's requests.
  /// `window` is the viewport (a tall one shows every tile of a small page at once);
  /// `timeZone` the browser's local time (`TZ`).
  package static func render(
    _ path: String, fragment: String? = nil, window: (width: Int, height: Int) = (1280, 4000),
    timeZone: String = "UTC"
  ) async throws -> Rendering {
    guard let executable else { throw Failure(description: "chromium is not installed") }
    let scratch = TemporaryDirectory("cairn-browser")
    let netLog = scratch.path + "/net.json"
    var url = URL(fileURLWithPath: path).absoluteString
    if let fragment { url += "#" + fragment }
    let arguments = [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--user-data-dir=\(scratch.path)/profile",
      "--log-net-log=\(netLog)", "--window-size=\(window.width),\(window.height)",
      "--virtual-time-budget=3000", "--dump-dom", url,
    ]
    // A small environment of its own: the browser needs a PATH and a HOME, nothing of ours.
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": scratch.path, "LANG": "C.UTF-8", "TZ": timeZone,
      "XDG_CONFIG_HOME": scratch.path + "/config", "XDG_CACHE_HOME": scratch.path + "/cache",
    ]
    let result = try await ToolRunner.runDetached(
      executable, arguments, environment: environment)
    guard result.status == 0 else {
      throw Failure(description: "chromium exited \(result.status): \(result.stderr.suffix(500))")
    }
    return Rendering(dom: result.stdout, pageRequests: try pageRequests(netLog))
  }

  static func pageRequests(_ netLog: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: netLog))
    guard let log = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let constants = log["constants"] as? [String: Any],
      let types = constants["logEventTypes"] as? [String: Int],
      let start = types["URL_REQUEST_START_JOB"],
      let events = log["events"] as? [[String: Any]]
    else { throw Failure(description: "cannot read chromium's net log \(netLog)") }
    var urls: [String] = []
    for event in events where event["type"] as? Int == start {
      guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
        (params["network_isolation_key"] as? String)?.contains("file://") == true
      else { continue }
      if !url.hasPrefix("file:") && !url.hasPrefix("data:") { urls.append(url) }
    }
    return urls
  }
}
