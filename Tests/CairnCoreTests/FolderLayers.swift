import Foundation

/// The folders inside a module, lowest first, and the rule between them: a file may mention
/// the names its own folder and the folders below declare, never a name a higher folder
/// declares. So each folder can be read, and changed, knowing only what lies under it.
///
/// Names are the top-level declarations of each file (types, functions, constants); a member
/// added by an extension is not one, and a name declared in two folders binds to none. Comments
/// and the text of string literals are not code; an interpolation inside a string is.
struct FolderLayers {
  /// The module's folder under `Sources/`.
  let module: String
  /// Folders relative to the module, lowest first; "" is the module's own folder.
  let order: [String]

  /// One Swift file of the module: the folder it is in and its text.
  struct File {
    let folder: String
    let path: String
    let text: String
  }

  /// A file that reaches up, or stands in a folder with no place in the order.
  struct Violation: Equatable, CustomStringConvertible {
    let path: String
    let name: String
    let folder: String
    let higherFolder: String

    var description: String {
      higherFolder.isEmpty
        ? "\(path): folder '\(folder)' has no place in the module's folder order"
        : "\(path) (in '\(folder)') mentions \(name), declared in '\(higherFolder)' above it"
    }
  }

  func violations(in files: [File]) -> [Violation] {
    let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    var declaredIn: [String: Set<String>] = [:]
    for file in files {
      for name in Self.topLevelNames(SwiftCode.withoutCommentsAndStrings(file.text)) {
        declaredIn[name, default: []].insert(file.folder)
      }
    }
    var found: [Violation] = []
    for file in files {
      guard let own = rank[file.folder] else {
        found.append(Violation(path: file.path, name: "", folder: file.folder, higherFolder: ""))
        continue
      }
      let mentioned = SwiftCode.identifiers(SwiftCode.withoutCommentsAndStrings(file.text))
      for name in mentioned.sorted() {
        guard let folders = declaredIn[name], folders.count == 1, let folder = folders.first,
          let higher = rank[folder], higher > own
        else { continue }
        found.append(
          Violation(path: file.path, name: name, folder: file.folder, higherFolder: folder))
      }
    }
    return found
  }

  /// The Swift files under `Sources/<module>` of the repository at `root`.
  func files(underRepository root: URL) throws -> [File] {
    let moduleFolder = root.appendingPathComponent("Sources").appendingPathComponent(module)
    let walker = FileManager.default.enumerator(atPath: moduleFolder.path)
    var files: [File] = []
    while let relative = walker?.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let folder = (relative as NSString).deletingLastPathComponent
      let text = try String(
        contentsOf: moduleFolder.appendingPathComponent(relative), encoding: .utf8)
      files.append(File(folder: folder, path: "Sources/\(module)/\(relative)", text: text))
    }
    return files.sorted { $0.path < $1.path }
  }

  static let modifiers: Set<String> = [
    "package", "public", "private", "fileprivate", "internal", "final", "nonisolated",
    "indirect", "static", "open",
  ]
  static let introducers: Set<String> = [
    "struct", "class", "enum", "protocol", "actor", "typealias", "func", "let", "var",
  ]

  /// The names declared at the top level: on a line that starts in the first column, after
  /// any attributes and modifiers, the word following `struct`, `func`, `let` and the like.
  static func topLevelNames(_ code: String) -> Set<String> {
    var names: Set<String> = []
    for line in code.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
      var words = line.split(whereSeparator: \.isWhitespace).makeIterator()
      while let word = words.next() {
        if word.hasPrefix("@") { continue }
        let bare = word.prefix { $0 != "(" }
        if modifiers.contains(String(bare)) { continue }
        if introducers.contains(String(word)), let next = words.next() {
          let name = next.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
          if !name.isEmpty { names.insert(String(name)) }
        }
        break
      }
    }
    return names
  }
}

/// Just enough of Swift's lexical structure to tell code from comments and string text.
enum SwiftCode {
  /// `text` with comments and the literal parts of strings replaced by spaces; line breaks
  /// stay, so a line that starts in the first column still does.
  static func withoutCommentsAndStrings(_ text: String) -> String {
    var lexer = Lexer(Array(text.unicodeScalars))
    while !lexer.atEnd {
      if lexer.inStringText {
        lexer.stringText()
      } else if lexer.at("//") {
        lexer.lineComment()
      } else if lexer.at("/*") {
        lexer.blockComment()
      } else {
        lexer.code()
      }
    }
    return String(lexer.out)
  }

  /// A pass over a file's characters that copies code and blanks out the rest.
  private struct Lexer {
    let chars: [Unicode.Scalar]
    var out = String.UnicodeScalarView()
    var i = 0
    /// Each open string: its delimiter's quote count (1 or 3), and the parentheses open in
    /// the interpolation being read inside it, or nil while reading its text.
    var strings: [(quotes: Int, parens: Int?)] = []

    init(_ chars: [Unicode.Scalar]) { self.chars = chars }

    var atEnd: Bool { i >= chars.count }
    var inStringText: Bool { strings.last.map { $0.parens == nil } ?? false }

    func at(_ s: String, offset: Int = 0) -> Bool {
      let scalars = Array(s.unicodeScalars)
      let start = i + offset
      guard start + scalars.count <= chars.count else { return false }
      return Array(chars[start..<start + scalars.count]) == scalars
    }

    mutating func blank(_ count: Int) {
      for k in i..<min(i + count, chars.count) { out.append(chars[k] == "\n" ? "\n" : " ") }
      i += count
    }

    mutating func copy() {
      out.append(chars[i])
      i += 1
    }

    /// Inside a string's text: an interpolation opens, an escape or a character is blanked,
    /// or the closing quotes end the string.
    mutating func stringText() {
      let quotes = strings[strings.count - 1].quotes
      if chars[i] == "\\" && at("(", offset: 1) {
        strings[strings.count - 1].parens = 0
        blank(1)
        copy()
      } else if chars[i] == "\\" {
        blank(2)
      } else if at(String(repeating: "\"", count: quotes)) {
        strings.removeLast()
        blank(quotes)
      } else {
        blank(1)
      }
    }

    mutating func lineComment() {
      while !atEnd && chars[i] != "\n" { blank(1) }
    }

    /// A block comment, which in Swift nests.
    mutating func blockComment() {
      var depth = 0
      repeat {
        if at("/*") {
          depth += 1
          blank(2)
        } else if at("*/") {
          depth -= 1
          blank(2)
        } else {
          blank(1)
        }
      } while depth > 0 && !atEnd
    }

    /// Code, the code of an interpolation included: a string may open, and an interpolation's
    /// closing parenthesis returns to its string's text.
    mutating func code() {
      if at("\"\"\"") {
        strings.append((3, nil))
        blank(3)
      } else if chars[i] == "\"" {
        strings.append((1, nil))
        blank(1)
      } else if let parens = strings.last?.parens, chars[i] == "(" || chars[i] == ")" {
        let depth = parens + (chars[i] == "(" ? 1 : -1)
        strings[strings.count - 1].parens = depth < 0 ? nil : depth
        copy()
      } else {
        copy()
      }
    }
  }

  /// Every identifier in `code`.
  static func identifiers(_ code: String) -> Set<String> {
    var found: Set<String> = []
    var current = ""
    for c in code.unicodeScalars {
      if CharacterSet.alphanumerics.contains(c) || c == "_" {
        current.unicodeScalars.append(c)
      } else {
        if let first = current.unicodeScalars.first, !CharacterSet.decimalDigits.contains(first) {
          found.insert(current)
        }
        current = ""
      }
    }
    if !current.isEmpty { found.insert(current) }
    return found
  }
}
