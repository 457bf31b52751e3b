import CairnTestSupport
import Foundation
import Testing

/// Bad input: reported in-band and on stderr, the rest still hashed, exit status 1.
@Suite("cairn-hash problems")
struct ProblemTests {
  @Test("a missing path is an error record and a missing root; the rest is hashed")
  func missingPath() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    let gone = dir.path + "/gone"
    let result = try await Hash.run([gone, dir.path + "/lib"], in: dir)
    #expect(result.status == 1)
    #expect(result.stderr.contains("cairn-hash: \(gone): No such file or directory"))
    let errors = try result.records(ofType: "error")
    #expect(errors.count == 1)
    #expect(errors.first?["path"] as? String == gone)
    #expect(errors.first?["root"] as? String == gone)
    #expect(errors.first?["code"] as? String == "ENOENT")
    #expect(try Hash.checksums(result).count == 1)
    let end = try Hash.end(result)
    #expect(end["complete"] as? Bool == false)
    #expect(end["errors"] as? Int == 1)
    let roots = try Hash.roots(result)
    #expect(roots.map { $0["problem"] as? String } == ["missing", nil])
    #expect(roots.map { $0["complete"] as? Bool } == [false, true])
  }

  @Test("an empty root is complete but flagged empty")
  func emptyRoot() async throws {
    let dir = TemporaryDirectory()
    try dir.file("empty/notes.txt", "not media")
    let result = try await Hash.run([dir.path + "/empty"], in: dir)
    #expect(result.status == 0)
    let end = try Hash.end(result)
    #expect(end["complete"] as? Bool == true)
    let root = try #require(try Hash.roots(result).first)
    #expect(root["complete"] as? Bool == true)
    #expect(root["files"] as? Int == 0)
    #expect(root["problem"] as? String == "empty")
  }

  @Test("a dangling symlink named explicitly is ENOENT")
  func danglingSymlink() async throws {
    let dir = TemporaryDirectory()
    try FileManager.default.createSymbolicLink(
      atPath: dir.path + "/dangling.jpg", withDestinationPath: dir.path + "/nowhere.jpg")
    let result = try await Hash.run([dir.path + "/dangling.jpg"], in: dir)
    #expect(result.status == 1)
    #expect(try result.records(ofType: "error").first?["code"] as? String == "ENOENT")
    #expect(try Hash.roots(result).first?["problem"] as? String == "missing")
  }

  @Test("a FIFO named explicitly is an error, and is never opened for reading (no hang)")
  func fifo() async throws {
    let dir = TemporaryDirectory()
    let path = dir.path + "/pipe.jpg"
    try #require(mkfifo(path, 0o644) == 0)
    let result = try await Hash.run([path], in: dir)
    #expect(result.status == 1)
    #expect(try result.records(ofType: "error").first?["code"] as? String == "EINVAL")
    #expect(try Hash.roots(result).first?["complete"] as? Bool == false)
    #expect(result.stderr.contains("\(path): Not a regular file"))
  }

  /// Root reads any file; drop the capabilities that let it, so 0000 means unreadable.
  static func unprivileged(_ arguments: [String]) -> (String, [String]) {
    if getuid() != 0 { return ("cairn-hash", arguments) }
    return (
      "/usr/bin/setpriv",
      [
        "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--",
        ToolRunner.productsDirectory + "/cairn-hash",
      ] + arguments
    )
  }

  @Test(
    "an unreadable file is EACCES; its folder's other files are still hashed",
    .enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func unreadableFile() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    let secret = try dir.file("lib/b.jpg", "b")
    try dir.file("lib/c.jpg", "c")
    try #require(chmod(secret, 0) == 0)
    try dir.file("lib/locked/d.jpg", "d")
    try #require(chmod(dir.path + "/lib/locked", 0) == 0)
    defer { chmod(dir.path + "/lib/locked", 0o755) }
    let (tool, args) = Self.unprivileged(["--no-cache", dir.path + "/lib"])
    let result = try ToolRunner.run(tool, args, environment: dir.isolatedEnvironment())
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("cairn-hash: \(secret): Permission denied"))
    let errors = try result.records(ofType: "error")
    #expect(errors.compactMap { $0["code"] as? String } == ["EACCES", "EACCES"])
    #expect(errors.compactMap { $0["path"] as? String } == [secret, dir.path + "/lib/locked"])
    #expect(
      try Hash.checksums(result).keys.sorted() == [
        dir.path + "/lib/a.jpg", dir.path + "/lib/c.jpg",
      ])
    let root = try #require(try Hash.roots(result).first)
    #expect(root["complete"] as? Bool == false)
    #expect(root["problem"] as? String == "unreadable")
  }

  @Test("a closed downstream pipe ends the run quietly")
  func closedPipe() async throws {
    let dir = TemporaryDirectory()
    for i in 0..<3000 { try dir.file("lib/\(i).jpg", "\(i)") }
    let result = try await Hash.sh(
      "(cairn-hash --no-cache '\(dir.path)/lib'; echo $? > '\(dir.path)/status') | head -n 1",
      in: dir)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.lines.count == 1)
    let status = try String(contentsOfFile: dir.path + "/status", encoding: .utf8)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "141")
  }

  /// Into a pipe, a usage error is an abort record and nothing else, so the end of the
  /// pipeline exits 64 too (cairn(7), EXIT STATUS).
  @Test("a bad option exits 64 with only its abort record on stdout")
  func usage() async throws {
    let dir = TemporaryDirectory()
    let result = try await Hash.run(["--jobs", "0", dir.path], in: dir)
    #expect(result.status == 64)
    #expect(result.lines.count == 1)
    #expect(result.stdout.contains(#""type":"abort""#))
    #expect(result.stdout.contains(#""status":64"#))
  }
}
