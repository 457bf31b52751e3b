import CairnCore
import Foundation

/// Runs another cairn tool found next to the running executable (so an installed set of tools
/// uses its own siblings, whatever is on PATH) and reads its record stream.
public final class SiblingTool {
  public let name: String
  public let executable: String
  private let process = Process()
  private let pipe = Pipe()

  /// The folder holding the running executable.
  public static var executableDirectory: String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return (path as NSString).deletingLastPathComponent
      }
    #endif
    let argument0 = CommandLine.arguments.first ?? ""
    let resolved = URL(fileURLWithPath: argument0).resolvingSymlinksInPath().path
    return (resolved as NSString).deletingLastPathComponent
  }

  /// Starts `name` with `arguments`; its stderr is ours, so its messages reach the person.
  public init(_ name: String, _ arguments: [String]) throws(CairnError) {
    self.name = name
    executable = Self.executableDirectory + "/" + name
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw CairnError(
        .configuration, "cannot find \(name) next to this program (looked for \(executable))")
    }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw CairnError(.configuration, "cannot run \(executable): \(error.localizedDescription)")
    }
  }

  /// The tool's standard output as a record reader.
  public func reader() -> RecordReader {
    RecordReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, sourceName: name)
  }

  /// Waits for the tool; a failure becomes ours, with its exit status when it is one of
  /// cairn's (it has already said why on stderr).
  public func finish() throws(CairnError) {
    process.waitUntilExit()
    let status = process.terminationStatus
    guard process.terminationReason == .exit, status == 0 else {
      let mapped = ExitStatus(rawValue: status) ?? .serverFailure
      throw CairnError(mapped, "\(name) failed (exit status \(status))")
    }
  }
}
