import Foundation
import Testing

/// CairnReconcile reads CairnState only through its door (`ReconcileAccess.swift` lists it):
/// a file of CairnReconcile that names any other of the state's top-level names fails here, so
/// the seam between the two stays closed. What both need of the state's files lies below
/// them (CairnSealedFiles).
@Suite struct StateDoorTests {
  /// The state's names the reconcile library may use.
  static let door: Set<String> = [
    "ReconcileAccess", "ScanSnapshotPreload", "LastScan", "ScanSnapshotStore",
  ]

  /// The top-level names `owner`'s files declare that `user`'s files mention, each with the
  /// files that mention it. Comments and string text do not count (see `SwiftCode`).
  static func names(
    declaredIn owner: [FolderLayers.File], mentionedIn user: [FolderLayers.File]
  ) -> [String: [String]] {
    var declared: Set<String> = []
    for file in owner {
      declared.formUnion(FolderLayers.topLevelNames(SwiftCode.withoutCommentsAndStrings(file.text)))
    }
    var found: [String: [String]] = [:]
    for file in user {
      let mentioned = SwiftCode.identifiers(SwiftCode.withoutCommentsAndStrings(file.text))
      for name in mentioned.intersection(declared).sorted() {
        found[name, default: []].append(file.path)
      }
    }
    return found
  }

  static func files(_ module: String) throws -> [FolderLayers.File] {
    try FolderLayers(module: module, order: []).files(underRepository: FolderLayerTests.repository)
  }

  @Test func reconcileNamesOnlyTheStatesDoor() throws {
    let state = try Self.files("CairnState")
    let reconcile = try Self.files("CairnReconcile")
    #expect(state.count > 10 && reconcile.count > 5, "no Swift files read")
    let used = Self.names(declaredIn: state, mentionedIn: reconcile)
    for (name, paths) in used.sorted(by: { $0.key < $1.key }) where !Self.door.contains(name) {
      Issue.record(
        "\(paths.joined(separator: ", ")) names \(name), which is not in CairnState's door")
    }
    // The door names only what the state declares and reconcile uses: a name left in it after
    // its last use would hold a door open for nothing.
    #expect(Set(used.keys).isSuperset(of: Self.door))
  }

  @Test func aNameOutsideTheDoorIsFoundButNotInCommentsOrStrings() {
    let owner = [
      FolderLayers.File(
        folder: "", path: "Owner/Inside.swift",
        text: "package struct Inside {}\npackage func helper() {}\n")
    ]
    let user = [
      FolderLayers.File(
        folder: "", path: "User/Uses.swift",
        text: "// Inside\nlet s = \"helper\"\nlet x = Inside.self\n")
    ]
    #expect(Self.names(declaredIn: owner, mentionedIn: user) == ["Inside": ["User/Uses.swift"]])
  }
}
