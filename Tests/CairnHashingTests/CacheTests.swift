import CairnTestSupport
import Foundation
import Testing

/// The persistent hash cache: unchanged files aren't read again; changed ones always are.
@Suite("cairn-hash cache")
struct CacheTests {
  @Test("a second run takes every checksum from the cache")
  func hitPath() async throws {
    let dir = TemporaryDirectory()
    for i in 0..<20 {
      try dir.file("lib/\(i).jpg", contents: Hash.pattern(100 + i, seed: UInt8(i)))
    }
    Hash.settle()
    let first = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(try Hash.counts(first)["hashed"] == 20)
    #expect(try Hash.counts(first)["cached"] == 0)
    let second = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(try Hash.counts(second)["hashed"] == 0)
    #expect(try Hash.counts(second)["cached"] == 20)
    #expect(try Hash.checksums(second) == (try Hash.checksums(first)))
    // --no-cache reads everything again and still agrees.
    let third = try await Hash.run(["--no-cache", dir.path + "/lib"], in: dir)
    #expect(try Hash.counts(third)["hashed"] == 20)
    #expect(try Hash.checksums(third) == (try Hash.checksums(first)))
  }

  @Test("same size and a restored mtime (touch -d) still invalidate the entry")
  func restoredMtime() async throws {
    let dir = TemporaryDirectory()
    let path = try dir.file("lib/a.jpg", "original bytes")
    let made = try await Hash.sh("touch -d '2020-01-02 03:04:05.123456789' '\(path)'", in: dir)
    try #require(made.status == 0)
    Hash.settle()
    let first = try await Hash.run([dir.path + "/lib"], in: dir)
    let before = try #require(try Hash.checksums(first)[path])
    let changed = try await Hash.sh(
      "printf 'modified bytes' > '\(path)' && touch -d '2020-01-02 03:04:05.123456789' '\(path)'",
      in: dir)
    try #require(changed.status == 0)
    Hash.settle()
    let second = try await Hash.run([dir.path + "/lib"], in: dir)
    let after = try #require(try Hash.checksums(second)[path])
    #expect(after != before)
    #expect(after == (try await Hash.reference(path, in: dir)))
    #expect(try Hash.counts(second)["hashed"] == 1)
    let record = try #require(try second.records(ofType: "file").first)
    #expect(record["mtime"] as? String == "2020-01-02T03:04:05.123Z")
  }

  @Test("the cache is private: folder 0700, file 0600")
  func permissions() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    _ = try await Hash.run([dir.path + "/lib"], in: dir)
    let folder = dir.path + "/cache/cairn"
    let attributes = try FileManager.default.attributesOfItem(atPath: folder)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    let file = try FileManager.default.attributesOfItem(atPath: folder + "/hashes.sqlite")
    #expect((file[.posixPermissions] as? Int) == 0o600)
  }

  @Test("a corrupted cache is rebuilt with a warning")
  func corrupted() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    Hash.settle()
    try FileManager.default.createDirectory(
      atPath: dir.path + "/cache/cairn", withIntermediateDirectories: true)
    try Data(repeating: 0x42, count: 8192).write(
      to: URL(fileURLWithPath: dir.path + "/cache/cairn/hashes.sqlite"))
    let first = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(first.status == 0)
    #expect(first.stderr.contains("warning: hash cache unusable"))
    #expect(try Hash.checksums(first)[dir.path + "/lib/a.jpg"] == "hvfkN/qlp/zhXR3cuerq6jd2Z7g=")
    let second = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(second.stderr.isEmpty)
    #expect(try Hash.counts(second)["cached"] == 1)
  }

  @Test("two runs sharing the cache both finish with correct checksums")
  func concurrentRuns() async throws {
    let dir = TemporaryDirectory()
    for i in 0..<400 {
      try dir.file(
        "lib/\(i % 10)/\(i).jpg",
        contents: Hash.pattern(3000, seed: UInt8(i % 256)) + [UInt8(i % 256), UInt8(i / 256)])
    }
    Hash.settle()
    let both = try await Hash.sh(
      "cairn-hash '\(dir.path)/lib' > '\(dir.path)/one' & "
        + "cairn-hash '\(dir.path)/lib' > '\(dir.path)/two'; s=$?; wait $!; echo $s $?",
      in: dir)
    #expect(both.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0", "\(both.stderr)")
    #expect(both.stderr.isEmpty, "neither run should have to give up or rebuild the cache")
    let reference = try await Hash.run(["--no-cache", dir.path + "/lib"], in: dir)
    let expected = try Hash.checksums(reference)
    for name in ["one", "two"] {
      let text = try String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)
      #expect(try Hash.checksums(stdout: text) == expected)
    }
    let third = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(try Hash.counts(third)["cached"] == 400)
    #expect(third.stderr.isEmpty)
  }
}
