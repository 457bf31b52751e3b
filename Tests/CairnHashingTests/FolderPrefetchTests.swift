import CairnHashing
import CairnSettings
import CairnTestSupport
import Foundation
import Testing

/// Folders read ahead on a second thread (`FolderPrefetch`) change nothing the walk finds.
@Suite("cairn-hash folders read ahead")
struct FolderPrefetchTests {
  @Test("a walk that reads folders ahead finds what a walk reading each when reached finds")
  func sameWalk() async throws {
    let dir = TemporaryDirectory()
    // Deep and wide enough that the reading thread runs ahead of the walk and gets overtaken.
    for a in 0..<8 {
      for b in 0..<5 {
        for c in 0..<2 {
          for f in 0..<3 { _ = try dir.file("lib/a\(a)/b\(b)/c\(c)/\(f).jpg", "\(a)\(b)\(c)\(f)") }
        }
      }
    }
    // What the walk leaves out, skips and counts, or reports.
    _ = try dir.file("lib/a1/Ignored/x.jpg", "x")
    _ = try dir.file("lib/a2/.Trash/y.jpg", "y")
    #expect(symlink(dir.path + "/lib/a0", dir.path + "/lib/a3/link") == 0)
    #expect(symlink(dir.path + "/lib", dir.path + "/lib/a4/b0/loop") == 0)
    let made = try await Hash.sh(
      "mkdir \"\(dir.path)/lib/a5/$(printf 'bad\\377folder')\"", in: dir)
    try #require(made.status == 0)
    let ignored = try IgnoredPaths(["a1/Ignored/", "a6/b2/"])

    func walk(readsAhead: Bool) -> (items: [String], skippedLinks: Int) {
      var walker = LibraryWalker()
      walker.ignoredPaths = ignored
      walker.readsAhead = readsAhead
      var items: [String] = []
      _ = walker.walk(root: dir.path + "/lib") { item in
        switch item {
        case .file(let path, _, _): items.append(String(decoding: path.dropLast(), as: UTF8.self))
        case .failure(let path, let error): items.append("\(error.code) \(path)")
        }
      }
      return (items, walker.skippedLinks)
    }

    let plain = walk(readsAhead: false)
    // Every photo but the ignored folder's six, and the folder with a name not UTF-8.
    let photos = 8 * 5 * 2 * 3
    #expect(plain.items.count == photos - 6 + 1)
    #expect(plain.items.contains { $0.hasPrefix("EILSEQ ") })
    #expect(plain.skippedLinks == 2)
    for _ in 0..<20 {
      let ahead = walk(readsAhead: true)
      #expect(ahead.items == plain.items)
      #expect(ahead.skippedLinks == plain.skippedLinks)
    }
  }
}
