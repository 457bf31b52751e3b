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
      "/srv/bin, /srv/old (from \(config))",
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
  }
}
