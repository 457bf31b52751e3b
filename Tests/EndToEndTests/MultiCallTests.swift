import CairnSupport
import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The one binary a release installs: `cairn`, with every tool's name a link to it. Each tool
/// must behave exactly as its own launcher does, called by its name or as `cairn <tool>`, and
/// cairn-reconcile must still find cairn-fetch, through a link or, when `cairn` alone was
/// installed, as `cairn fetch`.
@Suite(.serialized)
struct MultiCallTests {
  static let tools = [
    "cairn-hash", "cairn-observe", "cairn-fetch", "cairn-reconcile", "cairn-gate", "cairn-trash",
    "cairn-tag", "cairn-restore",
  ]

  /// A folder holding a copy of the built `cairn` (a hard link where the file system allows
  /// it): a copy, not a symbolic link, so the program finds its siblings here and not in the
  /// build folder.
  static func installedCairn(in dir: TemporaryDirectory, links: [String]) throws -> String {
    let bin = dir.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let built = ToolRunner.productsDirectory + "/cairn"
    if link(built, bin + "/cairn") != 0 {
      try FileManager.default.copyItem(atPath: built, toPath: bin + "/cairn")
    }
    for name in links {
      try FileManager.default.createSymbolicLink(
        atPath: bin + "/" + name, withDestinationPath: "cairn")
    }
    return bin
  }

  @Test func everyToolAnswersAlikeByItsNameAsACairnSubcommandAndThroughItsLauncher() throws {
    let dir = TemporaryDirectory("cairn-multicall")
    let bin = try Self.installedCairn(in: dir, links: Self.tools)
    let env = dir.isolatedEnvironment()
    for tool in Self.tools {
      let subcommand = String(tool.dropFirst("cairn-".count))
      for arguments in [["--help"], ["--version"], ["--no-such-option"]] {
        let launcher = try ToolRunner.run(tool, arguments, environment: env)
        let linked = try ToolRunner.run(bin + "/" + tool, arguments, environment: env)
        let called = try ToolRunner.run(bin + "/cairn", [subcommand] + arguments, environment: env)
        for other in [linked, called] {
          #expect(other.status == launcher.status, "\(tool) \(arguments)")
          #expect(other.stdout == launcher.stdout, "\(tool) \(arguments)")
          #expect(other.stderr == launcher.stderr, "\(tool) \(arguments)")
        }
      }
      let help = try ToolRunner.run(bin + "/cairn", ["help", subcommand], environment: env)
      #expect(help.stdout == (try ToolRunner.run(tool, ["--help"], environment: env)).stdout)
    }
  }

  @Test func cairnAloneListsItsToolsAndRefusesAnUnknownOne() throws {
    let dir = TemporaryDirectory("cairn-multicall")
    let env = dir.isolatedEnvironment()
    let help = try ToolRunner.run("cairn", ["--help"], environment: env)
    #expect(help.status == 0)
    for tool in Self.tools {
      let subcommand = tool.dropFirst("cairn-".count)
      #expect(help.stdout.contains("\n  \(subcommand) "), "\(subcommand) is listed")
    }
    let bare = try ToolRunner.run("cairn", [], environment: env)
    #expect(bare.status == ExitStatus.usage.rawValue)
    #expect(bare.stdout.isEmpty)
    #expect(bare.stderr == help.stdout)

    let unknown = try ToolRunner.run("cairn", ["delete", "--all"], environment: env)
    #expect(unknown.status == ExitStatus.usage.rawValue)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr == "cairn: no tool 'delete' (cairn --help lists them)\n")
    let version = try ToolRunner.run("cairn", ["--version"], environment: env)
    #expect(version.stdout == CairnVersion.current + "\n")
  }

  enum Layout: String, CaseIterable, Sendable {
    /// `cairn` and the eight names as symbolic links to it: what `make install` writes.
    case links
    /// `cairn` alone, every tool called as `cairn <tool>`.
    case cairnAlone
  }

  @Test(arguments: Layout.allCases)
  func thePipelineTrashesADeletedFileWithTheInstalledBinary(_ layout: Layout) async throws {
    let dir = TemporaryDirectory("cairn-multicall")
    let bin = try Self.installedCairn(in: dir, links: layout == .links ? Self.tools : [])
    let library = dir.path + "/Photos"
    func bytes(_ name: String) -> [UInt8] { Array("multi-call bytes of \(name)\n".utf8) }
    var scenario = Scenario()
    let (me, _) = scenario.addUser(email: "me@example.com", keySecret: ActFixture.secret)
    var ids: [String: String] = [:]
    for name in ["a.jpg", "b.jpg", "c.jpg"] {
      try dir.file("Photos/\(name)", contents: bytes(name))
      ids[name] =
        scenario.addAsset(owner: me, fileName: name, checksum: Scenario.checksum(of: bytes(name)))
        .id
    }
    let server = ImmichTestServer(scenario: scenario)
    let url = try await server.start()
    defer { Task { await server.stop() } }
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": url.absoluteString + "/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
    func command(_ tool: String) -> String {
      layout == .links ? "'\(bin)/cairn-\(tool)'" : "'\(bin)/cairn' \(tool)"
    }
    // No --server: cairn-reconcile runs cairn-fetch itself, from the folder it was started from.
    let pipeline =
      "\(command("hash")) '\(library)' | \(command("reconcile")) | \(command("gate"))"
      + " | setsid \(command("trash")) --yes"
    func run() async throws -> ToolResult {
      try await ActFixture.offPool {
        try ToolRunner.shell(pipeline, environment: env, workingDirectory: dir.path)
      }
    }

    let seed = try await run()
    #expect(seed.status == 0, "\(seed.stderr)")
    try FileManager.default.removeItem(atPath: library + "/b.jpg")
    let dry = try await run()
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(server.log.mutating.isEmpty)
    let real = try await run()
    #expect(real.status == 0, "\(real.stderr)")
    #expect(server.state.trashedAssetIDs == [try #require(ids["b.jpg"])])
    #expect(!real.stdout.contains(ActFixture.secret) && !real.stderr.contains(ActFixture.secret))
  }

  @Test func reconcileWithNeitherCairnFetchNorCairnBesideItSaysWhatItLookedFor() throws {
    let dir = TemporaryDirectory("cairn-multicall")
    let bin = try Self.installedCairn(in: dir, links: [])
    // The multi-call binary under a tool's name, with no sibling of either kind.
    let lone = dir.path + "/lone"
    try FileManager.default.createDirectory(atPath: lone, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: bin + "/cairn", toPath: lone + "/cairn-reconcile")
    let scan = try ToolRunner.run(
      "cairn-hash", [try dir.file("Photos/a.jpg", "a")], environment: dir.isolatedEnvironment())
    let env = dir.isolatedEnvironment([
      "IMMICH_URL": "http://127.0.0.1:9/api", "IMMICH_API_KEY": ActFixture.secret,
    ])
    let result = try ToolRunner.run(
      lone + "/cairn-reconcile", [], stdin: scan.stdout, environment: env)
    #expect(result.status == ExitStatus.configuration.rawValue)
    #expect(
      result.stderr.contains(
        "cannot find cairn-fetch or cairn next to this program (looked in \(lone))"))
  }
}
