import Testing

@testable import CairnEngine
@testable import CairnReconcile
@testable import CairnRecords
@testable import CairnSupport

/// The engine's set of scanned checksums must answer exactly as `Set<String>` does.
@Suite struct ChecksumSetTests {
  @Test func answersAsASetOfStrings() {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
    var base64: [String] = []
    for index in 0..<2_000 {
      var characters: [Character] = []
      for position in 0..<28 {
        let pick: Int = (index * 31 + position * 17 + index / (position + 1)) % alphabet.count
        characters.append(alphabet[pick])
      }
      base64.append(String(characters))
    }
    // ASCII only (the fast table), then with strings that are not (a `Set<String>`).
    let short = ["", "K", "A", "AB", "AAAAAAAAA", "AAAAAAAAB"]
    let odd = short + ["caf\u{E9}", "cafe\u{301}"]
    for checksums in [base64, base64 + short, short, base64 + odd, odd, []] {
      let files = (checksums + checksums.prefix(5)).enumerated().map { index, checksum in
        ScannedFile(
          root: "/r", path: "/r/\(index)", checksum: checksum,
          identity: FileIdentity(key: "\(index)"))
      }
      let fast = ChecksumSet(ScanFiles(files))
      let reference = Set(files.map { (file: ScannedFile) in file.checksum })
      let probes = checksums + odd + ["\u{212A}", "none", "Z" + (checksums.first ?? "")]
      for probe in probes {
        #expect(fast.contains(probe) == reference.contains(probe), "\(probe)")
      }
      // In batches, as the engine looks up a listing: the same answers, in order.
      let mixed = probes + probes.reversed().map { "x" + $0 }
      let each = fast.containsEach(count: mixed.count) { index, body in
        mixed[index].withBytes(body)
      }
      #expect(each == mixed.map(reference.contains))
    }
  }

  /// A listing large enough to be looked up in two halves at once: the same answers, in
  /// order, as looking each asset up alone.
  @Test func aLargeListingIsLookedUpInTwoHalvesWithTheSameAnswers() {
    let files = ScanFiles(
      (0..<50_000).map { index in
        ScannedFile(
          root: "/r", path: "/r/\(index)", checksum: "sum-\(index * 3)",
          identity: FileIdentity(key: "\(index)"))
      })
    let assets = ServerAssets(
      (0..<70_001).map { index in
        AssetRecord(
          id: "a\(index)", checksum: "sum-\(index * 2)", originalFileName: "", assetType: "IMAGE",
          visibility: "timeline", ownerId: "u")
      })
    let lookup = ScanLookup(files: files, assets: assets)
    let expected = (0..<70_001).map { index in (index * 2) % 3 == 0 && index * 2 < 150_000 }
    #expect(lookup.assetIsPresent == expected)
    #expect(lookup.contains("sum-3") && !lookup.contains("sum-1"))
  }
}
