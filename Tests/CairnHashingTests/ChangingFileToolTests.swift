import CairnTestSupport
import Crypto
import Foundation
import Testing

/// The real `cairn-hash` reading a big file that another process rewrites mid-read. The writer
/// waits until the hasher has read part of the file (its `rchar` in /proc), stops it with
/// SIGSTOP, rewrites the head and the tail in place, and lets it go on: the read is caught
/// between the two versions every time, whatever the machine's speed.
@Suite("cairn-hash on a file rewritten while it is hashed")
struct ChangingFileToolTests {
  static let block = 1 << 20
  static let blocks = 96

  @Test("the checksum is of the final bytes, or the file is an error record: never a mix")
  func rewrittenMidRead() async throws {
    let dir = TemporaryDirectory("cairn-changing-tool")
    let path = dir.path + "/lib/big.jpg"
    try FileManager.default.createDirectory(
      atPath: dir.path + "/lib", withIntermediateDirectories: true)
    let block = Hash.pattern(Self.block, seed: 9)
    FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    for _ in 0..<Self.blocks { handle.write(Data(block)) }
    try handle.close()

    let caught = try await offCooperativePool { try Self.hashWhileRewriting(path, in: dir) }
    #expect(caught.stoppedMidRead, "the hasher had read \(caught.readAtStop) bytes at the stop")
    let final = try Data(contentsOf: URL(fileURLWithPath: path))
    let expected = Data(Insecure.SHA1.hash(data: final)).base64EncodedString()
    let records = caught.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let file = records.first { $0["type"] as? String == "file" }
    let error = records.first { $0["type"] as? String == "error" }
    if caught.status == 0 {
      #expect(file?["checksum"] as? String == expected)
      #expect(error == nil)
    } else {
      #expect(caught.status == 1, "\(caught.stderr)")
      #expect(file == nil)
      #expect(error?["path"] as? String == path)
      #expect(error?["code"] as? String == "EAGAIN")
    }
  }

  struct Caught {
    var status: Int32
    var stdout: String
    var stderr: String
    var stoppedMidRead: Bool
    var readAtStop: Int
  }

  static func hashWhileRewriting(_ path: String, in dir: TemporaryDirectory) throws -> Caught {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/cairn-hash")
    process.arguments = ["--no-cache", "--jobs", "1", (path as NSString).deletingLastPathComponent]
    process.environment = dir.isolatedEnvironment()
    let out = dir.path + "/stdout"
    let err = dir.path + "/stderr"
    FileManager.default.createFile(atPath: out, contents: nil)
    FileManager.default.createFile(atPath: err, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try process.run()
    let pid = process.processIdentifier
    // Started reading (a few blocks in), well short of the end.
    let deadline = Date().addingTimeInterval(60)
    while readBytes(pid) < 4 * block && process.isRunning && Date() < deadline { usleep(200) }
    kill(pid, SIGSTOP)
    let readAtStop = readBytes(pid)
    let fd = open(path, O_WRONLY)
    let patch = [UInt8](repeating: 0x5A, count: 4096)
    _ = patch.withUnsafeBytes { pwrite(fd, $0.baseAddress, 4096, 0) }
    _ = patch.withUnsafeBytes {
      pwrite(fd, $0.baseAddress, 4096, off_t(blocks * block - 4096))
    }
    close(fd)
    kill(pid, SIGCONT)
    process.waitUntilExit()
    return Caught(
      status: process.terminationStatus,
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
      stoppedMidRead: readAtStop >= 4 * block && readAtStop < blocks * block,
      readAtStop: readAtStop)
  }

  /// Bytes the process has read so far (`rchar` of /proc/PID/io).
  static func readBytes(_ pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else {
      return 0
    }
    for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
      return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    return 0
  }
}
