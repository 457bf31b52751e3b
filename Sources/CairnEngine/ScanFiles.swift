import CairnJSON
import CairnRecords
import CairnSupport

/// Files a scan shares with an earlier one, read in place: the last scan's snapshot, whose
/// bytes stay where they were read while it lives.
package protocol ScanFileSource: AnyObject, Sendable {
  /// The roots its files lie under.
  var roots: [String] { get }
  /// Whether every file's checksum is ASCII.
  var checksumsAreASCII: Bool { get }
  /// File `index` as the scan listed it.
  func file(_ index: Int) -> ScannedFile
  /// The root of file `index`.
  func root(_ index: Int) -> String
  /// The bytes of file `index`'s path, checksum and identity key, valid while the source
  /// lives.
  func pathBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>
  func checksumBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>
  func identityBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>
  func lineDigest(_ index: Int) -> LineDigest?
}

/// A scan's files, in scan order. A line byte for byte the same as one the last scan's
/// snapshot was made from is that snapshot's file, kept as its index there (`ScanFileSource`);
/// any other line is parsed into a `ScannedFile` of its own. At a million files, a
/// `ScannedFile` each — a path, a checksum and an identity as strings — cost more memory and
/// time than anything the run then does with them, and nearly all were unchanged.
///
/// Elements are `ScannedFile`s, made on demand; what touches every file (lookups, recording,
/// writing the next snapshot) reads their bytes in place instead (`withPath`, `withChecksum`,
/// `withIdentity`, `root`).
package struct ScanFiles: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
  /// Per file, once a file of `source` was added: its index there (≥ 0), or -1 minus its
  /// index in `parsed`. Empty while every file is parsed (the index is then the same).
  private var places: [Int32] = []
  /// The files parsed from their lines.
  package private(set) var parsed: [ScannedFile] = []
  /// Where the other files are read.
  package private(set) var source: (any ScanFileSource)?

  package init() {}

  package init(_ files: [ScannedFile]) { parsed = files }

  package init(arrayLiteral files: ScannedFile...) { parsed = files }

  package var startIndex: Int { 0 }
  package var endIndex: Int { places.isEmpty ? parsed.count : places.count }

  package subscript(index: Int) -> ScannedFile {
    switch place(index) {
    case .parsed(let file): file
    case .source(let at, let source): source.file(at)
    }
  }

  /// Where file `index` is.
  private enum Place {
    case parsed(ScannedFile)
    case source(Int, any ScanFileSource)
  }

  @inline(__always)
  private func place(_ index: Int) -> Place {
    // `places` is empty until a file of `source` is added.
    guard !places.isEmpty, let source else { return .parsed(parsed[index]) }
    let place = Int(places[index])
    return place >= 0 ? .source(place, source) : .parsed(parsed[-1 - place])
  }

  /// Appends a parsed file.
  package mutating func append(_ file: ScannedFile) {
    if !places.isEmpty { places.append(Int32(-1 - parsed.count)) }
    parsed.append(file)
  }

  /// Appends file `index` of `source`. Files of one source only: a file of another is parsed
  /// (made a `ScannedFile`) instead.
  package mutating func append(_ index: Int, of source: any ScanFileSource) {
    if let current = self.source, current !== source {
      append(source.file(index))
      return
    }
    if places.isEmpty {
      guard parsed.count < Int(Int32.max), index < Int(Int32.max) else {
        append(source.file(index))
        return
      }
      places = (0..<parsed.count).map { Int32(-1 - $0) }
    }
    self.source = source
    places.append(Int32(index))
  }

  /// Calls `body` with each file's index in `source` (≥ 0) or a negative number (a parsed
  /// file), in scan order; with nil when every file is parsed. For passes over every file
  /// that read a source's fields directly.
  package func withPlaces<R>(_ body: (UnsafeBufferPointer<Int32>?) throws -> R) rethrows -> R {
    if places.isEmpty { return try body(nil) }
    return try places.withUnsafeBufferPointer { try body($0) }
  }

  /// The index in `source` of file `index`, when it is one of its files.
  @inline(__always)
  package func sourceIndex(_ index: Int) -> Int? {
    guard !places.isEmpty else { return nil }
    let place = Int(places[index])
    return place >= 0 ? place : nil
  }

  /// Whether file `index` is file `sourceIndex` of `source`, without comparing their bytes.
  @inline(__always)
  package func isFile(_ index: Int, _ sourceIndex: Int, of source: any ScanFileSource) -> Bool {
    self.source === source && self.sourceIndex(index) == sourceIndex
  }

  /// Calls `body` with file `index`'s path bytes.
  @inline(__always)
  package func withPath<R>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    try withField(index, \.path, { $0.pathBytes($1) }, body)
  }

  /// Calls `body` with file `index`'s checksum bytes.
  @inline(__always)
  package func withChecksum<R>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    try withField(index, \.checksum, { $0.checksumBytes($1) }, body)
  }

  /// Calls `body` with file `index`'s identity key bytes.
  @inline(__always)
  package func withIdentity<R>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    try withField(index, \.identity.key, { $0.identityBytes($1) }, body)
  }

  /// A field's bytes: the parsed file's string, or the source's bytes in place.
  @inline(__always)
  private func withField<R>(
    _ index: Int, _ parsedField: KeyPath<ScannedFile, String>,
    _ sourceField: (any ScanFileSource, Int) -> UnsafeBufferPointer<UInt8>,
    _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    switch place(index) {
    case .parsed(let file):
      var bytes = file[keyPath: parsedField]
      return try bytes.withUTF8(body)
    case .source(let at, let source): return try body(sourceField(source, at))
    }
  }

  /// File `index`'s root.
  @inline(__always)
  package func root(_ index: Int) -> String {
    switch place(index) {
    case .parsed(let file): file.root
    case .source(let at, let source): source.root(at)
    }
  }

  /// File `index`'s line digest, when known.
  package func lineDigest(_ index: Int) -> LineDigest? {
    switch place(index) {
    case .parsed(let file): file.lineDigest
    case .source(let at, let source): source.lineDigest(at)
    }
  }

  /// Whether every file's root satisfies `isIncluded`: the source's roots (all its files lie
  /// under them) and the parsed files' roots, each asked once.
  package func allRoots(_ isIncluded: (String) -> Bool) -> Bool {
    if let source, !places.isEmpty, !source.roots.allSatisfy(isIncluded) {
      // A root of the source that no file of this scan was taken from is no answer: ask per
      // file.
      return indices.allSatisfy { isIncluded(root($0)) }
    }
    var asked = Set<String>()
    for file in parsed where asked.insert(file.root).inserted {
      guard isIncluded(file.root) else { return false }
    }
    return true
  }

  /// Whether every file's checksum is ASCII (the source's all are, when it has a file here).
  package var checksumsAreASCII: Bool {
    if let source, !places.isEmpty, !source.checksumsAreASCII { return false }
    return parsed.allSatisfy { $0.checksum.withBytes(\.isASCII) }
  }

  /// Equal files in the same order (`ScannedFile`'s equality). The same files read the same
  /// way compare without a look at each (as arrays sharing a buffer do).
  package static func == (a: ScanFiles, b: ScanFiles) -> Bool {
    guard a.count == b.count else { return false }
    if a.source === b.source && a.places == b.places && a.parsed == b.parsed { return true }
    return a.elementsEqual(b)
  }
}
