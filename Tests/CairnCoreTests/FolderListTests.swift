import CairnSettings
import CairnStream
import CairnTestSupport
import Foundation
import Testing

/// `CAIRN_LIBRARY` and `CAIRN_TRASH_FOLDERS` are read by one function, so cairn-hash, the
/// watcher and the trash signals reach the same folders from one value.
@Suite struct FolderListTests {
  static let base = PathBase(home: "/home/ann", relativeTo: "/srv/here")
  static let users = ["ben": "/home/ben"]

  static func folders(_ text: String) -> [String]? {
    FolderList.folders(in: text, base: base, homeOfUser: { users[$0] })
  }

  @Test(arguments: [
    ("/srv/photos", ["/srv/photos"]),
    // A trailing slash, a doubled one, `.` and `..` are cleaned as a root argument's are.
    ("/srv/photos/", ["/srv/photos"]),
    ("/srv//photos/./2024/../", ["/srv/photos"]),
    // `~` is the home folder: the configuration file is no shell; the watcher read it so.
    ("~/Photos", ["/home/ann/Photos"]),
    ("~", ["/home/ann"]),
    ("~ben/Photos", ["/home/ben/Photos"]),
    // A relative folder is found from the base (the working folder or home, by origin).
    ("Photos", ["/srv/here/Photos"]),
    ("../Photos", ["/srv/Photos"]),
    // Colons separate; empty entries and repeats go, the first place kept.
    ("/a::/b:", ["/a", "/b"]),
    ("/a:/b:/a/:~/../ann/x:/home/ann/x", ["/a", "/b", "/home/ann/x"]),
    ("", []),
    // A `~` inside a path is a name like any other.
    ("/srv/~/x", ["/srv/~/x"]),
  ])
  func foldersAreMadeAbsoluteOnce(text: String, expected: [String]) {
    #expect(Self.folders(text) == expected)
  }

  /// Symbolic links are kept: the root is named as the user named it (records carry it).
  @Test func symbolicLinksAreNotResolved() throws {
    let folder = TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/disk", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/Photos", withDestinationPath: folder.path + "/disk")
    let base = PathBase(home: folder.path, relativeTo: "/")
    #expect(FolderList.folders(in: "~/Photos/", base: base) == [folder.path + "/Photos"])
  }

  @Test func aHomeOfNoUserIsRefused() {
    #expect(Self.folders("/a:~nobody-here/Photos") == nil)
  }

  /// The rule reads the configuration file's relative folders from home (where the services
  /// and cron run), the environment's from the working folder; a bad entry is exit 78.
  @Test func theRuleFindsARelativeFolderByItsOrigin() throws {
    let folder = TemporaryDirectory()
    var environment = folder.isolatedEnvironment()
    try folder.privateFile(
      "config/cairn/config", "CAIRN_LIBRARY=Photos/:~/Phone\nCAIRN_TRASH_FOLDERS=Bin\n")
    let home = try #require(environment["HOME"])
    let fromFile = try Configuration.load(
      environment: environment, workingDirectory: folder.path + "/here")
    #expect(
      try SettingsTable.library.value(in: fromFile) == [home + "/Photos", home + "/Phone"])
    #expect(try SettingsTable.trashFolders.value(in: fromFile) == [home + "/Bin"])

    environment["CAIRN_TRASH_FOLDERS"] = "Bin/"
    let fromEnvironment = try Configuration.load(
      environment: environment, workingDirectory: folder.path + "/here")
    #expect(
      try SettingsTable.trashFolders.value(in: fromEnvironment) == [folder.path + "/here/Bin"])

    environment["CAIRN_LIBRARY"] = "/srv:~nobody-here/x"
    let bad = try Configuration.load(environment: environment, workingDirectory: folder.path)
    let error = #expect(throws: CairnError.self) { try SettingsTable.library.value(in: bad) }
    #expect(error?.status == .configuration)
    #expect(
      error?.message
        == "CAIRN_LIBRARY=/srv:~nobody-here/x is not folders separated by colons (a ~name/ "
        + "folder needs a user of that name)")
  }
}
