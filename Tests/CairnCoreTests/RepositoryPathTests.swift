import Foundation
import Testing

/// A clone holds only what `git ls-files` lists, so no tracked file may lean on a path outside
/// the repository: a build farm's folders, a CI scratch folder, or a sibling checkout. The facts
/// about Immich that the code cites live in `docs/IMMICH-API.md` for that reason.
struct RepositoryPathTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Spelled in pieces so this file does not cite them itself.
  static let outsidePaths = ["/" + "work/", "/" + "farm/", "/tmp/" + "ci-", ".." + "/shared/"]

  /// Larger files are data, not citations.
  static let largestFile = 2 * 1024 * 1024

  @Test func noTrackedFileCitesAPathOutsideTheRepository() throws {
    let files = try Self.trackedFiles()
    #expect(files.contains("Package.swift"), "git ls-files did not list Package.swift")
    var hits: [String] = []
    for file in files {
      guard let text = Self.text(of: Self.packageRoot.appendingPathComponent(file)) else {
        continue
      }
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        for path in Self.outsidePaths where line.contains(path) {
          hits.append("\(file):\(index + 1): cites \(path): \(line)")
        }
      }
    }
    for hit in hits {
      Issue.record("a path outside the repository: \(hit)")
    }
  }

  /// The tracked files, relative to the package root. Throws, and so fails the test, when git
  /// or the checkout is missing: a check that cannot look must not pass.
  static func trackedFiles() throws -> [String] {
    let root = packageRoot.path
    guard FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(".git").path)
    else {
      throw CheckoutMissing(reason: "\(root) is not a git checkout (no .git)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", root, "ls-files", "-z"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw CheckoutMissing(reason: "could not run git: \(error)")
    }
    let listing = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let said = String(decoding: message, as: UTF8.self)
      throw CheckoutMissing(
        reason: "git ls-files in \(root) exited \(process.terminationStatus): \(said)")
    }
    let files = listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard !files.isEmpty else {
      throw CheckoutMissing(reason: "git ls-files in \(root) listed no files")
    }
    return files
  }

  /// The file's text, or nil for a file that is gone from the work tree, too large, or binary
  /// (a NUL byte, or not UTF-8).
  static func text(of url: URL) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
      attributes[.type] as? FileAttributeType == .typeRegular,
      let size = attributes[.size] as? Int, size <= largestFile,
      let data = try? Data(contentsOf: url), !data.contains(0)
    else { return nil }
    return String(data: data, encoding: .utf8)
  }

  struct CheckoutMissing: Error, CustomStringConvertible {
    let reason: String
    var description: String {
      "RepositoryPathTests needs git and the repository's checkout: \(reason)"
    }
  }
}
