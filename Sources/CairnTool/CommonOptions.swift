import ArgumentParser
import CairnRecords
import CairnSettings
import CairnStream
import CairnSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The flags every tool takes.
package struct CommonOptions: ParsableArguments {
  @Flag(name: .shortAndLong, help: "Narrate each phase and how long it took, on stderr.")
  package var verbose = false

  @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors (no progress, no summary).")
  package var quiet = false

  @Option(
    help: ArgumentHelp(
      "Use this profile of the configuration file (as CAIRN_PROFILE does).", valueName: "name"))
  package var profile: String?

  package init() {}

  /// How loud this run is, as `Diagnostics` prints.
  package var verbosity: Diagnostics.Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }

  /// The flags that make a cairn tool this one starts (its `cairn-fetch`) as quiet or as loud
  /// as this run.
  package var forwarded: [String] { quiet ? ["--quiet"] : verbose ? ["--verbose"] : [] }

  package mutating func validate() throws {
    if verbose && quiet { throw ValidationError("--verbose and --quiet exclude each other") }
    if let profile, !ConfigurationFile.isValidProfileName(profile) {
      throw ValidationError(
        "invalid profile name '\(profile)': letters, digits, '.', '_' and '-', starting with a"
          + " letter or digit")
    }
  }
}

/// How a tool's `run()` starts and ends, the same way for all of them.
package enum Tool {
  /// Sets up diagnostics for the tool `command` names (see `toolName`), runs `body`, and turns
  /// a `CairnError` into its one-line message and exit status.
  ///
  /// A tool that writes records (`writesRecords`) and fails ends its output with an `abort`
  /// record, so the next stage stops with the same status instead of reading a stream that
  /// was cut short (see `AbortRecord`). Not for status 1 (the stream ended properly and
  /// carries its errors in-band), and not onto a terminal, where nobody reads records.
  package static func run<Command: ParsableCommand>(
    _ command: Command.Type, _ options: CommonOptions, writesRecords: Bool = true,
    _ body: () async throws -> ExitStatus
  ) async throws {
    try await run(named: command.toolName, options, writesRecords: writesRecords, body)
  }

  private static func run(
    named name: String, _ options: CommonOptions, writesRecords: Bool = true,
    _ body: () async throws -> ExitStatus
  ) async throws {
    Diagnostics.tool = name
    Diagnostics.verbosity = options.verbosity
    // Through the environment, so every reading of the configuration in this process and in
    // the tools it starts (cairn-reconcile's cairn-fetch) sees the same profile.
    if let profile = options.profile { setenv("CAIRN_PROFILE", profile, 1) }
    ParentWatch.start()
    _ = ProgressLine.standardError  // its first redraw is an interval after the start
    let status: ExitStatus
    do {
      status = try await body()
      ProgressLine.standardError.finish()
    } catch let error as CairnError {
      if let carried = error.abort {
        // The stage that failed has said why; one line here says where the pipeline stopped.
        Diagnostics.info((error.location.map { "\($0): " } ?? "") + error.message)
        if writesRecords { AbortOutput.write(carried.passed(on: name)) }
      } else {
        Diagnostics.error(error.message, at: error.location)
        if writesRecords { AbortOutput.write(AbortRecord(name, error)) }
      }
      throw ExitCode(error.status.rawValue)
    }
    if status != .success && status != .partial && writesRecords {
      AbortOutput.write(
        AbortRecord(tool: name, status: status, message: status.meaning))
    }
    if status != .success { throw ExitCode(status.rawValue) }
  }
}

extension ParsableCommand {
  /// The tool's name as its configuration declares it, which is the binary's name. A
  /// subcommand names its tool through the root command (`CairnObserve.toolName`).
  package static var toolName: String { configuration.commandName ?? "cairn" }
}
