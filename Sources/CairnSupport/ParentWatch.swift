import CairnProcess
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A cairn tool started by another (`cairn-reconcile`'s `cairn-fetch`, see `SiblingTool`) ends
/// when its parent does, however the parent ends.
///
/// A parent stopped by SIGINT, SIGTERM or SIGHUP passes the signal on (`ChildSignals`), but one
/// killed with SIGKILL (the out-of-memory killer, a service manager's last word) can pass on
/// nothing, and a listing left running would keep asking the server for pages no one reads.
/// So the child watches for itself: on Linux the kernel sends it SIGKILL when the parent dies
/// (`PR_SET_PDEATHSIG`); on macOS a kqueue waits for the parent's exit on a thread of its own.
/// The parent names itself in `CAIRN_PARENT_PID`; a child whose parent is already someone else
/// when it looks (the parent died before the watch was set) ends at once.
package enum ParentWatch {
  /// The variable in which a parent cairn tool names itself to the child it starts.
  package static let variable = "CAIRN_PARENT_PID"

  /// Starts watching the parent named in the environment, if any. Called once, at the start.
  package static func start() {
    guard let value = getenv(variable), let parent = pid_t(String(cString: value)), parent > 1
    else { return }
    // Not passed on: a process this one starts has another parent.
    unsetenv(variable)
    watch(parent)
    // Checked after the watch is set, so a parent dying in between is caught by one or the
    // other: an orphan has been given to another process.
    if getppid() != parent { endNow() }
  }

  private static func watch(_ parent: pid_t) {
    #if os(Linux)
      if cairn_die_with_parent(SIGKILL) != 0 {
        Diagnostics.warning(
          "cannot watch the parent process \(parent): \(String(cString: strerror(errno)))")
      }
    #elseif canImport(Darwin)
      let queue = kqueue()
      guard queue >= 0 else { return }
      var change = kevent(
        ident: UInt(parent), filter: Int16(EVFILT_PROC), flags: UInt16(EV_ADD | EV_ONESHOT),
        fflags: UInt32(NOTE_EXIT), data: 0, udata: nil)
      // ESRCH: the parent is gone already; the check after this call ends the run.
      guard kevent(queue, &change, 1, nil, 0, nil) == 0 else { return }
      let thread = Thread {
        var event = kevent()
        while kevent(queue, nil, 0, &event, 1, nil) < 0 && errno == EINTR {}
        ParentWatch.endNow()
      }
      thread.name = "parent watch"
      thread.start()
    #endif
  }

  /// Ends the process at once, as the kernel's SIGKILL would: nothing to tidy (a listing keeps
  /// no state but its caches, committed in transactions).
  private static func endNow() -> Never {
    kill(getpid(), SIGKILL)
    _exit(Int32(ExitStatus.interrupted.rawValue))
  }
}
