import ArgumentParser

/// The flags every tool takes.
public struct CommonOptions: ParsableArguments {
  @Flag(name: .shortAndLong, help: "Narrate each phase and how long it took, on stderr.")
  public var verbose = false

  @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors (no progress, no summary).")
  public var quiet = false

  public init() {}

  public mutating func validate() throws {
    if verbose && quiet { throw ValidationError("--verbose and --quiet exclude each other") }
  }
}

/// How a tool's `run()` starts and ends, the same way for all of them.
public enum Tool {
  /// Sets up diagnostics for `name`, runs `body`, and turns a `CairnError` into its one-line
  /// message and exit status.
  public static func run(
    _ name: String, _ options: CommonOptions, _ body: () async throws -> ExitStatus
  ) async throws {
    Diagnostics.tool = name
    Diagnostics.verbosity = options.quiet ? .quiet : options.verbose ? .verbose : .normal
    _ = ProgressLine.standardError  // its first redraw is an interval after the start
    let status: ExitStatus
    do {
      status = try await body()
      ProgressLine.standardError.finish()
    } catch let error as CairnError {
      Diagnostics.error(error.message, at: error.location)
      throw ExitCode(error.status.rawValue)
    }
    if status != .success { throw ExitCode(status.rawValue) }
  }
}
