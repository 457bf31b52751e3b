import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// `--profile` and `CAIRN_PROFILE` through the built tools, against two servers; API keys in
/// files; the configuration and key files cairn refuses.
@Suite struct ProfileAndKeyFileTests {
  static let bensKey = "ben-own-KEY-5a0f31c2"

  /// Anna's library and server, Ben's server, and a configuration naming both.
  func household() async throws -> (anna: AdversarialLibrary, ben: AdversarialLibrary) {
    let anna = AdversarialLibrary()
    try anna.photo("Photos/a.jpg")
    let ben = AdversarialLibrary()
    ben.scenario.addKey(for: ben.me, name: "ben", secret: Self.bensKey, permissions: ["all"])
    try ben.photo("Elsewhere/b1.jpg")
    try ben.photo("Elsewhere/b2.jpg")
    try await anna.start()
    try await ben.start()
    try anna.dir.privateFile("config/cairn/ben.key", Self.bensKey + "\n")
    try anna.dir.privateFile(
      "config/cairn/config",
      """
      CAIRN_HTTP_ATTEMPTS=1
      [profile anna]
      IMMICH_URL=\(anna.apiBase)
      IMMICH_API_KEY=\(AdversarialLibrary.secret)
      [profile ben]
      IMMICH_URL=\(ben.apiBase)
      IMMICH_API_KEY_FILE=ben.key
      """)
    return (anna, ben)
  }

  func serverURL(_ result: ToolResult) throws -> String? {
    let header = try result.records(ofType: "header").first
    return (header?["server"] as? [String: Any])?["url"] as? String
  }

  @Test func eachProfileReachesItsOwnServerWithItsOwnKey() async throws {
    let (anna, ben) = try await household()
    defer { Task { await anna.stop() } }
    defer { Task { await ben.stop() } }
    let environment = anna.dir.isolatedEnvironment()
    var outputs: [ToolResult] = []

    let bens = try await anna.shell("cairn-fetch --profile ben", environment: environment)
    #expect(bens.status == 0, "\(bens.stderr)")
    #expect(try serverURL(bens) == ben.apiBase)
    #expect(try bens.records(ofType: "asset").count == 2)
    // Ben's server saw Ben's key, read from his key file, and no other.
    let keyNames = Set(
      (ben.server?.log.all ?? []).filter { $0.credential.kind == .apiKey }
        .compactMap(\.credential.name))
    #expect(keyNames == ["ben"])

    // --check says which profile and where its key came from, never the key.
    let checked = try await anna.shell(
      "cairn-fetch check --profile ben", environment: environment)
    #expect(checked.status == 0, "\(checked.stderr)")
    let keyFile = anna.path("config/cairn/ben.key")
    let section = anna.path("config/cairn/config") + " [profile ben]"
    #expect(
      checked.stderr.contains(
        "server URL and API key are set for profile ben (URL from \(section), key from the key"
          + " file \(keyFile) (IMMICH_API_KEY_FILE from \(section)))"), "\(checked.stderr)")
    outputs.append(checked)

    var annaEnvironment = environment
    annaEnvironment["CAIRN_PROFILE"] = "anna"
    let annas = try await anna.shell("cairn-fetch", environment: annaEnvironment)
    #expect(annas.status == 0, "\(annas.stderr)")
    #expect(try serverURL(annas) == anna.apiBase)
    #expect(try annas.records(ofType: "asset").count == 1)

    // cairn-reconcile's own cairn-fetch lists the server of the profile it was given.
    let reconciled = try await anna.shell(
      "cairn-hash Photos | cairn-reconcile --profile ben", environment: environment)
    #expect(reconciled.status == 0, "\(reconciled.stderr)")
    #expect(try serverURL(reconciled) == ben.apiBase)
    // The gate and the store are Ben's too: his partition, not Anna's, holds the decision.
    let gated = try await anna.shell(
      "cairn-hash Photos | cairn-reconcile --profile ben | cairn-gate --profile ben",
      environment: environment)
    #expect(gated.status == 0, "\(gated.stderr)")
    #expect(try serverURL(gated) == ben.apiBase)

    let unchosen = try await anna.shell("cairn-fetch", environment: environment)
    #expect(unchosen.status == 78)
    #expect(unchosen.stderr.contains("choose a profile with --profile (anna, ben)"))
    let unknown = try await anna.shell("cairn-fetch --profile carl", environment: environment)
    #expect(unknown.status == 78)
    #expect(unknown.stderr.contains("no profile 'carl' in the configuration file"))
    let invalid = try await anna.shell("cairn-trash --profile ../x", environment: environment)
    #expect(invalid.status == 64)
    outputs += [bens, annas, reconciled, gated, unchosen, unknown, invalid]
    for output in outputs {
      #expect(!output.stdout.contains(Self.bensKey) && !output.stderr.contains(Self.bensKey))
      #expect(!output.stderr.contains(AdversarialLibrary.secret))
    }
  }

  /// At a terminal, with no path, cairn-hash scans the profile's library.
  @Test func cairnHashAtATerminalScansTheProfilesLibrary() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("Anna/a.jpg", onServer: false)
    try lib.photo("Ben/b1.jpg", onServer: false)
    try lib.photo("Ben/b2.jpg", onServer: false)
    try lib.dir.privateFile(
      "config/cairn/config",
      "[profile anna]\nCAIRN_LIBRARY=\(lib.path("Anna"))\n"
        + "[profile ben]\nCAIRN_LIBRARY=\(lib.path("Ben"))\n")
    #if os(macOS)
      let onTerminal = "script -q /dev/null /bin/sh -c 'cairn-hash --profile ben > ben.ndjson'"
    #else
      let onTerminal = "script -qfec 'cairn-hash --profile ben > ben.ndjson' /dev/null"
    #endif
    let scanned = try await lib.shell(onTerminal, environment: lib.dir.isolatedEnvironment())
    #expect(scanned.status == 0, "\(scanned.stdout)\(scanned.stderr)")
    let paths = try String(contentsOfFile: lib.path("ben.ndjson"), encoding: .utf8)
      .split(separator: "\n").compactMap { line in
        let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return record?["type"] as? String == "file" ? record?["path"] as? String : nil
      }
    #expect(Set(paths) == [lib.path("Ben/b1.jpg"), lib.path("Ben/b2.jpg")])
    let unset = try await lib.shell(
      onTerminal.replacingOccurrences(of: "--profile ben", with: ""),
      environment: lib.dir.isolatedEnvironment())
    #expect(unset.status == 64)
    #expect(unset.stdout.contains("CAIRN_LIBRARY is not set"))
  }

  @Test func aKeyFileIsReadOnlyWhenItIsTheUsersOwn() async throws {
    let lib = AdversarialLibrary()
    try await lib.start()
    defer { Task { await lib.stop() } }
    func check(_ keyFile: String, as runner: String = "") async throws -> ToolResult {
      var environment = lib.dir.isolatedEnvironment([
        "IMMICH_URL": lib.apiBase, "IMMICH_API_KEY_FILE": keyFile, "CAIRN_HTTP_ATTEMPTS": "1",
      ])
      environment["IMMICH_API_KEY"] = nil
      return try await lib.shell(runner + "cairn-fetch check", environment: environment)
    }
    let missing = try await check(lib.path("secrets/none"))
    #expect(missing.status == 78)
    #expect(missing.stderr.contains("secrets/none: the API key file does not exist"))

    let open = try lib.dir.file("secrets/open", AdversarialLibrary.secret + "\n")
    let openResult = try await check(open)
    #expect(openResult.status == 78)
    #expect(
      openResult.stderr.contains(
        "\(open): the API key file is readable by other users (mode 644); make it private:"
          + " chmod 600 \(open)"))

    try FileManager.default.createDirectory(
      atPath: lib.path("secrets/folder"), withIntermediateDirectories: true)
    let unreadable = try await check(lib.path("secrets/folder"))
    #expect(unreadable.status == 78)
    #expect(unreadable.stderr.contains("the API key file is not a regular file"))

    // A key file its reader may not open: root may open any, so as root the tool runs as
    // nobody (the folders on the way only let it pass).
    let locked = try lib.dir.privateFile("secrets/locked", AdversarialLibrary.secret + "\n")
    var runner = ""
    if getuid() == 0 {
      for folder in [lib.dir.path, lib.path("secrets")] {
        try FileManager.default.setAttributes([.posixPermissions: 0o711], ofItemAtPath: folder)
      }
      runner = "setpriv --reuid 65534 --regid 65534 --clear-groups "
    } else {
      try FileManager.default.setAttributes([.posixPermissions: 0o200], ofItemAtPath: locked)
    }
    let denied = try await check(locked, as: runner)
    #expect(denied.status == 78, "\(denied.stderr)")
    #expect(denied.stderr.contains("\(locked): cannot read the API key file: Permission denied"))

    let good = try lib.dir.privateFile("secrets/good", AdversarialLibrary.secret + "\n")
    let accepted = try await check(good)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(
      accepted.stderr.contains(
        "key from the key file \(good) (IMMICH_API_KEY_FILE from environment)"))
    #expect(accepted.stderr.contains("API key accepted"))
    for output in [missing, openResult, unreadable, denied, accepted] {
      #expect(!output.stdout.contains(AdversarialLibrary.secret))
      #expect(!output.stderr.contains(AdversarialLibrary.secret))
    }
  }

  @Test func aConfigurationFileOthersCanReadStopsEveryTool() async throws {
    let lib = AdversarialLibrary()
    try lib.photo("Photos/a.jpg")
    try await lib.start()
    defer { Task { await lib.stop() } }
    let config = try lib.dir.file(
      "config/cairn/config",
      "IMMICH_URL=\(lib.apiBase)\nIMMICH_API_KEY=\(AdversarialLibrary.secret)\n")
    let environment = lib.dir.isolatedEnvironment()
    for command in ["cairn-fetch", "cairn-observe list", "cairn-tag list"] {
      let result = try await lib.shell(command, environment: environment)
      #expect(result.status == 78, "\(command): \(result.stderr)")
      #expect(
        result.stderr.contains("\(config): the configuration file is readable by other users"))
    }
    #expect(lib.server?.log.all.isEmpty == true)  // refused before any request
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
    let fetched = try await lib.shell("cairn-fetch", environment: environment)
    #expect(fetched.status == 0, "\(fetched.stderr)")
  }
}
