import CairnRecords

/// The scan's values handed to the `file` record's fast encoder (`FileRecordEncoder`, beside
/// `FileRecord` in CairnRecords): what `stat` said and the content's digest.
extension FileRecordEncoder {
  /// The record's line, without the newline (see `encode(path:escapedRoot:size:…)`).
  package mutating func encode(
    path: UnsafeBufferPointer<UInt8>, escapedRoot: [UInt8], status: FileStatus,
    checksum: ContentDigest, escapedVolume: [UInt8]? = nil
  ) -> [UInt8] {
    encode(
      path: path, escapedRoot: escapedRoot, size: status.size,
      mtimeNanoseconds: status.mtimeNanoseconds, appendChecksum: checksum.appendBase64(to:),
      device: status.device, inode: status.inode, escapedVolume: escapedVolume)
  }
}
