import CairnEngine
import CairnSealedFiles
import CairnSupport
import Foundation

/// How a scan differs from the previous scan of the same roots (`ScanSnapshot`), by path: the
/// files recording must look at. A file at the same path with the same root, checksum and
/// identity as before is unchanged, and recording it again changes nothing in the store (see
/// `PartitionStore.recordDelta` for why).
///
/// `cairn-hash` lists each root depth-first with every folder's entries in name-byte order,
/// so two scans of a root are two sorted lists and are compared in one merge. Input in any
/// other order (another producer, several roots) is compared through a dictionary of paths.
struct ScanDelta {
  /// Indexes in the scan of files whose path is new, or whose root, checksum or identity
  /// changed, in scan order.
  private(set) var changed: [Int] = []
  /// Indexes in the previous scan of files whose path is gone, or whose root, checksum or
  /// identity changed: the rows they left may be stale.
  private(set) var replaced: [Int] = []
  /// For each file of the previous scan, the index of the scan's file at its path, or -1.
  private var successor: [Int]
  private let previous: ScanSnapshot
  /// The previous scan's paths, when it is not in walk order.
  private var previousIndex: [ByteKey: Int]?
  private var newPaths: [ByteKey: Int] = [:]

  /// Compares `files` with `previous`; nil when a path is listed twice in either (roots that
  /// overlap), which a comparison by path cannot describe.
  init?(files: ScanFiles, previous: ScanSnapshot) {
    self.previous = previous
    successor = [Int](repeating: -1, count: previous.count)
    if !merge(files) {
      changed = []
      replaced = []
      newPaths = [:]
      successor = [Int](repeating: -1, count: previous.count)
      guard match(files) else { return nil }
    }
  }

  /// The index of the scan's file at `path`, if the scan lists it.
  func file(atPath path: String) -> Int? {
    if let before = previousFile(atPath: path) {
      let next = successor[before]
      return next < 0 ? nil : next
    }
    return newPaths[ByteKey(path)]
  }

  /// For each of the scan's `count` files, the index in the previous scan of the file it is
  /// unchanged from (same path, root, checksum and identity), or -1.
  func sources(count: Int) -> [Int32] {
    var sources = [Int32](repeating: -1, count: count)
    for (before, next) in successor.enumerated() where next >= 0 { sources[next] = Int32(before) }
    for index in changed { sources[index] = -1 }
    return sources
  }

  private func previousFile(atPath path: String) -> Int? {
    if let previousIndex { return previousIndex[ByteKey(path)] }
    // Sorted: a binary search.
    return path.withBytes { key in
      var low = 0
      var high = previous.count
      while low < high {
        let middle = (low + high) / 2
        let order = Self.walkOrder(previous.bytes(middle, 0), key)
        if order == 0 { return middle }
        if order < 0 { low = middle + 1 } else { high = middle }
      }
      return nil
    }
  }

  /// Both lists in strictly increasing walk order: one merge. False (and a partial result the
  /// caller discards) as soon as either is not.
  ///
  /// A file the scan read from this very snapshot (`ScanFiles.isFile`) is the snapshot's file
  /// at its index, path and all: the merge moves there without comparing paths, and two such
  /// files in a row are in order because the snapshot is.
  private mutating func merge(_ files: ScanFiles) -> Bool {
    guard previous.inWalkOrder else { return false }
    let shared = files.source === previous
    var before = 0
    var lastSource = -1  // the previous file's index in the snapshot, when read from it
    for index in files.indices {
      if shared, let source = files.sourceIndex(index) {
        guard
          mergeRead(files, index, from: source, after: lastSource, before: &before)
        else { return false }
        lastSource = source
      } else {
        lastSource = -1
        guard mergeParsed(files, index, before: &before) else { return false }
      }
    }
    passGone(upTo: previous.count, before: &before)
    return true
  }

  /// File `index` of `files`, read from the previous scan's snapshot at `source`
  /// (`lastSource`: where the file before it was read from, or -1): the previous files up to
  /// it are gone, and it is unchanged.
  @inline(__always)
  private mutating func mergeRead(
    _ files: ScanFiles, _ index: Int, from source: Int, after lastSource: Int,
    before: inout Int
  ) -> Bool {
    if index > 0 && !(0 <= lastSource && lastSource < source) {
      let order = files.withPath(index - 1) { last in
        files.withPath(index) { Self.walkOrder(last, $0) }
      }
      guard order < 0 else { return false }
    }
    guard source >= before else { return false }
    passGone(upTo: source, before: &before)
    successor[before] = index
    before += 1
    return true
  }

  /// File `index` of `files`, parsed: the previous files whose paths come before its path are
  /// gone; one at its path is its predecessor, changed unless its content is the same; none
  /// makes it new.
  private mutating func mergeParsed(_ files: ScanFiles, _ index: Int, before: inout Int) -> Bool {
    files.withPath(index) { path -> Bool in
      if index > 0 && files.withPath(index - 1, { Self.walkOrder($0, path) }) >= 0 {
        return false
      }
      while before < previous.count {
        let order = Self.walkOrder(previous.bytes(before, 0), path)
        if order > 0 { break }
        if order == 0 {
          successor[before] = index
          if !previous.hasSameContent(before, as: files, index) {
            changed.append(index)
            replaced.append(before)
          }
          before += 1
          return true
        }
        replaced.append(before)  // gone
        before += 1
      }
      changed.append(index)
      newPaths[ByteKey(String(decoding: path, as: UTF8.self))] = index
      return true
    }
  }

  /// The previous files from `before` up to `end` are gone.
  @inline(__always)
  private mutating func passGone(upTo end: Int, before: inout Int) {
    while before < end {
      replaced.append(before)
      before += 1
    }
  }

  /// Any order: a dictionary of the previous scan's paths. False when a path repeats.
  private mutating func match(_ files: ScanFiles) -> Bool {
    var index: [ByteKey: Int] = [:]
    index.reserveCapacity(previous.count)
    for before in 0..<previous.count {
      let path = String(decoding: previous.bytes(before, 0), as: UTF8.self)
      guard index.updateValue(before, forKey: ByteKey(path)) == nil else { return false }
    }
    previousIndex = index
    for position in files.indices {
      let key = ByteKey(files.withPath(position) { String(decoding: $0, as: UTF8.self) })
      if let before = index[key] {
        guard successor[before] < 0 else { return false }
        successor[before] = position
        if !previous.hasSameContent(before, as: files, position) {
          changed.append(position)
          replaced.append(before)
        }
      } else {
        guard newPaths.updateValue(position, forKey: key) == nil else { return false }
        changed.append(position)
      }
    }
    for (before, next) in successor.enumerated() where next < 0 { replaced.append(before) }
    return true
  }

  /// The walk's order of two paths: folder by folder, each name by its bytes, which is byte
  /// order with "/" below every other byte. Negative, zero or positive.
  static func walkOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    let common = Swift.min(a.count, b.count)
    var at = 0
    // Eight bytes at a time to the first that differs (paths share long prefixes).
    if let x = a.baseAddress, let y = b.baseAddress {
      let left = UnsafeRawPointer(x)
      let right = UnsafeRawPointer(y)
      while at + 8 <= common {
        let difference =
          left.loadUnaligned(fromByteOffset: at, as: UInt64.self)
          ^ right.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        if difference != 0 {
          at += UInt64(littleEndian: difference).trailingZeroBitCount / 8
          break
        }
        at += 8
      }
    }
    while at < common && a[at] == b[at] { at += 1 }
    if at == common { return a.count - b.count }
    let slash = UInt8(ascii: "/")
    let x = a[at] == slash ? 0 : Int(a[at]) + 1
    let y = b[at] == slash ? 0 : Int(b[at]) + 1
    return x - y
  }
}
