import CairnCore
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
