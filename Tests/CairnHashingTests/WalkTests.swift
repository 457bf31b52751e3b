import CairnTestSupport
import Foundation
import Testing

/// What the walk includes, skips and reports.
@Suite("cairn-hash walk")
struct WalkTests {
  @Test("header and end records frame the stream and describe the scan")
  func headerAndEnd() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    try dir.file("lib/sub/b.mov", "bb")
    let result = try await Hash.run([dir.path + "/lib/"], in: dir)
    #expect(result.status == 0)
    let records = try result.records()
    try #require(records.count == 4)
    let header = records[0]
    #expect(header["type"] as? String == "header")
    #expect(header["tool"] as? String == "cairn-hash")
    #expect(header["schema"] as? String == "1.1")
    #expect(header["roots"] as? [String] == [dir.path + "/lib"])
    let end = records[3]
    #expect(end["type"] as? String == "end")
    #expect(end["complete"] as? Bool == true)
    #expect(end["errors"] as? Int == 0)
    #expect(end["records"] as? [String: Int] == ["file": 2])
    let counts = try Hash.counts(result)
    #expect(counts["files"] == 2)
    #expect(counts["bytes"] == 3)
    #expect(counts["hashed"] == 2)
    let roots = try Hash.roots(result)
    #expect(roots.count == 1)
    #expect(roots.first?["path"] as? String == dir.path + "/lib")
    #expect(roots.first?["complete"] as? Bool == true)
    #expect(roots.first?["files"] as? Int == 2)
    #expect(roots.first?["problem"] == nil)
    for record in try result.records(ofType: "file") {
      #expect(record["root"] as? String == dir.path + "/lib")
      #expect(record["dev"] is Int)
      #expect(record["ino"] is Int)
      #expect((record["mtime"] as? String)?.hasSuffix("Z") == true)
    }
  }

  @Test("relative roots are written as absolute paths")
  func relativeRoot() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    let result = try ToolRunner.run(
      "cairn-hash", ["lib", "./lib/../lib"], environment: dir.isolatedEnvironment(),
      workingDirectory: dir.path)
    let header = try #require(try result.records().first)
    #expect(header["roots"] as? [String] == [dir.path + "/lib"])
    #expect(try Hash.checksums(result).keys.sorted() == [dir.path + "/lib/a.jpg"])
  }

  @Test("only media files, case-insensitively; --all takes every file")
  func mediaFilter() async throws {
    let dir = TemporaryDirectory()
    for name in [
      "a.JPG", "b.heic", "c.Mov", "d.CR3", "e.dng", "f.txt", "g.xmp", "noext", "h.jpg.bak",
    ] {
      try dir.file("lib/" + name, name)
    }
    let media = try Hash.checksums(try await Hash.run([dir.path + "/lib"], in: dir))
    #expect(
      media.keys.map { ($0 as NSString).lastPathComponent }.sorted() == [
        "a.JPG", "b.heic", "c.Mov", "d.CR3", "e.dng",
      ])
    let all = try Hash.checksums(try await Hash.run(["--all", dir.path + "/lib"], in: dir))
    #expect(all.count == 9)
  }

  @Test("trash folders and junk are not part of the library")
  func trashAndJunk() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/keep.jpg", "keep")
    for path in [
      ".Trash/x.jpg", ".Trash-1000/files/x.jpg", ".stversions/x~20240101.jpg", ".dtrash/x.jpg",
      "@Recycle/x.jpg", "#recycle/x.jpg", "@eaDir/keep.jpg/SYNOPHOTO_THUMB_XL.jpg",
      "._keep.jpg", "sub/.DS_Store", "sub/Thumbs.db", "sub/.Trash/y.jpg",
    ] {
      try dir.file("lib/" + path, path)
    }
    let result = try await Hash.run(["--all", dir.path + "/lib"], in: dir)
    #expect(try Hash.checksums(result).keys.sorted() == [dir.path + "/lib/keep.jpg"])
  }

  @Test(
    "workers taking runs of small files give every file its own checksum",
    arguments: ["1", "2", "5"])
  func batchedWorkersKeepChecksumsWithTheirFiles(jobs: String) async throws {
    let dir = TemporaryDirectory()
    // Runs of tiny files (taken many at a time) around files over the batch limit (taken
    // alone), so a mix-up between a batch's slots would show as a checksum on the wrong path.
    for i in 0..<160 {
      let size = i % 40 == 39 ? (1 << 20) + 3 * i : 10 + i * 13
      try dir.file("lib/d\(i % 4)/\(i).jpg", contents: Hash.pattern(size, seed: UInt8(i % 251)))
    }
    let result = try await Hash.run(["--no-cache", "-j", jobs, dir.path + "/lib"], in: dir)
    #expect(result.status == 0)
    let sums = try Hash.checksums(result)
    #expect(sums.count == 160)
    let listing = try await Hash.sh(
      "cd '\(dir.path)/lib' && for f in d*/*.jpg; do printf '%s ' \"$f\";"
        + " openssl dgst -sha1 -binary \"$f\" | base64; done", in: dir)
    for line in listing.stdout.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2 else { continue }
      #expect(sums[dir.path + "/lib/" + parts[0]] == String(parts[1]), "\(parts[0])")
    }
    #expect(listing.stdout.split(separator: "\n").count == 160)
  }

  @Test("the same library gives the same records in the same order")
  func deterministicOrder() async throws {
    let dir = TemporaryDirectory()
    for i in 0..<300 {
      try dir.file(
        "lib/d\(i % 7)/sub\(i % 3)/IMG_\(300 - i).jpg",
        contents: Hash.pattern(i * 97 % 5000, seed: UInt8(i % 251)))
    }
    func fileLines(_ args: [String]) async throws -> [String] {
      let result = try await Hash.run(args, in: dir)
      #expect(result.status == 0)
      return result.lines.filter { $0.hasPrefix("{\"type\":\"file\"") }
    }
    let first = try await fileLines(["--no-cache", "-j", "4", dir.path + "/lib"])
    let second = try await fileLines(["--no-cache", "-j", "1", dir.path + "/lib"])
    let third = try await fileLines(["-j", "3", dir.path + "/lib"])
    #expect(first.count == 300)
    #expect(first == second)
    #expect(first == third)
    // Walk order: each folder's entries sorted by name bytes, depth first.
    let paths = try Hash.checksums(try await Hash.run([dir.path + "/lib"], in: dir)).keys
    #expect(paths.count == 300)
    let order = first.map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"]
        as? String ?? ""
    }
    #expect(order == order.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  @Test("symlinked folders are not followed and loops never hang")
  func symlinkedFolders() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/a.jpg", "a")
    try dir.file("outside/b.jpg", "b")
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.path + "/lib/loop", withDestinationPath: "..")
    try fm.createSymbolicLink(
      atPath: dir.path + "/lib/self", withDestinationPath: dir.path + "/lib")
    try fm.createSymbolicLink(
      atPath: dir.path + "/lib/out", withDestinationPath: dir.path + "/outside")
    try fm.createSymbolicLink(atPath: dir.path + "/lib/link.jpg", withDestinationPath: "a.jpg")
    try fm.createSymbolicLink(atPath: dir.path + "/lib/x.jpg", withDestinationPath: "y.jpg")
    try fm.createSymbolicLink(atPath: dir.path + "/lib/y.jpg", withDestinationPath: "x.jpg")
    let result = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Hash.checksums(result).keys.sorted() == [dir.path + "/lib/a.jpg"])
    #expect(try Hash.counts(result)["skippedLinks"] == 6)
  }

  @Test("a symlinked file or folder named explicitly is followed")
  func explicitSymlinks() async throws {
    let dir = TemporaryDirectory()
    let target = try dir.file("real/a.jpg", "a")
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.path + "/link.jpg", withDestinationPath: target)
    try fm.createSymbolicLink(
      atPath: dir.path + "/linkdir", withDestinationPath: dir.path + "/real")
    let result = try await Hash.run([dir.path + "/link.jpg", dir.path + "/linkdir"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    let sums = try Hash.checksums(result)
    #expect(sums[dir.path + "/link.jpg"] == "hvfkN/qlp/zhXR3cuerq6jd2Z7g=")
    #expect(sums[dir.path + "/linkdir/a.jpg"] == "hvfkN/qlp/zhXR3cuerq6jd2Z7g=")
  }

  @Test("an explicit symlink loop is an error record, not a hang")
  func explicitLoop() async throws {
    let dir = TemporaryDirectory()
    let fm = FileManager.default
    try fm.createSymbolicLink(atPath: dir.path + "/x.jpg", withDestinationPath: dir.path + "/y.jpg")
    try fm.createSymbolicLink(atPath: dir.path + "/y.jpg", withDestinationPath: dir.path + "/x.jpg")
    let result = try await Hash.run([dir.path + "/x.jpg"], in: dir)
    #expect(result.status == 1)
    let errors = try result.records(ofType: "error")
    #expect(errors.first?["code"] as? String == "ELOOP")
  }

  @Test("a name that is not valid UTF-8 becomes an error record, not silence")
  func invalidUTF8() async throws {
    let dir = TemporaryDirectory()
    try dir.file("lib/ok.jpg", "ok")
    let made = try await Hash.sh(
      "printf x > \"\(dir.path)/lib/$(printf 'bad\\377name.jpg')\"", in: dir)
    try #require(made.status == 0)
    let result = try await Hash.run([dir.path + "/lib"], in: dir)
    #expect(result.status == 1)
    let errors = try result.records(ofType: "error")
    #expect(errors.count == 1)
    #expect(errors.first?["code"] as? String == "EILSEQ")
    #expect(errors.first?["root"] as? String == dir.path + "/lib")
    #expect(try Hash.checksums(result).count == 1)
    #expect(try Hash.end(result)["complete"] as? Bool == false)
    #expect(result.stderr.contains("not valid UTF-8"))
  }

  @Test(
    "a file under two roots is listed once, under the innermost root", arguments: [false, true])
  func nestedRoots(innerFirst: Bool) async throws {
    let dir = TemporaryDirectory()
    try dir.file("Photos/a.jpg", "a")
    try dir.file("Photos/Camera/b.jpg", "b")
    try dir.file("Photos/Camera/Deep/c.jpg", "c")
    try dir.file("Photos/d/e.jpg", "e")
    let outer = dir.path + "/Photos"
    let inner = dir.path + "/Photos/Camera"
    let single = dir.path + "/Photos/d/e.jpg"
    let roots = innerFirst ? [inner, single, outer] : [outer, inner, single]
    let result = try await Hash.run(roots, in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    let files = try result.records(ofType: "file")
    let rootByPath = Dictionary(
      files.map { ($0["path"] as? String ?? "", $0["root"] as? String ?? "") },
      uniquingKeysWith: { first, _ in first })
    #expect(files.count == 4, "\(files)")
    #expect(rootByPath[outer + "/a.jpg"] == outer)
    #expect(rootByPath[inner + "/b.jpg"] == inner)
    #expect(rootByPath[inner + "/Deep/c.jpg"] == inner)
    #expect(rootByPath[single] == single)
    let statuses = try Hash.end(result)["roots"] as? [[String: Any]] ?? []
    let filesByRoot = Dictionary(
      statuses.map { ($0["path"] as? String ?? "", $0["files"] as? Int ?? -1) },
      uniquingKeysWith: { first, _ in first })
    // An outer root's status counts the files of the roots inside it: they are under it.
    #expect(filesByRoot == [outer: 4, inner: 2, single: 1])
  }

  @Test("a folder reached under another name (a link) is still listed under each name given")
  func linkedRootIsNotNested() async throws {
    let dir = TemporaryDirectory()
    try dir.file("Photos/a.jpg", "a")
    try dir.file("Elsewhere/b.jpg", "b")
    #expect(symlink(dir.path + "/Elsewhere", dir.path + "/Photos/Linked") == 0)
    let result = try await Hash.run([dir.path + "/Photos", dir.path + "/Photos/Linked"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    let paths = try result.records(ofType: "file").compactMap { $0["path"] as? String }
    // The walk of Photos does not follow the link; the root named through it is walked.
    #expect(paths == [dir.path + "/Photos/a.jpg", dir.path + "/Photos/Linked/b.jpg"])
  }
}
