import Foundation

/// What a finished process left behind.
package struct ToolResult: Sendable {
  package let status: Int32
  package let stdout: String
  package let stderr: String

  /// stdout split into lines (each a record, for cairn tools).
  package var lines: [String] { stdout.split(separator: "\n").map(String.init) }

  /// stdout's records parsed with Foundation's JSON parser (an independent check of ours).
  package func records() throws -> [[String: Any]] {
    try lines.map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { throw ToolRunner.Failure("not a JSON object: \(line)") }
      return object
    }
  }

  /// The records of one `type`.
  package func records(ofType type: String) throws -> [[String: Any]] {
    try records().filter { ($0["type"] as? String) == type }
  }

  /// The abort record, when stdout is that record alone: what a failed stage leaves for the
  /// next one, and nothing else.
  package var onlyAbort: [String: Any]? {
    guard lines.count == 1, let record = try? records().first,
      record["type"] as? String == "abort"
    else { return nil }
    return record
  }
}

/// Runs the package's built binaries, as a user would, through real pipes.
package enum ToolRunner {
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
  }

  /// The folder holding the built executables (beside the test bundle).
  package static let productsDirectory: String = {
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent().path
      }
      return Bundle.main.bundleURL.path
    #else
      let exe =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
      return (exe as NSString).deletingLastPathComponent
    #endif
  }()

  /// Runs `tool` (a name in the products folder, or an absolute path) with `stdin` as input.
  package static func run(
    _ tool: String, _ arguments: [String] = [], stdin: String? = nil,
    environment: [String: String], workingDirectory: String? = nil
  ) throws -> ToolResult {
    let executable = tool.hasPrefix("/") ? tool : productsDirectory + "/" + tool
    return try runProcess(
      executable, arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment,
      workingDirectory: workingDirectory)
  }

  /// Runs a shell pipeline (`cairn-hash DIR | cairn-reconcile ...`) with the products folder
  /// first on PATH. `set -o pipefail` is off: the status is the last command's, as in a script.
  package static func shell(
    _ script: String, stdin: String? = nil, environment: [String: String],
    workingDirectory: String? = nil
  ) throws -> ToolResult {
    var env = environment
    env["PATH"] = productsDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    return try runProcess(
      "/bin/sh", ["-c", script], stdin: stdin.map { Data($0.utf8) }, environment: env,
      workingDirectory: workingDirectory)
  }

  private static func runProcess(
    _ executable: String, _ arguments: [String], stdin: Data?, environment: [String: String],
    workingDirectory: String?
  ) throws -> ToolResult {
    // Output goes to files, not pipes: no deadlock however much a tool prints.
    let scratch = TemporaryDirectory("cairn-run")
    let outPath = scratch.path + "/stdout"
    let errPath = scratch.path + "/stderr"
    let inPath = scratch.path + "/stdin"
    FileManager.default.createFile(atPath: outPath, contents: nil)
    FileManager.default.createFile(atPath: errPath, contents: nil)
    FileManager.default.createFile(atPath: inPath, contents: stdin ?? Data())
    let outHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let inHandle = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
    let status = try launch(
      executable, arguments, environment: environment, workingDirectory: workingDirectory,
      stdin: inHandle, stdout: outHandle, stderr: errHandle)
    try outHandle.close()
    try errHandle.close()
    try inHandle.close()
    let out = try String(contentsOfFile: outPath, encoding: .utf8)
    let err = try String(contentsOfFile: errPath, encoding: .utf8)
    return ToolResult(status: status, stdout: out, stderr: err)
  }

  /// Runs the process to its end and returns its status (see `Spawn` for why not `Process`
  /// on Linux).
  private static func launch(
    _ executable: String, _ arguments: [String], environment: [String: String],
    workingDirectory: String?, stdin: FileHandle, stdout: FileHandle, stderr: FileHandle
  ) throws -> Int32 {
    #if canImport(Glibc)
      return try Spawn.run(
        executable, arguments, environment: environment, workingDirectory: workingDirectory,
        stdin: stdin.fileDescriptor, stdout: stdout.fileDescriptor, stderr: stderr.fileDescriptor)
    #else
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.environment = environment
      if let workingDirectory {
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
      }
      process.standardOutput = stdout
      process.standardError = stderr
      process.standardInput = stdin
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    #endif
  }
}

extension ToolRunner {
  /// `run`, awaited off the cooperative pool (see `offCooperativePool`).
  package static func runDetached(
    _ tool: String, _ arguments: [String] = [], stdin: String? = nil,
    environment: [String: String], workingDirectory: String? = nil
  ) async throws -> ToolResult {
    try await offCooperativePool {
      try run(
        tool, arguments, stdin: stdin, environment: environment,
        workingDirectory: workingDirectory)
    }
  }

  /// `shell`, awaited off the cooperative pool (see `offCooperativePool`).
  package static func shellDetached(
    _ script: String, stdin: String? = nil, environment: [String: String],
    workingDirectory: String? = nil
  ) async throws -> ToolResult {
    try await offCooperativePool {
      try shell(
        script, stdin: stdin, environment: environment, workingDirectory: workingDirectory)
    }
  }
}

/// Runs blocking work (a tool and the wait for it) on a thread of its own and awaits it.
///
/// `swift test` runs every suite in one process, on a cooperative pool of one thread per core:
/// a test that blocked a pool thread for seconds while a tool ran would hold up every other
/// test's steps (the in-process Immich test servers answer on threads of their own).
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T)
  async throws -> T
{
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async {
      continuation.resume(with: Result { try body() })
    }
  }
}
