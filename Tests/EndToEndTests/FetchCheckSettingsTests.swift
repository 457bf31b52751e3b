import CairnTestSupport
import Foundation
import Testing

/// `cairn-fetch check` shows the settings a run would use and where each came from.
@Suite struct FetchCheckSettingsTests {
  @Test func eachSettingNamesItsSource() async throws {
    let lib = AdversarialLibrary()
    try await lib.start()
    defer { Task { await lib.stop() } }
    let config = try lib.dir.privateFile(
      "config/cairn/config", "CAIRN_FLOOR=7\nCAIRN_TRASH_FOLDERS=/srv/bin:/srv/old\n")
    var environment = lib.environment
    environment["CAIRN_STRICTNESS"] = "strict"
    environment["CAIRN_LIBRARY"] = "~/Photos/:/srv/phone:~/Photos"
    let home = try #require(environment["HOME"])
    let result = try await lib.shell("cairn-fetch check", environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    for expected in [
      "quarantine: 14 days (default)",
      "strictness: strict (from environment)",
      "threshold: 1% of matched assets (default)",
      "floor: 7 candidates (from \(config))",
      // The test library's environment sets the request timeout; the settle wait follows it.
      "request timeout: 60 seconds (from environment)",
      "settle wait: 65 seconds (default)",
      // The folder settings' lines are the table's too, the folders as every tool reads them.
      "library: \(home)/Photos, /srv/phone (from environment)",
      "each root; and /srv/bin, /srv/old (from \(config))",
    ] {
      #expect(lines.contains { $0.hasSuffix(expected) }, "\(expected) in \(result.stderr)")
    }
  }

  @Test func anInvalidSettingFailsTheCheckAndHidesNoOther() async throws {
    let lib = AdversarialLibrary()
    try await lib.start()
    defer { Task { await lib.stop() } }
    var environment = lib.environment
    environment["CAIRN_QUARANTINE_DAYS"] = "400"
    environment["CAIRN_THRESHOLD_PERCENT"] = "2.5"
    let result = try await lib.shell("cairn-fetch check", environment: environment)
    #expect(result.status == 78, "\(result.stderr)")
    #expect(result.stderr.contains("[FAIL] CAIRN_QUARANTINE_DAYS=400 is not a whole number"))
    #expect(result.stderr.contains("threshold: 2.5% of matched assets (from environment)"))
    #expect(result.stderr.contains("library: none (default)"), "\(result.stderr)")
  }

  /// Where cairn-nightly's notifications go: a public service is a warning, the review page
  /// goes with them only by its own setting, and only the host is ever printed (the address
  /// may hold a token).
  @Test func aPublicNotifierIsAWarningThatSaysWhatGoesThere() async throws {
    let lib = AdversarialLibrary()
    try await lib.start()
    defer { Task { await lib.stop() } }
    func check(_ settings: [String: String]) async throws -> ToolResult {
      try await lib.shell(
        "cairn-fetch check", environment: lib.environment.merging(settings) { $1 })
    }
    let ntfy = try await check(["CAIRN_NOTIFY_URL": "https://ntfy.sh/my-cairn-topic"])
    #expect(ntfy.status == 0, "\(ntfy.stderr)")
    #expect(
      ntfy.stderr.contains(
        "[warn] notifications go to ntfy.sh, a public service: anyone who knows the address can "
          + "read what is sent there (from environment); they carry counts and commands, no "
          + "photo, name or path"), "\(ntfy.stderr)")
    #expect(
      ntfy.stderr.contains("review page in notifications: off (nothing of a photo) (default)"))
    #expect(!ntfy.stderr.contains("my-cairn-topic"))

    let own = try await check(["CAIRN_NOTIFY_URL": "https://ntfy.example.net/cairn?auth=tok3n"])
    #expect(
      own.stderr.contains(
        "[info] notifications go to ntfy.example.net (from environment): they carry counts"),
      "\(own.stderr)")
    #expect(!own.stderr.contains("public service"))
    #expect(!own.stderr.contains("tok3n"))

    let attach = try await check([
      "CAIRN_NOTIFY_URL": "https://ntfy.sh/my-cairn-topic",
      "CAIRN_NOTIFY_ATTACH_REVIEW_PAGE": "on",
    ])
    #expect(
      attach.stderr.contains(
        "(from environment); CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on sends ntfy the review page, with "
          + "the photos' thumbnails, names and folders"), "\(attach.stderr)")
    #expect(attach.stderr.contains("review page in notifications: on (ntfy gets the photos'"))

    let unclear = try await check(["CAIRN_NOTIFY_ATTACH_REVIEW_PAGE": "maybe"])
    #expect(unclear.status == 78)
    #expect(
      unclear.stderr.contains("[FAIL] CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=maybe is not on or off"))
  }
}
