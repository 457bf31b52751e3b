import CairnHashing
import Foundation
import Testing

@Suite("CairnHashing units")
struct UnitTests {
  @Test(
    "media types by extension, case-insensitively",
    arguments: [
      ("IMG_1.HEIC", true), ("a.jpeg", true), ("a.JPG", true), ("clip.MoV", true),
      ("raw.CR3", true), ("raw.nef", true), ("a.webp", true), ("a.jxl", true), ("v.m2ts", true),
      ("v.MTS", true), ("a.3gp", true), ("x.xmp", false), ("x.txt", false), ("jpg", false),
      (".jpg", false), ("a.jpg.", false), ("a.tiff", true), ("a.jpgx", false),
    ])
  func media(name: String, expected: Bool) {
    #expect(MediaTypes.isMedia(name: name) == expected)
  }

  @Test(
    "trash and junk names",
    arguments: [
      (".Trash", true), (".Trash-1000", true), (".stversions", true), (".dtrash", true),
      ("@Recycle", true), ("#recycle", true), ("@eaDir", true), (".DS_Store", true),
      ("._IMG_1.JPG", true), ("Thumbs.db", true), ("Trash", false), ("photos", false),
      (".hidden", false), ("Thumbs", false), (".trashed-1767225600-IMG_1.jpg", true),
      (".pending-1767225600-IMG_2.jpg", true), (".trashed-IMG_1.jpg", false),
      (".trashed-1767225600-", false), ("trashed-1767225600-IMG_1.jpg", false),
    ])
  func exclusions(name: String, expected: Bool) {
    #expect(LibraryExclusions.isExcluded(name) == expected)
  }

  @Test("Android's MediaStore names: the state, the expiry and the original name")
  func mediaStoreNames() throws {
    let trashed = try #require(MediaStoreName(".trashed-1767225600-IMG-1.2.jpg"))
    #expect(trashed.state == .trashed)
    #expect(trashed.originalName == "IMG-1.2.jpg")
    #expect(trashed.expires == Date(timeIntervalSince1970: 1_767_225_600))
    #expect(trashed.trashedAt == Date(timeIntervalSince1970: 1_767_225_600 - 30 * 86_400))
    #expect(MediaStoreName(".Pending-1767225600-a.jpg")?.state == .pending)
    #expect(MediaStoreName(".trashed-1767225600-caf\u{E9}.jpg")?.originalName == "caf\u{E9}.jpg")
    #expect(MediaStoreName(".trashed--a.jpg") == nil)
    #expect(MediaStoreName(".stversions") == nil)
  }

  @Test("trash folders are a subset of the exclusions, for cairn-observe")
  func trash() {
    #expect(LibraryExclusions.isTrash(".Trash-1000"))
    #expect(!LibraryExclusions.isTrash("@eaDir"))
  }

  @Test(
    "roots are made absolute lexically",
    arguments: [
      ("lib", "/home/u/lib"), ("./lib/", "/home/u/lib"), ("lib/../x//y/.", "/home/u/x/y"),
      ("/abs/./p/", "/abs/p"), ("/", "/"), ("../..", "/"),
    ])
  func roots(input: String, expected: String) {
    #expect(RootPath.absolute(input, currentDirectory: "/home/u") == expected)
  }

  @Test("digest base64 as Immich writes it")
  func base64() throws {
    let bytes: [UInt8] = [
      0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e, 0x25, 0x71, 0x78, 0x50, 0xc2,
      0x6c, 0x9c, 0xd0, 0xd8, 0x9d,
    ]
    let digest = try #require(ContentDigest(bytes))
    #expect(digest.base64 == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
    #expect(digest.bytes == bytes)
  }
}
