#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// What `stat` says about a file, reduced to what identifies one version of its bytes.
///
/// The hash cache trusts a checksum only while all of these are unchanged. `ctime` is the
/// guard that `mtime` can't be: any write moves it, and `touch -d` can't set it back.
package struct FileStatus: Sendable, Equatable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var mtimeNanoseconds: Int64
  package var ctimeNanoseconds: Int64
  package var mode: UInt32

  package init(
    device: UInt64, inode: UInt64, size: Int64, mtimeNanoseconds: Int64,
    ctimeNanoseconds: Int64, mode: UInt32
  ) {
    self.device = device
    self.inode = inode
    self.size = size
    self.mtimeNanoseconds = mtimeNanoseconds
    self.ctimeNanoseconds = ctimeNanoseconds
    self.mode = mode
  }

  package init(_ s: stat) {
    device = UInt64(s.st_dev)
    inode = UInt64(s.st_ino)
    size = Int64(s.st_size)
    mode = UInt32(s.st_mode)
    #if canImport(Darwin)
      mtimeNanoseconds =
        Int64(s.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(s.st_mtimespec.tv_nsec)
      ctimeNanoseconds =
        Int64(s.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(s.st_ctimespec.tv_nsec)
    #else
      mtimeNanoseconds = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
      ctimeNanoseconds = Int64(s.st_ctim.tv_sec) * 1_000_000_000 + Int64(s.st_ctim.tv_nsec)
    #endif
  }

  package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
  package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
  package var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }

  /// How long after a change the file system's clock may leave the timestamps unmoved by the
  /// next one: a kernel tick (at most 10 ms, doubled), or the two seconds of coarse file
  /// systems (FAT, some network mounts), whose timestamps are whole milliseconds.
  package var timestampMargin: Int64 {
    let coarse = ctimeNanoseconds % 1_000_000 == 0 && mtimeNanoseconds % 1_000_000 == 0
    return coarse ? 2_000_000_000 : 20_000_000
  }

  /// Same file, same bytes as far as the kernel can tell.
  package func sameVersion(as other: FileStatus) -> Bool {
    device == other.device && inode == other.inode && size == other.size
      && mtimeNanoseconds == other.mtimeNanoseconds && ctimeNanoseconds == other.ctimeNanoseconds
  }
}

/// A failed system call, as the `code` of an error record (`ENOENT`) and a human message.
package struct SystemError: Error, Sendable, Equatable {
  package var code: String
  package var message: String

  package init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  package init(errno number: Int32) {
    code = SystemError.name(of: number)
    message = String(cString: strerror(number))
  }

  /// The symbolic name of the errors a scan meets; `E<number>` for the rest.
  static func name(of number: Int32) -> String {
    switch number {
    case ENOENT: return "ENOENT"
    case EACCES: return "EACCES"
    case EPERM: return "EPERM"
    case ELOOP: return "ELOOP"
    case EIO: return "EIO"
    case ENOTDIR: return "ENOTDIR"
    case ENAMETOOLONG: return "ENAMETOOLONG"
    case EMFILE: return "EMFILE"
    case ENFILE: return "ENFILE"
    case ENOMEM: return "ENOMEM"
    case EINVAL: return "EINVAL"
    case EAGAIN: return "EAGAIN"
    case EISDIR: return "EISDIR"
    case ESTALE: return "ESTALE"
    case ENXIO: return "ENXIO"
    default: return "E\(number)"
    }
  }
}
