/// The watched folders and the media files in each, held as compactly as a million files allow.
///
/// A folder is known by its identity (device, inode), with its parent and name, so renaming a
/// folder is one update however much it holds, and its path is built only when an event needs
/// it. A file is a 64-bit hash of its name mapped to its inode and change time: 16 bytes of
/// payload, about 40 with the dictionary's slack. Names are hashed, not stored: two names of
/// one folder with the same FNV-1a hash (about one chance in 10^19) would share an entry.
package struct FolderTree: Sendable {
  package struct File: Sendable, Equatable {
    package var inode: UInt64
    package var changeNanoseconds: Int64

    package init(inode: UInt64, changeNanoseconds: Int64) {
      self.inode = inode
      self.changeNanoseconds = changeNanoseconds
    }
  }

  struct Folder: Sendable {
    /// Nil for a root, whose `name` is then its path.
    var parent: FolderID?
    var name: String
    var root: Int
    var files: [UInt64: File] = [:]
  }

  package let roots: [String]
  private(set) var folders: [FolderID: Folder] = [:]
  private(set) var rootFolders: [Int: FolderID] = [:]

  package init(roots: [String]) { self.roots = roots }

  package var folderCount: Int { folders.count }
  package var fileCount: Int { folders.values.reduce(0) { $0 + $1.files.count } }

  /// The media files known under one root.
  package func fileCount(inRoot root: Int) -> Int {
    folders.values.reduce(0) { $0 + ($1.root == root ? $1.files.count : 0) }
  }

  /// The folders of one root, the root's own included.
  package func folders(ofRoot root: Int) -> Set<FolderID> {
    Set(folders.filter { $0.value.root == root }.keys)
  }

  package func contains(_ id: FolderID) -> Bool { folders[id] != nil }
  package func root(of id: FolderID) -> Int? { folders[id]?.root }
  package func rootFolder(_ root: Int) -> FolderID? { rootFolders[root] }
  package func isRoot(_ id: FolderID) -> Bool { folders[id].map { $0.parent == nil } ?? false }

  package mutating func addRoot(_ root: Int, id: FolderID) {
    folders[id] = Folder(parent: nil, name: roots[root], root: root)
    rootFolders[root] = id
  }

  package mutating func addFolder(_ id: FolderID, parent: FolderID, name: String) {
    guard let root = folders[parent]?.root else { return }
    let files = folders[id]?.files ?? [:]
    folders[id] = Folder(parent: parent, name: name, root: root, files: files)
  }

  /// Forgets the folders of `root` (before it is walked again).
  package mutating func removeRoot(_ root: Int) {
    folders = folders.filter { $0.value.root != root }
    rootFolders[root] = nil
  }

  /// The folder's path, from its root's.
  package func path(of id: FolderID) -> String? {
    var names: [String] = []
    var current = id
    while let folder = folders[current] {
      names.append(folder.name)
      guard let parent = folder.parent else { return names.reversed().joined(separator: "/") }
      current = parent
      if names.count > 4096 { return nil }  // a cycle would be a bug; never loop for ever
    }
    return nil
  }

  package func path(of id: FolderID, name: String) -> String? {
    path(of: id).map { $0 + "/" + name }
  }

  package func file(_ name: String, in folder: FolderID) -> File? {
    folders[folder]?.files[Self.key(name)]
  }

  package mutating func setFile(_ name: String, in folder: FolderID, _ file: File?) {
    guard folders[folder] != nil else { return }
    folders[folder]?.files[Self.key(name)] = file
  }

  /// The subfolder of `parent` called `name`, if it is watched.
  package func subfolder(_ name: String, of parent: FolderID) -> FolderID? {
    folders.first { $0.value.parent == parent && $0.value.name == name }?.key
  }

  /// Moves a folder (and so everything under it) to another parent and name.
  package mutating func moveFolder(_ id: FolderID, to parent: FolderID, name: String) {
    guard let root = folders[parent]?.root, folders[id] != nil else { return }
    folders[id]?.parent = parent
    folders[id]?.name = name
    for descendant in descendants(of: id) + [id] { folders[descendant]?.root = root }
  }

  /// The folders under `id` (not itself).
  package func descendants(of id: FolderID) -> [FolderID] {
    var children: [FolderID: [FolderID]] = [:]
    for (key, folder) in folders {
      if let parent = folder.parent { children[parent, default: []].append(key) }
    }
    var result: [FolderID] = []
    var queue = children[id] ?? []
    while let next = queue.popLast() {
      result.append(next)
      queue += children[next] ?? []
    }
    return result
  }

  /// Removes a folder and everything under it; returns the removed folders.
  @discardableResult
  package mutating func removeFolder(_ id: FolderID) -> [FolderID] {
    let removed = descendants(of: id) + [id]
    for folder in removed { folders[folder] = nil }
    return removed
  }

  /// Every file under `id`, with what is known of it (names are hashed, so the file's name is
  /// not kept: the folder's path stands for where it was).
  package func files(under id: FolderID) -> [(folder: FolderID, file: File)] {
    var result: [(FolderID, File)] = []
    for folder in [id] + descendants(of: id) {
      for file in folders[folder]?.files.values ?? [:].values { result.append((folder, file)) }
    }
    return result
  }

  /// FNV-1a over the name's bytes: stable, allocation-free, and good enough within one folder.
  static func key(_ name: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}
