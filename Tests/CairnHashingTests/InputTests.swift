import CairnTestSupport
import Foundation
import Testing

/// Paths from stdin, as `find` writes them.
@Suite("cairn-hash input lists")
struct InputTests {
  @Test("newline-separated paths on stdin, without arguments or with -")
  func newlineList() async throws {
    let dir = TemporaryDirectory()
    let a = try dir.file("a.jpg", "a")
    let b = try dir.file("sub/b.png", "b")
    for args in [[], ["-"]] {
      let result = try await Hash.run(args, in: dir, stdin: "\(a)\n\n\(dir.path)/sub\n")
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try Hash.checksums(result).keys.sorted() == [a, b])
      let header = try #require(try result.records().first)
      #expect(header["roots"] as? [String] == [a, dir.path + "/sub"])
    }
  }

  @Test("NUL-separated paths with -0, names with newlines intact")
  func nulList() async throws {
    let dir = TemporaryDirectory()
    let odd = try dir.file("new\nline.jpg", "x")
    let plain = try dir.file("plain.jpg", "y")
    let result = try await Hash.sh(
      "find '\(dir.path)' -name '*.jpg' -print0 | sort -z | cairn-hash -0 -q", in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Hash.checksums(result).keys.sorted() == [odd, plain].sorted())
    let long = try await Hash.sh(
      "find '\(dir.path)' -name '*.jpg' -print0 | cairn-hash --null -", in: dir)
    #expect(try Hash.checksums(long).count == 2)
  }

  @Test("an empty list gives a complete, empty stream")
  func emptyList() async throws {
    let dir = TemporaryDirectory()
    let result = try await Hash.run([], in: dir, stdin: "")
    #expect(result.status == 0)
    let records = try result.records()
    #expect(records.map { $0["type"] as? String } == ["header", "end"])
  }
}
