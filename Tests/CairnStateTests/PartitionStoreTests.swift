import CairnEngine
import CairnRecords
import CairnSettings
import CairnStateTestSupport
import CairnStream
import CairnSupport
import CairnTestSupport
import Foundation
import GRDB
import Testing

@testable import CairnState

@Suite struct PartitionStoreTests {
  @Test func createsPrivateFolderAndFile() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    var info = stat()
    #expect(stat(store.directory, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(stat(store.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(store.path.hasSuffix("/servers/photos.example.net_api__u-1/state.sqlite"))
  }

  /// Opened without checkpointing (as cairn-reconcile opens it), the store leaves its log to
  /// the background checkpoint, which copies it while the store is read and written, and to
  /// the close: nothing recorded is lost either way.
  @Test func aStoreWithoutCheckpointingLosesNothing() throws {
    let fixture = StoreFixture()
    let files = (0..<50_000).map { file("/lib/\($0).jpg", "C\($0)", inode: UInt64($0)) }
    let size = { (path: String) -> Int in
      var info = stat()
      return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
    do {
      let store = try PartitionStore.open(
        fixture.partition, paths: fixture.paths, checkpointing: false)
      let empty = size(store.path)
      try store.recordScan(files, completeRoots: ["/lib"], at: t0)
      // Thousands of pages in the log, none copied at the commit.
      #expect(size(store.path + "-wal") > 1_000 * 4_096)
      #expect(size(store.path) == empty)
      let checkpoint = store.checkpoint()
      // Read and written meanwhile.
      #expect(try store.observed.count() == 50_000)
      try store.recordScan(Array(files.dropFirst()), completeRoots: ["/lib"], at: t0 + day)
      try checkpoint.value()
      #expect(size(store.path) > 1_000 * 4_096)
      #expect(try store.observed.count() == 50_000)
      store.close()
    }
    let reopened = try fixture.open()
    #expect(try reopened.observed.count() == 50_000)
    #expect(try reopened.observed.contains("C0") && reopened.observed.contains("C49999"))
    let output = try reopened.reconcile(
      files: Array(files.dropFirst()),
      roots: [RootStatus(path: "/lib", complete: true, files: 1_999)],
      assets: PlainListing([]), settings: .defaults, now: t0 + day)
    #expect(output.gone == ["C0"])
  }

  @Test func aSecondRunIsBusyUntilTheFirstCloses() throws {
    let fixture = StoreFixture()
    let first = try fixture.open()
    let error = #expect(throws: CairnError.self) { try fixture.open() }
    #expect(error?.status == .busy)
    #expect(error?.message.contains("another cairn run is using") == true)
    first.close()
    _ = try fixture.open()
  }

  @Test func aDatabaseFromANewerCairnIsRefusedAndKept() throws {
    let fixture = StoreFixture()
    let path: String
    do {
      let store = try fixture.open()
      path = store.path
      try store.meta.set("probe", "kept")
      store.close()
    }
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v999-from-the-future')")
    }
    let error = #expect(throws: CairnError.self) { try fixture.open() }
    #expect(error?.status == .stateFailure)
    #expect(error?.message.contains("newer cairn") == true)
    let kept = try queue.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'probe'")
    }
    #expect(kept == "kept")
  }

  @Test func aDamagedDatabaseIsRefusedNotReset() throws {
    let fixture = StoreFixture()
    let directory = fixture.paths.partitionDirectory(fixture.partition)
    try CairnPaths.makePrivateDirectory(directory)
    let garbage = Array(repeating: UInt8(0x5A), count: 8192)
    try Data(garbage).write(to: URL(fileURLWithPath: directory + "/state.sqlite"))
    let error = #expect(throws: CairnError.self) { try fixture.open() }
    #expect(error?.status == .stateFailure)
    let after = try Data(contentsOf: URL(fileURLWithPath: directory + "/state.sqlite"))
    #expect(Array(after) == garbage)
  }

  @Test func partitionsDoNotShareState() throws {
    let fixture = StoreFixture()
    let store = try fixture.open()
    try store.recordScan([file("/lib/a.jpg", "AAA")], completeRoots: ["/lib"], at: t0)
    let other = try PartitionStore.open(
      ServerPartition(serverURL: fixture.partition.serverURL, userId: "U-2"), paths: fixture.paths)
    #expect(try other.observed.count() == 0)
    #expect(try store.observed.count() == 1)
  }
}
