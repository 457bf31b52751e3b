import Foundation

/// A fresh folder for one test, removed when the value goes away.
package final class TemporaryDirectory: @unchecked Sendable {
  package let path: String

  package init(_ label: String = "cairn-test") {
    var template = Array((NSTemporaryDirectory() + "/\(label).XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let made else { preconditionFailure("mkdtemp failed: \(errno)") }
    path = made.replacingOccurrences(of: "//", with: "/")
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `path/relative`, with parent folders created.
  @discardableResult
  package func file(_ relative: String, contents: [UInt8]) throws -> String {
    let full = path + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(contents).write(to: URL(fileURLWithPath: full))
    return full
  }

  @discardableResult
  package func file(_ relative: String, _ text: String) throws -> String {
    try file(relative, contents: Array(text.utf8))
  }

  /// A file only its owner may read, as cairn requires of its configuration and key files.
  @discardableResult
  package func privateFile(_ relative: String, _ text: String) throws -> String {
    let full = try file(relative, contents: Array(text.utf8))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: full)
    return full
  }

  /// An environment whose HOME and XDG folders all live inside this folder, so a test never
  /// touches the real user's state, cache or configuration.
  package func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var env: [String: String] = [
      "PATH": ToolRunner.productsDirectory + ":/usr/bin:/bin",
      "HOME": path + "/home",
      "XDG_STATE_HOME": path + "/state",
      "XDG_CACHE_HOME": path + "/cache",
      "XDG_CONFIG_HOME": path + "/config",
      "XDG_DATA_HOME": path + "/data",
      "LC_ALL": "C.UTF-8",
      "NO_COLOR": "1",
    ]
    for (key, value) in extra { env[key] = value }
    return env
  }
}
