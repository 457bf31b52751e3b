// swift-tools-version:6.1
// cairn: propagate local photo deletions to an Immich server, safely.
import PackageDescription

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let httpClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")

/// The floors every module stands on, lowest first: what was once one module, CairnCore, as one
/// target a floor. A floor may name only floors below it; `floorTargets()` refuses any other, so
/// the manifest holds the order and the compiler holds each import to what its target lists.
let floors: [(name: String, below: [String], others: [Target.Dependency])] = [
  // Exit statuses, diagnostics, the terminal, POSIX I/O, the partition's name, the version.
  ("CairnSupport", [], ["CairnProcess"]),
  // The NDJSON scanner and writer, dates, line digests.
  ("CairnJSON", ["CairnSupport"], []),
  // One file per record: its type, encoder and decoder together.
  ("CairnRecords", ["CairnSupport", "CairnJSON"], []),
  // The stream contract: reading and writing records, CairnError.
  ("CairnStream", ["CairnSupport", "CairnJSON", "CairnRecords"], [argumentParser]),
  // Each setting's rule (SettingsTable), configuration, profiles, key files, XDG paths, globs.
  ("CairnSettings", ["CairnSupport", "CairnRecords", "CairnStream"], [argumentParser]),
  // The pure reconciliation engine over two protocols, with their plain readings.
  ("CairnEngine", ["CairnSupport", "CairnJSON", "CairnRecords", "CairnSettings"], []),
  // The safety rails and the plan.
  ("CairnSafety", ["CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine"], [crypto]),
  // Runs, tags and the journal over the RunServer protocol.
  ("CairnRuns", ["CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings"], [crypto]),
  // Review inside Immich: the marks a run sets, the tags and the decisions read from them.
  ("CairnMarks", ["CairnStream", "CairnSettings"], []),
  // What every tool shares: the command protocol, common options, ToolEntry, thread helpers.
  (
    "CairnTool", ["CairnSupport", "CairnRecords", "CairnStream", "CairnSettings", "CairnRuns"],
    [argumentParser]
  ),
]

/// The floors as targets, after checking that each stands only on floors below it (an upward
/// edge makes no cycle, so SwiftPM alone would build it).
func floorTargets() -> [Target] {
  floors.enumerated().map { index, floor in
    let lower = Set(floors[..<index].map(\.name))
    for name in floor.below where !lower.contains(name) {
      fatalError("Package.swift: the floor \(floor.name) names \(name), which is not a floor below it")
    }
    return .target(name: floor.name, dependencies: floor.below.map { .byName(name: $0) } + floor.others)
  }
}

/// The eight tools. Each tool's folder (named as its binary) is a library, so that one
/// multi-call binary, `cairn`, can hold them all: its 80 MiB replace eight static binaries of
/// 64 to 79 MiB each, every one carrying Foundation. A launcher of a few lines per tool keeps
/// `swift run cairn-hash` and the tests' binaries.
let tools: [(name: String, module: String, dependencies: [Target.Dependency])] = [
  ("cairn-hash", "CairnHashTool", ["CairnHashing"]),
  ("cairn-observe", "CairnObserveTool", ["CairnState", "CairnReconcile", "CairnWatch"]),
  ("cairn-fetch", "CairnFetchTool", ["CairnImmich"]),
  ("cairn-reconcile", "CairnReconcileTool", ["CairnState", "CairnReconcile"]),  // cairn-fetch runs as a subprocess
  ("cairn-gate", "CairnGateTool", ["CairnState", "CairnImmich", "CairnReviewPage"]),  // thumbnails for --review
  ("cairn-trash", "CairnTrashTool", ["CairnState", "CairnImmich"]),
  ("cairn-tag", "CairnTagTool", ["CairnImmich"]),
  ("cairn-restore", "CairnRestoreTool", ["CairnState", "CairnImmich"]),
]

/// A tool's command, from its folder.
func toolLibrary(_ tool: (name: String, module: String, dependencies: [Target.Dependency])) -> Target {
  .target(
    name: tool.module, dependencies: [
      "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine",
      "CairnSafety", "CairnRuns", "CairnMarks", "CairnTool", argumentParser,
    ] + tool.dependencies,
    path: "Sources/\(tool.name)")
}

/// The executable of one tool alone (`swift run cairn-hash`, the tests).
func launcher(_ tool: (name: String, module: String, dependencies: [Target.Dependency])) -> Target {
  .executableTarget(
    name: tool.name, dependencies: [
      "CairnTool", .target(name: tool.module),
    ], path: "Sources/Launchers/\(tool.name)")
}

let package = Package(
  name: "cairn",
  platforms: [.macOS(.v14)],
  products: tools.map { .executable(name: $0.name, targets: [$0.name]) } + [
    .executable(name: "cairn", targets: ["cairn"]),
    .executable(name: "immich-testserver", targets: ["immich-testserver"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
  ],
  // The floors first (`floors` above), then the modules that stand on them.
  targets: floorTargets() + [
    // Process calls Swift cannot make (prctl is variadic): a child that dies with its parent.
    .target(name: "CairnProcess"),
    // Walking a library, SHA-1 of files, and the global hash cache.
    .target(name: "CairnHashing", dependencies: [
      "CairnSupport", "CairnRecords", "CairnStream", "CairnSettings", "CairnSQLite", crypto, grdb,
    ]),
    // SQLite calls Swift cannot make (variadic functions, the SQLITE_TRANSIENT macro).
    .target(name: "CairnSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
    // Following the library's folders with inotify (FSEvents on macOS): which events are
    // deletions, renames, edits and gaps.
    .target(name: "CairnWatch", dependencies: [
      "CairnSupport", "CairnJSON", "CairnSettings", "CairnHashing",
    ]),
    // The sealed-file format the state's and reconcile's files share (a body streamed in
    // pieces, ended by its digest), and strings keyed and filtered by their bytes.
    .target(name: "CairnSealedFiles", dependencies: ["CairnSupport", "CairnStream"]),
    // Per-partition state: observed store, signals, anchors, exclusions, approvals, runs, the
    // last scan's snapshot.
    .target(
      name: "CairnState",
      dependencies: [
        "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine",
        "CairnSafety", "CairnRuns", "CairnTool", "CairnHashing", "CairnSQLite", "CairnSealedFiles",
        grdb,
      ]),
    // Reading a scan and a server listing together (cairn-reconcile's input): the readings,
    // the engine's fast adapters, the child cairn-fetch. It reads the state only through
    // `ReconcileAccess` and the last scan's snapshot (`StateDoorTests`).
    .target(name: "CairnReconcile", dependencies: [
      "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine",
      "CairnTool", "CairnSealedFiles", "CairnState",
    ]),
    // The Immich HTTP client, server listing, sync stream and server-asset cache.
    .target(name: "CairnImmich", dependencies: [
      "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnRuns",
      httpClient, grdb,
    ]),
    // A faithful test double of the Immich API (2.7, 3.1, 3.2 and 3.3), for tests and the demo.
    .target(name: "ImmichTestServer", dependencies: [hummingbird, logging]),
    // The review page (cairn-gate --review): the plan as self-contained HTML. No I/O.
    .target(name: "CairnReviewPage", dependencies: [
      "CairnSupport", "CairnJSON", "CairnRecords", "CairnEngine", "CairnSafety", crypto,
    ]),

    // The multi-call binary: every tool, by the name it is called by or as `cairn <tool>`.
    .executableTarget(
      name: "cairn", dependencies: [
        "CairnSupport", "CairnTool", argumentParser,
      ] + tools.map { .target(name: $0.module) }),
    .executableTarget(name: "immich-testserver", dependencies: ["ImmichTestServer", argumentParser]),
    // What the fuzzer feeds (records, streams, state files, configuration): see docs/FUZZING.md.
    .target(
      name: "CairnFuzzHarness", dependencies: [
        "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnState",
        "CairnReconcile",
      ],
      path: "fuzz/Harness"),

    // Helpers shared by the test targets: temporary folders, running built binaries.
    .target(name: "CairnTestSupport", dependencies: [
      "CairnJSON", "CairnRecords",
    ], path: "Tests/CairnTestSupport"),
    .testTarget(name: "CairnCoreTests", dependencies: [
      "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine",
      "CairnSafety", "CairnRuns", "CairnMarks", "CairnTestSupport",
    ]),
    .testTarget(name: "CairnHashingTests", dependencies: ["CairnHashing", "CairnTestSupport", crypto]),
    .testTarget(name: "CairnWatchTests", dependencies: ["CairnWatch", "CairnTestSupport"]),
    // Partitions, random libraries and scans as arrays, for the tests of the state and of reconcile.
    .target(
      name: "CairnStateTestSupport",
      dependencies: [
        "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine",
        "CairnSealedFiles", "CairnState", "CairnTestSupport",
      ],
      path: "Tests/CairnStateTestSupport"),
    .testTarget(
      name: "CairnStateTests",
      dependencies: ["CairnSealedFiles", "CairnState", "CairnStateTestSupport", "CairnTestSupport", grdb]),
    .testTarget(
      name: "CairnReconcileTests",
      dependencies: [
        "CairnReconcile", "CairnSealedFiles", "CairnState", "CairnStateTestSupport", "CairnTestSupport",
      ]),
    .testTarget(name: "CairnImmichTests", dependencies: ["CairnImmich", "ImmichTestServer", "CairnTestSupport"]),
    .testTarget(
      name: "CairnReviewPageTests", dependencies: ["CairnReviewPage", "ImmichTestServer", "CairnTestSupport", crypto]),
    .testTarget(name: "ImmichTestServerTests", dependencies: ["ImmichTestServer", "CairnTestSupport", httpClient]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "CairnSupport", "CairnJSON", "CairnRecords", "CairnStream", "CairnSettings", "CairnEngine", "CairnSafety", "CairnRuns", "CairnMarks", "CairnState", "CairnReconcile", "ImmichTestServer", "CairnTestSupport", "CairnReviewPage",
      ]),
    .testTarget(name: "FuzzCorpusTests", dependencies: ["CairnFuzzHarness", "CairnTestSupport"]),
  ] + tools.map(toolLibrary) + tools.map(launcher)
)

// The libFuzzer driver has no `main` of its own (libFuzzer's links in with -sanitize=fuzzer), so
// it exists only for `make fuzz`, which sets CAIRN_FUZZ and builds in .build-fuzz.
if Context.environment["CAIRN_FUZZ"] != nil {
  package.targets.append(
    .executableTarget(name: "cairn-fuzz", dependencies: ["CairnFuzzHarness"], path: "fuzz/Driver"))
}
