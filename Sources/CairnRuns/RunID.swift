import CairnJSON
import Crypto
import Foundation

/// The name of one trash or restore run: when it started (ISO-8601 UTC, to the second) and which
/// machine ran it, e.g. `2026-11-22T10:15:00Z-3F2A9C1B`.
///
/// Run ids sort by time, name a run unambiguously across machines sharing one Immich account, and
/// say nothing about the machine beyond a hash.
package struct RunID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The start time, whole seconds.
  package let started: Date
  /// Eight upper-case hex digits identifying the machine (see `HostID`).
  package let host: String

  package init(started: Date, host: String) {
    self.started = Date(timeIntervalSince1970: started.timeIntervalSince1970.rounded(.down))
    self.host = host.uppercased()
  }

  /// A run id for a run starting now on this machine, later than every run in `existing`, so two
  /// runs in the same second still get distinct names.
  package static func next(
    now: Date = Date(), host: String = HostID.current, after existing: [RunID] = []
  ) -> RunID {
    var candidate = RunID(started: now, host: host)
    if let latest = existing.filter({ $0.host == candidate.host }).max(),
      latest.started >= candidate.started
    {
      candidate = RunID(started: latest.started.addingTimeInterval(1), host: host)
    }
    return candidate
  }

  /// Parses `YYYY-MM-DDTHH:MM:SSZ-XXXXXXXX`; nil for anything else.
  package init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    // The date has two dashes of its own.
    guard parts.count == 4 else { return nil }
    let date = parts[0...2].joined(separator: "-")
    let host = String(parts[3])
    guard date.count == 20, date.hasSuffix("Z"), let started = Date(iso8601: date),
      host.count == 8, host.allSatisfy({ $0.isHexDigit && !$0.isLowercase })
    else { return nil }
    self.init(started: started, host: host)
  }

  package var description: String {
    // `Date.iso8601` carries milliseconds; a run id is to the second.
    let full = started.iso8601
    return String(full.prefix(19)) + "Z-" + host
  }

  package static func < (a: RunID, b: RunID) -> Bool {
    a.started != b.started ? a.started < b.started : a.host < b.host
  }
}

/// A short, stable, anonymous name for this machine: the first 8 hex digits of a SHA-256 of the
/// machine id (or, without one, the host name). Stable across runs, reveals nothing.
package enum HostID {
  package static let current: String = derive(
    machineID: readMachineID(), hostName: ProcessInfo.processInfo.hostName)

  /// The host id for a given machine id and host name (the machine id wins when present).
  package static func derive(machineID: String?, hostName: String) -> String {
    let source = machineID.flatMap { $0.isEmpty ? nil : $0 } ?? hostName
    let digest = SHA256.hash(data: Data(("cairn-host:" + source).utf8))
    return digest.prefix(4).map { byte in
      let hex = String(byte, radix: 16, uppercase: true)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }

  private static func readMachineID() -> String? {
    for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
      if let text = try? String(contentsOfFile: path, encoding: .utf8) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { return trimmed }
      }
    }
    #if os(macOS)
      // IOPlatformUUID would need IOKit; the host name is stable enough there.
    #endif
    return nil
  }
}
