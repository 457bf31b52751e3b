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

/// Runs another cairn tool found next to the running executable (so an installed set of tools
/// uses its own siblings, whatever is on PATH) and reads its record stream.
///
/// The child ends with the pipeline: it stays in this process's group (Foundation's `Process`
/// would give it a group of its own, where Ctrl-C and a terminal's hangup never reach it, and
/// a listing that hangs would outlive the run), a signal sent to this process alone is
/// passed on to it (`ChildSignals`), and a SIGKILL, which cannot be passed on, ends it too: the
/// child watches this process (`ParentWatch`, told of it by `CAIRN_PARENT_PID`). On Linux that
/// watch is tied to the thread that started the child, so the thread that starts a sibling
/// waits for it (`finish`), as every caller does.
package final class SiblingTool {
  package let name: String
  package let executable: String
  private let pid: pid_t
  /// The read end of the child's standard output.
  private let output: Int32
  private var waited = false

  /// The folder holding the running executable.
  package static var executableDirectory: String {
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
  package init(_ name: String, _ arguments: [String]) throws(CairnError) {
    self.name = name
    let (executable, argv) = try Self.locate(name, arguments)
    self.executable = executable
    var fds: [Int32] = [0, 0]
    // Close-on-exec, so only the child's stdout keeps the write end open.
    guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0,
      fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0
    else {
      throw CairnError(.configuration, "cannot run \(name): \(String(cString: strerror(errno)))")
    }
    let (child, code) = Self.spawn(executable, argv, stdout: fds[1])
    guard code == 0 else {
      close(fds[0])
      close(fds[1])
      throw CairnError(
        .configuration, "cannot run \(executable): \(String(cString: strerror(code)))")
    }
    pid = child
    close(fds[1])
    output = fds[0]
    ChildSignals.forward(to: pid)
  }

  /// The program to start and its argument vector: `name` next to this program (a binary of
  /// its own, or a link to the multi-call `cairn`, which runs the tool it is called by), else
  /// `cairn` next to it, as `cairn fetch …`, when only that one binary was installed.
  private static func locate(_ name: String, _ arguments: [String]) throws(CairnError)
    -> (executable: String, argv: [String])
  {
    let folder = executableDirectory
    let byName = folder + "/" + name
    if FileManager.default.isExecutableFile(atPath: byName) { return (byName, [name] + arguments) }
    let multiCall = folder + "/cairn"
    if name.hasPrefix("cairn-"), FileManager.default.isExecutableFile(atPath: multiCall) {
      return (multiCall, ["cairn", String(name.dropFirst("cairn-".count))] + arguments)
    }
    throw CairnError(
      .configuration, "cannot find \(name) or cairn next to this program (looked in \(folder))")
  }

  deinit {
    // Closed first: a child still writing to an abandoned pipe ends (EPIPE) instead of
    // blocking the wait for ever.
    close(output)
    if !waited { _ = waitForExit() }
  }

  /// posix_spawn, in this process's group, with stdin from /dev/null, stdout to `stdout`,
  /// stderr shared, every signal at its default (this process ignores SIGPIPE; the child
  /// decides for itself), and this process named as the parent to watch.
  private static func spawn(_ path: String, _ arguments: [String], stdout: Int32)
    -> (pid: pid_t, error: Int32)
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t()
    sigfillset(&all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF) | Int16(POSIX_SPAWN_SETSIGMASK))
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let envp: [UnsafeMutablePointer<CChar>?] = childEnvironment().map { strdup($0) } + [nil]
    defer { for variable in envp { free(variable) } }
    var child = pid_t()
    let code = posix_spawn(&child, path, &actions, &attributes, argv, envp)
    return (child, code)
  }

  /// This process's environment, with `CAIRN_PARENT_PID` naming this process.
  private static func childEnvironment() -> [String] {
    let prefix = ParentWatch.variable + "="
    var variables: [String] = []
    var entry = environ
    while let variable = entry.pointee {
      let text = String(cString: variable)
      if !text.hasPrefix(prefix) { variables.append(text) }
      entry += 1
    }
    variables.append(prefix + String(getpid()))
    return variables
  }

  /// Waits for the child; its raw wait status.
  private func waitForExit() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    waited = true
    ChildSignals.forget(pid)
    return status
  }

  /// The tool's standard output as a record reader.
  package func reader() -> RecordReader {
    RecordReader(fileDescriptor: output, sourceName: name)
  }

  /// Waits for the tool; a failure becomes ours, with its exit status when it is one of
  /// cairn's (it has already said why on stderr).
  package func finish() throws(CairnError) {
    let status = waitForExit()
    // WIFEXITED and WEXITSTATUS, which Swift can't import (they are macros).
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      let mapped = exited ? ExitStatus(rawValue: code) ?? .serverFailure : .serverFailure
      let how = exited ? "exit status \(code)" : "signal \(status & 0x7f)"
      throw CairnError(mapped, "\(name) failed (\(how))")
    }
  }
}
