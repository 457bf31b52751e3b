import CairnHashing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File systems where the kernel's file events are blind to other machines.
///
/// inotify (and FSEvents) report what this machine's kernel does to a file system: on a
/// network or FUSE file system (NFS, SMB/CIFS, sshfs, most NAS mounts) a file another machine
/// adds or deletes there produces no event at all. A watcher over such a root would say it is
/// watching and see nothing, so the watcher leaves such roots to the scan (scan-only) and says
/// so, rather than let a person believe their deletions there are witnessed.
package enum BlindFileSystems {
  /// `statfs`'s `f_type` of the network, cluster and FUSE file systems (Linux's
  /// `<linux/magic.h>` and the file systems' own headers), with a name to show.
  package static let linuxMagic: [Int64: String] = [
    0x6969: "nfs",
    0x517B: "smb",
    0xFF53_4D42: "cifs",
    0xFE53_4D42: "smb2",
    0x6573_5546: "fuse",
    0x00C3_6400: "ceph",
    0x5346_414F: "afs",
    0x6B41_4653: "kafs",
    0x7375_7245: "coda",
    0x0102_1997: "9p",
    0x564C: "ncpfs",
    0x0116_1970: "gfs2",
    0x7461_636F: "ocfs2",
    0x0BD0_0BD0: "lustre",
    0x2003_0528: "orangefs",
    0x786F_4256: "vboxsf",
    0x1373_2255: "glusterfs",
  ]

  /// `statfs`'s `f_fstypename` of the same kinds on macOS (and the BSDs).
  package static let typeNames: Set<String> = [
    "nfs", "smbfs", "afpfs", "webdav", "cifs", "ftp", "macfuse", "osxfuse", "fusefs",
    "osxfusefs", "fuse", "sshfs",
  ]

  /// The name of a blind file system with Linux magic `magic`; nil for a local one.
  package static func blind(magic: Int64) -> String? {
    linuxMagic[magic & 0xFFFF_FFFF]
  }

  /// The name of a blind file system called `name` by macOS; nil for a local one.
  package static func blind(typeName name: String) -> String? {
    let lower = name.lowercased()
    return typeNames.contains(lower) || lower.hasPrefix("fuse") || lower.hasPrefix("macfuse")
      ? lower : nil
  }

  /// The name of the blind file system holding `path`; nil when it is local, or when `statfs`
  /// cannot tell (a missing root is reported as missing, not as blind).
  package static func fileSystem(at path: String) -> String? {
    #if canImport(Darwin)
      var info = statfs()
      guard statfs(path, &info) == 0 else { return nil }
      let name = withUnsafeBytes(of: info.f_fstypename) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      return blind(typeName: name)
    #else
      guard let magic = magic(at: path), let name = blind(magic: magic) else { return nil }
      return name == "fuse" && onBlockDevice(path) ? nil : name
    #endif
  }

  #if os(Linux)
    /// `statfs(2)`, found at run time: Swift's Glibc module leaves out `<sys/vfs.h>`.
    private typealias StatFS =
      @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer)
      -> Int32
    nonisolated(unsafe) private static let statfsCall: StatFS? = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "statfs") else { return nil }
      return unsafeBitCast(symbol, to: StatFS.self)
    }()

    /// `f_type` of the file system holding `path`: the first field of `struct statfs`, a
    /// `long` (`__fsword_t`).
    static func magic(at path: String) -> Int64? {
      guard let call = statfsCall else { return nil }
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
      defer { buffer.deallocate() }
      guard path.withCString({ call($0, buffer) }) == 0 else { return nil }
      return Int64(buffer.load(as: Int.self))
    }

    /// True for FUSE over a local disk (`fuseblk`: ntfs-3g, exfat-fuse), which has no other
    /// machine writing to it.
    static func onBlockDevice(_ path: String) -> Bool {
      var info = stat()
      guard stat(path, &info) == 0, let mounts = MountTable.entries() else { return false }
      let device = UInt64(truncatingIfNeeded: info.st_dev)
      return mounts.values.contains { $0.device == device && $0.fsType == "fuseblk" }
    }
  #endif
}
