import Foundation

#if canImport(Glibc)
  import Glibc

  /// Starts `executable` with stdin, stdout and stderr on the given descriptors and waits for
  /// its exit status, without Foundation's `Process`.
  ///
  /// Why: on Linux, `Process.run()` lists `/proc/self/fd` to close every inherited descriptor,
  /// and copies each entry's whole 256-byte name field; once the test process holds some 1,350
  /// descriptors (a full suite's in-process servers and clients at their peak), the last entry
  /// lies near the end of the directory buffer and that copy runs off it: SIGSEGV inside
  /// `memcpy`, seen in full-suite runs. Here the child closes every descriptor above 2 with
  /// glibc's `closefrom` action instead.
  enum Spawn {
    struct Failure: Error, CustomStringConvertible {
      let description: String
    }

    static func run(
      _ executable: String, _ arguments: [String], environment: [String: String],
      workingDirectory: String?, stdin: Int32, stdout: Int32, stderr: Int32
    ) throws -> Int32 {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, stdin, 0)
      posix_spawn_file_actions_adddup2(&actions, stdout, 1)
      posix_spawn_file_actions_adddup2(&actions, stderr, 2)
      if let workingDirectory {
        guard let changeDirectory = changeDirectoryAction else {
          throw Failure(description: "this glibc cannot start a process in another folder")
        }
        _ = changeDirectory(&actions, workingDirectory)
      }
      if let closeFrom = closeFromAction {
        _ = closeFrom(&actions, 3)
      }
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      // Its own process group, as Foundation's Process gives it (a signal to the test run's
      // group does not reach it).
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

      let argv = ([executable] + arguments).map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer {
        for pointer in argv + envp { free(pointer) }
      }
      var pid = pid_t()
      let started = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      guard started == 0 else {
        throw Failure(description: "\(executable): \(String(cString: strerror(started)))")
      }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else {
          throw Failure(description: "waitpid: \(String(cString: strerror(errno)))")
        }
      }
      // Exited: its status; killed: the signal number, as Process.terminationStatus gives it.
      let signal = status & 0x7f
      return signal == 0 ? (status >> 8) & 0xff : signal
    }

    typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later) and
    /// `posix_spawn_file_actions_addchdir_np` (2.29), which Swift's Glibc module does not
    /// declare.
    private static let closeFromAction = glibc(
      "posix_spawn_file_actions_addclosefrom_np",
      as: (@convention(c) (Actions, Int32) -> Int32).self)
    private static let changeDirectoryAction = glibc(
      "posix_spawn_file_actions_addchdir_np",
      as: (@convention(c) (Actions, UnsafePointer<CChar>) -> Int32).self)

    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
      return unsafeBitCast(symbol, to: type)
    }
  }
#endif
