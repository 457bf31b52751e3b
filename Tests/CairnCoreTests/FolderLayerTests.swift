import Foundation
import Testing

/// The folders of each layered module depend one way: a file never mentions a name that a
/// folder above its own declares (docs/ARCHITECTURE.md draws the same order). CairnCore's
/// floors are targets of their own (CairnSupport to CairnTool), so the compiler holds theirs.
@Suite struct FolderLayerTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let modules = [
    FolderLayers(
      module: "CairnState",
      order: ["Storage", "Snapshot", "Stores", "Recording", "Signals", "Access"]),
    // "" is the module's own folder: the walk and the hashing stand on the volume checks.
    FolderLayers(module: "CairnHashing", order: ["Mounts", ""]),
    // The client (with its search dialect) stands on HTTP and the models; the listing and the
    // sync stream on the client.
    FolderLayers(module: "CairnImmich", order: ["HTTP", "Models", "", "Listing", "Sync"]),
  ]

  @Test(arguments: modules.map(\.module))
  func foldersDependOneWay(module: String) throws {
    let layers = try #require(Self.modules.first { $0.module == module })
    let files = try layers.files(underRepository: Self.repository)
    #expect(files.count > 10, "no Swift files read under Sources/\(module)")
    let folders = Set(files.map(\.folder))
    #expect(
      folders == Set(layers.order),
      "the order names folders the module does not have, or misses one")
    for violation in layers.violations(in: files) {
      Issue.record("\(violation)")
    }
  }

  static let planted = FolderLayers(module: "Planted", order: ["Low", "High"])

  @Test func aLowerFileMentioningAHigherNameIsNamedWithBothFolders() {
    let files = [
      FolderLayers.File(
        folder: "Low", path: "Low/Base.swift", text: "package struct Base {\n  var top: Top?\n}\n"),
      FolderLayers.File(
        folder: "High", path: "High/Top.swift",
        text: "package final class Top {\n  let base = Base()\n}\n"),
    ]
    #expect(
      Self.planted.violations(in: files)
        == [.init(path: "Low/Base.swift", name: "Top", folder: "Low", higherFolder: "High")])
    #expect(
      "\(Self.planted.violations(in: files)[0])"
        == "Low/Base.swift (in 'Low') mentions Top, declared in 'High' above it")
  }

  @Test func mentionsInCommentsAndStringTextDoNotCountButInterpolationsDo() {
    let high = FolderLayers.File(
      folder: "High", path: "High/Top.swift",
      text: "@MainActor\npackage func lift() {}\nlet topLevel = 1\n")
    let quiet = FolderLayers.File(
      folder: "Low", path: "Low/Quiet.swift",
      text:
        "// lift() is above\n/* lift /* nested */ topLevel */\nlet s = \"lift \\\" topLevel\"\nlet t = \"\"\"\n  lift\n  \"\"\"\n"
    )
    #expect(Self.planted.violations(in: [high, quiet]).isEmpty)
    let loud = FolderLayers.File(
      folder: "Low", path: "Low/Loud.swift", text: "let s = \"value \\(topLevel + (1))\"\n")
    #expect(Self.planted.violations(in: [high, loud]).map(\.name) == ["topLevel"])
  }

  @Test func aFolderOutsideTheOrderIsReported() {
    let stray = FolderLayers.File(
      folder: "Elsewhere", path: "Elsewhere/X.swift", text: "struct X {}\n")
    #expect(Self.planted.violations(in: [stray]).map(\.folder) == ["Elsewhere"])
  }

  @Test func higherFilesMayUseLowerNamesAndANameDeclaredTwiceBindsToNone() {
    let files = [
      FolderLayers.File(
        folder: "Low", path: "Low/A.swift",
        text: "func shared() {}\nstruct Base {}\nlet x = shared()\n"),
      FolderLayers.File(
        folder: "High", path: "High/B.swift", text: "func shared() {}\nlet base = Base()\n"),
    ]
    #expect(Self.planted.violations(in: files).isEmpty)
  }
}
