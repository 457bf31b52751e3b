import CairnStream
import CairnTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Two real Syncthing instances on loopback sharing one folder: a "phone" and the library's
/// machine. Each has its own home, random ports, simple versioning (`.stversions`), and
/// everything but the two devices off: no global or local discovery, relays, NAT, usage
/// reporting, crash reporting or upgrades.
final class SyncthingPair: @unchecked Sendable {
  static var isInstalled: Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
      .contains { FileManager.default.isExecutableFile(atPath: "\($0)/syncthing") }
  }

  /// Prepares the pair (keys, configs) off the cooperative pool: `syncthing generate` takes a
  /// while, and the in-process test servers answer on that pool.
  static func make(base: String, phone: String, library: String, env: [String: String])
    async throws -> SyncthingPair
  {
    try await ActFixture.offPool {
      try SyncthingPair(base: base, phone: phone, library: library, env: env)
    }
  }

  struct Instance {
    var home: String
    var folder: String
    var listenPort: Int
    var guiPort: Int
    var deviceID = ""
  }

  let apiKey = "cairn-field-test-key"
  var instances: [Instance]
  private var pids: [Int32] = []
  let env: [String: String]

  /// `phone` sends its edits to `library`; both folders exist.
  init(base: String, phone: String, library: String, env: [String: String]) throws {
    self.env = env
    let ports = try Self.freePorts(4)
    instances = [
      Instance(home: base + "/st-phone", folder: phone, listenPort: ports[0], guiPort: ports[1]),
      Instance(
        home: base + "/st-library", folder: library, listenPort: ports[2], guiPort: ports[3]),
    ]
    for index in instances.indices {
      let home = instances[index].home
      try run("syncthing generate --home='\(home)' --no-default-folder --skip-port-probing")
      instances[index].deviceID = try run("syncthing serve --home='\(home)' --device-id")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      // The folder marker Syncthing insists on before it shares a folder.
      try FileManager.default.createDirectory(
        atPath: instances[index].folder + "/.stfolder", withIntermediateDirectories: true)
    }
    for instance in instances {
      try config(for: instance).write(
        toFile: instance.home + "/config.xml", atomically: true, encoding: .utf8)
    }
  }

  /// Starts both with `posix_spawn`, each in a process group of its own and with its output in its
  /// log (a `Process`, or a shell's background job, kept the test process waiting on them),
  /// with one core for Go and a lower priority: the machine is shared. They find each other
  /// by the addresses in their configs.
  func start() throws {
    var environment = env
    environment["STNODEFAULTFOLDER"] = "1"
    environment["STNOUPGRADE"] = "1"
    environment["GOMAXPROCS"] = "1"
    let environ = environment.map { "\($0.key)=\($0.value)" }
    for instance in instances {
      let arguments = [
        "nice", "-n", "10", "syncthing", "serve", "--home=\(instance.home)", "--no-browser",
        "--no-restart", "--no-upgrade", "--logfile=\(instance.home)/syncthing.log",
      ]
      pids.append(try Self.spawn(arguments, environment: environ))
    }
  }

  /// Stops the two process groups this pair started (Syncthing's monitor and its child), by their
  /// process groups, and reaps them.
  func stop() async {
    for pid in pids { kill(-pid, SIGTERM) }
    let deadline = Date().addingTimeInterval(20)
    var running = pids
    while !running.isEmpty && Date() < deadline {
      running = running.filter { waitpid($0, nil, WNOHANG) == 0 }
      if !running.isEmpty { try? await Task.sleep(nanoseconds: 100_000_000) }
    }
    for pid in running {
      kill(-pid, SIGKILL)
      _ = waitpid(pid, nil, 0)
    }
    pids = []
  }

  /// `/usr/bin/env arguments...` in a new process group, standard streams on /dev/null.
  private static func spawn(_ arguments: [String], environment: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [0, 1, 2] as [Int32] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw CairnError(
        .malformedInput, "cannot start syncthing: \(String(cString: strerror(status)))")
    }
    return pid
  }

  /// Asks the phone's instance to rescan now rather than at its next interval.
  func rescanPhone() async throws {
    let script =
      "curl -fsS -X POST -H 'X-API-Key: \(apiKey)' "
      + "'http://127.0.0.1:\(instances[0].guiPort)/rest/db/scan?folder=photos'"
    try await ActFixture.offPool { [self] in _ = try run(script) }
  }

  /// Waits up to `seconds` for `condition`; false on timeout.
  static func wait(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(nanoseconds: 200_000_000)
    }
    return condition()
  }

  /// The logs of both, for a failure's message.
  var logs: String {
    instances.map {
      (try? String(contentsOfFile: $0.home + "/syncthing.log", encoding: .utf8)) ?? ""
    }
    .map { String($0.suffix(3000)) }.joined(separator: "\n---\n")
  }

  private func config(for instance: Instance) -> String {
    let devices = instances.map { other in
      """
        <device id="\(other.deviceID)" name="\(other.home.hasSuffix("phone") ? "phone" : "library")" \
      compression="metadata" introducer="false" skipIntroductionRemovals="false" \
      introducedBy="">
          <address>tcp://127.0.0.1:\(other.listenPort)</address>
          <paused>false</paused>
          <autoAcceptFolders>false</autoAcceptFolders>
        </device>
      """
    }.joined(separator: "\n")
    let folderDevices = instances.map {
      "    <device id=\"\($0.deviceID)\" introducedBy=\"\"></device>"
    }
    .joined(separator: "\n")
    return """
      <configuration version="36">
        <folder id="photos" label="photos" path="\(instance.folder)" type="sendreceive" \
      rescanIntervalS="3600" fsWatcherEnabled="false" fsWatcherDelayS="1" ignorePerms="false" \
      autoNormalize="true">
          <filesystemType>basic</filesystemType>
      \(folderDevices)
          <versioning type="simple">
            <param key="keep" val="5"></param>
            <cleanupIntervalS>3600</cleanupIntervalS>
            <fsPath></fsPath>
            <fsType>basic</fsType>
          </versioning>
          <markerName>.stfolder</markerName>
        </folder>
      \(devices)
        <gui enabled="true" tls="false" debugging="false">
          <address>127.0.0.1:\(instance.guiPort)</address>
          <apikey>\(apiKey)</apikey>
          <theme>default</theme>
        </gui>
        <options>
          <listenAddress>tcp://127.0.0.1:\(instance.listenPort)</listenAddress>
          <globalAnnounceEnabled>false</globalAnnounceEnabled>
          <localAnnounceEnabled>false</localAnnounceEnabled>
          <relaysEnabled>false</relaysEnabled>
          <natEnabled>false</natEnabled>
          <startBrowser>false</startBrowser>
          <urAccepted>-1</urAccepted>
          <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
          <crashReportingEnabled>false</crashReportingEnabled>
          <announceLANAddresses>false</announceLANAddresses>
        </options>
      </configuration>
      """
  }

  @discardableResult
  private func run(_ script: String) throws -> String {
    let result = try ToolRunner.shell(script, environment: env)
    guard result.status == 0 else {
      throw CairnError(.malformedInput, "\(script): \(result.stderr)")
    }
    return result.stdout
  }

  /// Ports free on loopback right now, each from binding port 0.
  static func freePorts(_ count: Int) throws -> [Int] {
    let result = try ToolRunner.shell(
      """
      python3 -c 'import socket
      s=[socket.socket() for _ in range(\(count))]
      [x.bind(("127.0.0.1",0)) for x in s]
      print(" ".join(str(x.getsockname()[1]) for x in s))'
      """, environment: ProcessInfo.processInfo.environment)
    let ports = result.stdout.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard result.status == 0, ports.count == count else {
      throw CairnError(.malformedInput, "no free ports: \(result.stderr)")
    }
    return ports
  }
}
