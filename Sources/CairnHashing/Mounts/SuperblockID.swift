/// A file system's UUID or serial number, read from the first bytes of its device the way
/// blkid(8) reads it, for the types photos are usually kept on. Pure: the caller reads the
/// bytes, so an image file made with mkfs tests it.
enum SuperblockID {
  /// Bytes to read from the start of a device: btrfs keeps its superblock at 64 KiB.
  static let probeLength = 0x10000 + 0x1000

  /// The type and the UUID (as blkid prints it) of the file system starting with `bytes`; nil
  /// when no known signature is there.
  static func read(_ bytes: [UInt8]) -> (type: String, uuid: String)? {
    ext(bytes) ?? xfs(bytes) ?? btrfs(bytes) ?? ntfs(bytes) ?? exfat(bytes) ?? fat(bytes)
  }

  /// ext2/3/4: the superblock at 1024, magic 0xEF53 at +0x38, UUID at +0x68.
  private static func ext(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 1024 + 0x78, b[1024 + 0x38] == 0x53, b[1024 + 0x39] == 0xEF else {
      return nil
    }
    return ("ext", uuid(b, at: 1024 + 0x68))
  }

  /// XFS: `XFSB` at 0, UUID at 32.
  private static func xfs(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 48, matches(b, at: 0, "XFSB") else { return nil }
    return ("xfs", uuid(b, at: 32))
  }

  /// btrfs: `_BHRfS_M` at 64 KiB + 0x40, the file system's UUID at 64 KiB + 0x20.
  private static func btrfs(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 0x10048, matches(b, at: 0x10040, "_BHRfS_M") else { return nil }
    return ("btrfs", uuid(b, at: 0x10020))
  }

  /// NTFS: `NTFS    ` at 3, a 64-bit serial at 72, printed as 16 upper-case hex digits.
  private static func ntfs(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 80, matches(b, at: 3, "NTFS    ") else { return nil }
    return ("ntfs", hex(b[72..<80].reversed(), upper: true))
  }

  /// exFAT: `EXFAT   ` at 3, a 32-bit serial at 100, printed `XXXX-XXXX`.
  private static func exfat(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 104, matches(b, at: 3, "EXFAT   ") else { return nil }
    return ("exfat", serial(b, at: 100))
  }

  /// FAT: the boot signature 0x55AA at 510, then `FAT32   ` at 82 (serial at 67) or `FAT1…`
  /// at 54 (serial at 39).
  private static func fat(_ b: [UInt8]) -> (type: String, uuid: String)? {
    guard b.count >= 512, b[510] == 0x55, b[511] == 0xAA else { return nil }
    if matches(b, at: 82, "FAT32   ") { return ("vfat", serial(b, at: 67)) }
    if matches(b, at: 54, "FAT1") { return ("vfat", serial(b, at: 39)) }
    return nil
  }

  private static func matches(_ b: [UInt8], at offset: Int, _ text: String) -> Bool {
    let expected = Array(text.utf8)
    return b.count >= offset + expected.count
      && Array(b[offset..<(offset + expected.count)]) == expected
  }

  /// 16 bytes as `8-4-4-4-12` lower-case hex.
  private static func uuid(_ b: [UInt8], at offset: Int) -> String {
    let digits = hex(b[offset..<(offset + 16)], upper: false)
    var text = ""
    for (index, character) in digits.enumerated() {
      if [8, 12, 16, 20].contains(index) { text.append("-") }
      text.append(character)
    }
    return text
  }

  /// A little-endian 32-bit serial as `XXXX-XXXX`.
  private static func serial(_ b: [UInt8], at offset: Int) -> String {
    let digits = hex(b[offset..<(offset + 4)].reversed(), upper: true)
    return String(digits.prefix(4)) + "-" + String(digits.suffix(4))
  }

  private static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes, upper: Bool) -> String {
    let alphabet = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(alphabet[Int(byte >> 4)])
      text.append(alphabet[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
