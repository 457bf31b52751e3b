import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// How each tool saves a new version of `a.jpg` (version E1, staged at `$E1`), byte for byte
/// and rename for rename.
let saveStyles: [(String, String)] = [
  // Syncthing pulls into `.syncthing.<name>.tmp` and renames it over the file.
  ("syncthing", "cp \"$E1\" .syncthing.a.jpg.tmp && mv -f .syncthing.a.jpg.tmp a.jpg"),
  // The Nextcloud desktop client downloads into `.<name>.~<random hex>`, then renames.
  ("nextcloud", "cp \"$E1\" .a.jpg.~5f3a9c1e && mv -f .a.jpg.~5f3a9c1e a.jpg"),
  // An editor's safe save: a temporary file beside the photo, renamed over it.
  ("editor", "t=$(mktemp ./.a.jpg.XXXXXX) && cat \"$E1\" > \"$t\" && mv -f \"$t\" a.jpg"),
  // rsync's default: `.<name>.XXXXXX`, renamed over the file (a new inode).
  ("rsync", "rsync -t \"$E1\" a.jpg"),
  // rsync --inplace: the same inode, rewritten.
  ("rsync --inplace", "rsync -t --inplace --no-whole-file \"$E1\" a.jpg"),
  // A plain write into the file.
  ("in place", "cat \"$E1\" > a.jpg"),
]

/// The field suite: a folder changed the way Syncthing, Nextcloud, rsync, editors, desktops
/// and Android change it, through the documented pipeline against the Immich test double, in
/// both server versions.
@Suite(.serialized)
struct FieldTests {
  static let versions = ImmichVersion.allCases

  /// A new version staged outside the library, for the save styles to copy from.
  func stage(_ f: FieldFixture, _ name: String) throws -> String {
    let path = f.dir.path + "/staged-" + name
    try Data(FieldFixture.bytes(name)).write(to: URL(fileURLWithPath: path))
    // Later than the library's file, as a real edit is (rsync compares times and sizes).
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: path)
    return path
  }

  @Test(arguments: saveStyles.flatMap { style in versions.map { (style.0, style.1, $0) } })
  func anEditSavedByAnyToolKeepsTheOriginal(style: String, script: String, version: ImmichVersion)
    async throws
  {
    let f = try await FieldFixture(version: version, versions: ["O", "E1", "B"])
    defer { Task { await f.stop() } }
    try f.write("a.jpg", "O")
    try f.write("b.jpg", "B")
    let e1 = try stage(f, "E1")
    let trashed = try await f.trashedAfter {
      try await f.sh("export E1='\(e1)'; \(script)")
    }
    #expect(trashed.isEmpty, "\(style)")
    #expect(try await f.candidates().isEmpty, "\(style)")
  }

  @Test(arguments: versions)
  func aSecondEditRetiresTheFirstThroughTheQuarantine(version: ImmichVersion) async throws {
    let f = try await FieldFixture(version: version, versions: ["O", "E1", "E2"])
    defer { Task { await f.stop() } }
    try f.write("a.jpg", "O")
    let e1 = try stage(f, "E1")
    let e2 = try stage(f, "E2")
    let trashed = try await f.trashedAfter {
      try await f.sh("cp '\(e1)' .syncthing.a.jpg.tmp && mv -f .syncthing.a.jpg.tmp a.jpg")
    }
    #expect(trashed.isEmpty)
    try await f.sh("cp '\(e2)' .syncthing.a.jpg.tmp && mv -f .syncthing.a.jpg.tmp a.jpg")
    let candidates = try await f.candidates()
    #expect(candidates.mapValues(\.bucket) == ["E1": "held"])
  }

  @Test(arguments: versions)
  func anEditedPhotoInTheDesktopTrashHoldsEveryVersion(version: ImmichVersion) async throws {
    let f = try await FieldFixture(version: version, versions: ["O", "E1", "B"])
    defer { Task { await f.stop() } }
    try f.write("a.jpg", "O")
    try f.write("b.jpg", "B")
    let e1 = try stage(f, "E1")
    _ = try await f.trashedAfter {
      try await f.sh("cp '\(e1)' .syncthing.a.jpg.tmp && mv -f .syncthing.a.jpg.tmp a.jpg")
    }
    // The desktop moves the photo to the freedesktop.org trash, with its .trashinfo.
    let trash = f.env["XDG_DATA_HOME"]! + "/Trash"
    try await f.sh(
      """
      mkdir -p '\(trash)/files' '\(trash)/info' && mv a.jpg '\(trash)/files/a.jpg' &&
      printf '[Trash Info]\\nPath=%s\\nDeletionDate=%s\\n' '\(f.library)/a.jpg' \
        "$(date +%Y-%m-%dT%H:%M:%S)" > '\(trash)/info/a.jpg.trashinfo'
      """)
    for _ in 0..<2 { #expect(try await f.pipeline().status == 0) }
    #expect(f.trashed.isEmpty)
    let candidates = try await f.candidates()
    #expect(candidates.mapValues(\.bucket) == ["O": "held", "E1": "held"])
    #expect(candidates["O"]?.reason == "quarantine")
  }

  @Test(arguments: versions)
  func aVersionInSyncthingsStversionsIsHeld(version: ImmichVersion) async throws {
    let f = try await FieldFixture(version: version, versions: ["A", "B"])
    defer { Task { await f.stop() } }
    try f.write("2025/a.jpg", "A")
    try f.write("b.jpg", "B")
    let trashed = try await f.trashedAfter {
      // Syncthing's "simple" or "staggered" versioning, on a deletion from another device.
      try await f.sh(
        "mkdir -p .stversions/2025 && mv 2025/a.jpg "
          + "\".stversions/2025/a~$(date +%Y%m%d-%H%M%S).jpg\"")
    }
    #expect(trashed.isEmpty)
    #expect(try await f.candidates().mapValues(\.bucket) == ["A": "held"])
  }

  @Test(arguments: versions)
  func aMassOffloadIntoATrashIsCalledOutByTheFourStagePipeline(version: ImmichVersion)
    async throws
  {
    let names = (0..<60).map { "P\($0)" }
    let f = try await FieldFixture(version: version, versions: names)
    defer { Task { await f.stop() } }
    for name in names { try f.write(name + ".jpg", name) }
    let trashed = try await f.trashedAfter {
      // Fifty photos into Syncthing's versions at once, as a phone's cleanup synced over.
      try await f.sh(
        "mkdir -p .stversions && stamp=$(date +%Y%m%d-%H%M%S) && for i in $(seq 0 49); do "
          + "mv P$i.jpg .stversions/P$i~$stamp.jpg; done")
    }
    #expect(trashed.isEmpty)
    let buckets = try await f.candidates().mapValues(\.bucket)
    #expect(buckets.count == 50 && buckets.values.allSatisfy { $0 == "held" })
    let preview = try await f.pipeline()
    #expect(preview.stderr.contains("50 deletions were confirmed at once"), "\(preview.stderr)")
  }

  @Test(arguments: versions)
  func androidsTrashWaitsForAPersonAndPendingFilesAreNoPhotos(version: ImmichVersion)
    async throws
  {
    let f = try await FieldFixture(version: version, versions: ["A", "B", "C"])
    defer { Task { await f.stop() } }
    try f.write("DCIM/Camera/a.jpg", "A")
    try f.write("DCIM/Camera/b.jpg", "B")
    let expires = Int(Date().timeIntervalSince1970) + 30 * 86_400
    let trashed = try await f.trashedAfter {
      // MediaStore renames in place: a gallery's delete, or the Immich app's "Free up space".
      try await f.sh("cd DCIM/Camera && mv a.jpg .trashed-\(expires)-a.jpg")
      // An app still writing a photo: not a photo yet, and no deletion either.
      try f.write("DCIM/Camera/.pending-\(expires)-c.jpg", "C")
    }
    #expect(trashed.isEmpty)
    // Neither name is a photo of the library: cairn-hash lists neither.
    let listed = try await f.sh("cairn-hash .").stdout
    #expect(listed.contains("b.jpg"))
    #expect(!listed.contains(".trashed-") && !listed.contains(".pending-"))
    let candidates = try await f.candidates()
    #expect(candidates.mapValues(\.bucket) == ["A": "pending"])
    #expect(candidates["A"]?.reason == "android-trash")
    let preview = try await f.pipeline()
    #expect(preview.stderr.contains("Android's trash"), "\(preview.stderr)")
    #expect(f.trashed.isEmpty)
  }

  @Test(arguments: versions)
  func rootsNamedDifferentlyFromRunToRunAreJudgedByContainment(version: ImmichVersion)
    async throws
  {
    let f = try await FieldFixture(version: version, versions: ["A", "B", "C"])
    defer { Task { await f.stop() } }
    try f.write("2024/a.jpg", "A")
    try f.write("2025/b.jpg", "B")
    try f.write("2025/c.jpg", "C")
    // Seeded as the whole library, then run over one year: a deletion there is found.
    let trashed = try await f.trashedAfter([f.library]) {}
    #expect(trashed.isEmpty)
    try await f.sh("rm 2025/b.jpg")
    for _ in 0..<2 { #expect(try await f.pipeline([f.library + "/2025"]).status == 0) }
    #expect(f.trashed == ["B"])
    // Seen under 2024 only: a run over 2025 never proposes it, a run over the whole does.
    try await f.sh("rm 2024/a.jpg")
    #expect(try await f.candidates([f.library + "/2025"]).isEmpty)
    #expect(try await f.candidates([f.library]).mapValues(\.bucket) == ["A": "delete"])
  }

  @Test(arguments: versions)
  func movesRenamesLinksAndSpellingsAreNoDeletions(version: ImmichVersion) async throws {
    let f = try await FieldFixture(version: version, versions: ["A", "B", "C", "D", "E"])
    defer { Task { await f.stop() } }
    let nfc = "caf\u{E9}.jpg"
    let nfd = "cafe\u{301}.jpg"
    try f.write("2024/a.jpg", "A")
    try f.write("b.jpg", "B")
    try f.write(nfc, "C")
    try f.write("d.jpg", "D")
    try f.write("e.jpg", "E")
    try await f.sh("ln e.jpg e-link.jpg")
    let trashed = try await f.trashedAfter {
      try await f.sh("mv 2024 2024-holiday")  // a folder renamed
      try await f.sh("mkdir -p sub && cp -p b.jpg sub/b.jpg && rm b.jpg")  // copy, then delete
      try await f.sh("mv '\(nfc)' '\(nfd)'")  // NFC to NFD, as a sync from macOS spells it
      try await f.sh("mv d.jpg .syncthing.d.jpg.tmp && mv .syncthing.d.jpg.tmp D.jpg")
      try await f.sh("rm e.jpg")  // one of two hard links
    }
    #expect(trashed.isEmpty)
  }
}
