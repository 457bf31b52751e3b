import CairnFuzzHarness
import Foundation
import Testing

/// Every input of the fuzzing corpus (`fuzz/corpus/<target>/`), the seeds and every crash the
/// fuzzer found, through the very function the fuzzer calls: a crash fixed stays fixed, and
/// CI runs the corpus without building the fuzzer (docs/FUZZING.md).
@Suite struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fuzz/corpus")

  static func inputs(_ target: FuzzTarget) -> [URL] {
    let folder = corpus.appendingPathComponent(target.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTarget.allCases)
  func everyCorpusInputIsReadWithoutACrash(_ target: FuzzTarget) throws {
    let inputs = Self.inputs(target)
    #expect(inputs.count >= 3, "fuzz/corpus/\(target.rawValue) holds too few seeds")
    var accepted = 0
    for input in inputs where target.run(Array(try Data(contentsOf: input))) {
      accepted += 1
    }
    // Seeds the reader refuses at its first check would leave the fuzzer at the door.
    #expect(accepted > 0, "no seed of \(target.rawValue) is accepted whole")
  }
}
