import CairnSettings
import CairnTestSupport
import Foundation
import Testing

/// Which notification addresses are a public service's: `cairn-fetch check` (this rule) and
/// cairn-nightly's `--notify-test` (its shell copy, `public_host`) must answer alike.
@Suite struct PublicNotifiersTests {
  /// Each address, and the public host it names (nil: not a public service).
  static let cases: [(String, String?)] = [
    ("https://ntfy.sh/my-cairn-topic", "ntfy.sh"),
    ("https://NTFY.SH./my-cairn-topic", "ntfy.sh"),
    ("https://user:secret@ntfy.sh:443/topic?auth=x", "ntfy.sh"),
    ("ntfy.sh/topic", "ntfy.sh"),
    ("https://api.pushover.net/1/messages.json", "api.pushover.net"),
    ("https://discord.com/api/webhooks/1/x", "discord.com"),
    ("https://hooks.slack.com/services/T/B/X", "hooks.slack.com"),
    ("https://eo1abc.m.pipedream.net", "eo1abc.m.pipedream.net"),
    // A self-hosted ntfy or gotify, and names that only look alike, are not public.
    ("https://ntfy.example.net/cairn", nil),
    ("http://192.168.1.10:8080/message?token=t", nil),
    ("https://myntfy.sh/topic", nil),
    ("https://ntfy.sh.example.net/topic", nil),
    ("https://ntfy.example.net/x?next=a@ntfy.sh", nil),
    ("http://[::1]:2586/topic", nil),
    ("", nil),
  ]

  @Test(arguments: cases)
  func anAddressIsPublicOnlyOnAPublicServicesHost(url: String, host: String?) {
    #expect(PublicNotifiers.publicHost(of: url) == host, "\(url)")
  }

  @Test func theHostIsNamedWithoutTheRestOfTheAddress() {
    #expect(
      PublicNotifiers.host(of: "https://u:token@gotify.example.net:8443/m?t=x")
        == "gotify.example.net")
    #expect(PublicNotifiers.host(of: "http://[::1]:2586/topic") == "[::1]")
  }

  /// The nightly's own `public_host`, run by bash on every case, answers as this rule does.
  @Test func theNightlyMatchesTheSameHosts() throws {
    let nightly = try String(
      contentsOfFile: ExitStatusManualTests.manFolder + "/../dist/cairn-nightly.in",
      encoding: .utf8)
    let lines = nightly.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("public_notifiers=") })
    let function = try #require(lines.firstIndex { $0.hasPrefix("public_host() {") })
    let end = try #require(lines[function...].firstIndex { $0 == "}" })
    let script =
      lines[start...end].joined(separator: "\n")
      + "\nfor url in \"$@\"; do public_host \"$url\" || printf -- -; echo; done\n"
    let result = try ToolRunner.run(
      "/bin/bash", ["-c", script, "nightly"] + Self.cases.map(\.0), environment: [:])
    #expect(result.status == 0, "\(result.stderr)")
    let answers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast().map { $0 == "-" ? nil : String($0) }
    #expect(answers == Self.cases.map(\.1))

    let listed = lines[start...end].joined(separator: " ")
      .split(separator: "'").dropFirst().first?.split(whereSeparator: \.isWhitespace)
      .map(String.init)
    #expect(listed == PublicNotifiers.hosts)
  }
}
