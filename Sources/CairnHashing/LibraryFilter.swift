import Foundation

/// Which files belong to a photo library: the media types Immich accepts, minus the trash and
/// junk folders that sync tools, NAS boxes and desktops leave beside the photos.
package enum MediaTypes {
  /// Image extensions Immich accepts (`GET /api/server/media-types`, `image`),
  /// lower-case, without the dot.
  package static let image: Set<String> = [
    "3fr", "ari", "arw", "avif", "bmp", "cap", "cin", "cr2", "cr3", "crw", "dcr", "dng", "erf",
    "fff", "gif", "hif", "heic", "heif", "iiq", "insp", "jp2", "jpe", "jpeg", "jpg", "jxl", "k25",
    "kdc", "mrw", "nef", "nrw", "orf", "ori", "pef", "png", "psd", "raf", "raw", "rw2", "rwl",
    "sr2", "srf", "srw", "svg", "tif", "tiff", "webp", "x3f",
  ]

  /// Video extensions Immich accepts, lower-case, without the dot.
  package static let video: Set<String> = [
    "3gp", "3gpp", "avi", "flv", "insv", "m2t", "m2ts", "m4v", "mkv", "mov", "mp4", "mpe", "mpeg",
    "mpg", "mts", "vob", "webm", "wmv",
  ]

  /// Longest extension above, so a name's tail can be checked without allocating.
  static let longestExtension = 4

  /// True when the file name (raw bytes, no folder) ends in an image or video extension,
  /// compared case-insensitively.
  package static func isMedia(name: UnsafeBufferPointer<UInt8>) -> Bool {
    var dot = -1
    var i = name.count - 1
    while i >= 0 && name.count - i <= longestExtension + 1 {
      if name[i] == UInt8(ascii: ".") {
        dot = i
        break
      }
      i -= 1
    }
    guard dot > 0, dot < name.count - 1 else { return false }
    // The extension, lower-cased, packed into an integer: no String per directory entry.
    var packed: UInt32 = 0
    for byte in name[(dot + 1)...] {
      // ASCII only: a non-ASCII byte can't be part of a known extension.
      guard byte < 0x80 else { return false }
      let lower = (byte >= 65 && byte <= 90) ? byte + 32 : byte
      packed = packed << 8 | UInt32(lower)
    }
    return packedExtensions.contains(packed)
  }

  private static let packedExtensions: Set<UInt32> = Set(
    image.union(video).map { ext in ext.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })

  package static func isMedia(name: String) -> Bool {
    var name = name
    return name.withUTF8 { isMedia(name: $0) }
  }
}

/// Folders and files that are not part of a library even when they sit inside one.
///
/// Trash folders hold what the user deleted: scanning them would keep deleted photos "present".
/// `cairn-observe` reads the same list the other way round, as evidence of deliberate deletion.
package enum LibraryExclusions {
  /// Folder names (exact) that are trash or version archives of sync tools, desktops and NASes:
  /// freedesktop/macOS `.Trash`, Syncthing `.stversions`, digiKam `.dtrash`, QNAP `@Recycle`,
  /// Synology `#recycle`. Folders named `.Trash-<uid>` match by prefix (see `isTrash`).
  package static let trashFolderNames: Set<String> = [
    ".Trash", ".stversions", ".dtrash", "@Recycle", "#recycle",
  ]

  /// Prefix of per-user freedesktop.org trash folders at a volume's top (`.Trash-1000`).
  package static let trashFolderPrefix = ".Trash-"

  /// Names (exact) of junk: Synology thumbnails, Finder metadata, Windows thumbnail caches.
  package static let junkNames: Set<String> = ["@eaDir", ".DS_Store", "Thumbs.db"]

  /// Prefix of AppleDouble companions (`._IMG_1.JPG`), which hold metadata, not the photo.
  package static let appleDoublePrefix = "._"

  /// True for a trash folder's name.
  package static func isTrash(_ name: String) -> Bool {
    trashFolderNames.contains(name) || name.hasPrefix(trashFolderPrefix)
  }

  /// True for a name the library walk skips: trash folders, junk, and the files Android's
  /// MediaStore has in its trash or is still writing (`MediaStoreName`): neither is a photo in
  /// the library.
  package static func isExcluded(_ name: String) -> Bool {
    isTrash(name) || junkNames.contains(name) || name.hasPrefix(appleDoublePrefix)
      || MediaStoreName(name) != nil
  }

  /// The same test on raw name bytes, cheap enough to run on every directory entry.
  package static func isExcluded(name: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = name.first else { return false }
    // Every excluded name starts with one of these; most photo names don't.
    guard
      first == UInt8(ascii: ".") || first == UInt8(ascii: "@") || first == UInt8(ascii: "#")
        || first == UInt8(ascii: "T")
    else { return false }
    return isExcluded(String(decoding: name, as: UTF8.self))
  }
}

/// A name Android's MediaStore gives a file that is not a live photo, renamed in place:
/// `.trashed-<expires>-<name>` for one in the phone's trash (a gallery's delete, or the Immich
/// app's "Free up space"), `.pending-<expires>-<name>` for one an app is still writing.
/// `<expires>` is when MediaStore purges it, in Unix seconds (AOSP MediaProvider,
/// `FileUtils.PATTERN_EXPIRES_FILE`): by default 30 days after a move to the trash
/// (`DEFAULT_DURATION_TRASHED`) and 7 days after a pending file was created.
package struct MediaStoreName: Sendable, Equatable {
  package enum State: Sendable { case trashed, pending }

  package var state: State
  /// When MediaStore purges the file.
  package var expires: Date
  /// The name the photo had, and has again if it is restored.
  package var originalName: String

  /// How long MediaStore keeps a trashed file by default: the deletion is this long before
  /// `expires`.
  package static let trashRetention: TimeInterval = 30 * 86_400

  /// Parses a file name (case-insensitive prefix, as MediaProvider's pattern); nil for any other.
  package init?(_ name: String) {
    let bytes = Array(name.utf8)
    guard bytes.first == UInt8(ascii: ".") else { return nil }
    let lower = String(decoding: bytes.prefix(9), as: UTF8.self).lowercased()
    let rest: ArraySlice<UInt8>
    if lower.hasPrefix(".trashed-") {
      state = .trashed
      rest = bytes.dropFirst(9)
    } else if lower.hasPrefix(".pending-") {
      state = .pending
      rest = bytes.dropFirst(9)
    } else {
      return nil
    }
    let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let tail = rest.dropFirst(digits.count)
    guard !digits.isEmpty, digits.count <= 18, tail.first == UInt8(ascii: "-"), tail.count > 1,
      let seconds = Int64(String(decoding: digits, as: UTF8.self))
    else { return nil }
    expires = Date(timeIntervalSince1970: TimeInterval(seconds))
    originalName = String(decoding: tail.dropFirst(), as: UTF8.self)
  }

  /// When the file was moved to the trash, by MediaStore's default retention.
  package var trashedAt: Date { expires.addingTimeInterval(-Self.trashRetention) }
}
