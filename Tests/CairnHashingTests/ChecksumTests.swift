import CairnTestSupport
import Foundation
import Testing

/// The checksum cairn-hash writes must be exactly what Immich computes: base64 of SHA-1.
@Suite("cairn-hash checksums")
struct ChecksumTests {
  static let chunk = 1 << 20

  @Test(
    "matches openssl for sizes around the read buffer",
    arguments: [0, 1, 4095, chunk, chunk + 1, 3 * chunk + 17])
  func sizes(size: Int) async throws {
    let dir = TemporaryDirectory()
    let file = try dir.file("lib/photo.jpg", contents: Hash.pattern(size))
    let result = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    let records = try result.records(ofType: "file")
    try #require(records.count == 1)
    #expect(records[0]["checksum"] as? String == (try await Hash.reference(file, in: dir)))
    #expect(records[0]["size"] as? Int == size)
    #expect(records[0]["path"] as? String == file)
  }

  @Test("known vectors: empty file and \"abc\"")
  func vectors() async throws {
    let dir = TemporaryDirectory()
    try dir.file("empty.png", contents: [])
    try dir.file("abc.png", "abc")
    let sums = try Hash.checksums(try await Hash.run([dir.path], in: dir))
    #expect(sums[dir.path + "/empty.png"] == "2jmj7l5rSw0yVb/vlWAYkK/YBwk=")
    #expect(sums[dir.path + "/abc.png"] == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
  }

  @Test("names with spaces, unicode, newlines and upper-case extensions")
  func awkwardNames() async throws {
    let dir = TemporaryDirectory()
    let names = [
      "with space.jpg", "été/Fête à la plage.HEIC", "line\nbreak.mov", "quote\"and\\slash.PNG",
      "日本/写真.JpG", "tab\there.mp4",
    ]
    var expected: [String: String] = [:]
    for (i, name) in names.enumerated() {
      let path = try dir.file("lib/" + name, contents: Hash.pattern(1000 + i, seed: UInt8(i)))
      expected[path] = try await Hash.reference(path, in: dir)
    }
    let result = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Hash.checksums(result) == expected)
    // jq reads every line too.
    let jq = try await Hash.sh(
      "cairn-hash '\(dir.path)/lib' | jq -r 'select(.type==\"file\") | .checksum'", in: dir)
    #expect(jq.status == 0)
    #expect(Set(jq.stdout.split(separator: "\n").map(String.init)) == Set(expected.values))
  }

  @Test("a file over 4 GiB (sparse)")
  func overFourGiB() async throws {
    let dir = TemporaryDirectory()
    let path = dir.path + "/big.mov"
    let made = try await Hash.sh("truncate -s 4294967297 '\(path)'", in: dir)
    try #require(made.status == 0)
    let result = try await Hash.run([path], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    let records = try result.records(ofType: "file")
    try #require(records.count == 1)
    #expect(records[0]["size"] as? Int == 4_294_967_297)
    // SHA-1 of 2^32 + 1 zero bytes, from `openssl dgst -sha1 -binary | base64` (computed once:
    // hashing 4 GiB twice per test run is not worth it).
    #expect(records[0]["checksum"] as? String == Self.fourGiBPlusOneZeros)
  }

  static let fourGiBPlusOneZeros = "59dHt1924OQeg7dbzkZCgWE2ME8="
}
