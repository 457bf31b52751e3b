import CairnJSON
import CairnRecords
import Foundation
import Testing

@Suite struct JSONCodecTests {
  /// Foundation's parser is the independent referee for what our writer produces.
  private func foundationObject(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
  }

  @Test(arguments: [
    "plain", "", "quote \" and backslash \\", "newline\nand\ttab\r", "control \u{01}\u{1F}",
    "unicode Ünïcödé 写真 🏔️", "slash / stays",
  ])
  func stringsRoundTripThroughFoundation(_ text: String) throws {
    var writer = JSONObjectWriter()
    writer.field("type", "file")
    writer.field("path", text)
    let bytes = writer.finish()
    #expect(try foundationObject(bytes)["path"] as? String == text)
    #expect(try JSONObject(parsing: bytes)["path"]?.string == text)
  }

  @Test func escapesFromOtherWritersDecode() throws {
    let line = #"{"type":"file","path":"a\u00e9\ud83c\udfd4\n\"\/x"}"#
    let object = try JSONObject(parsing: Array(line.utf8))
    #expect(object["path"]?.string == "aé🏔\n\"/x")
  }

  @Test func numbersBoolsNullsAndNesting() throws {
    let line =
      #"{"n":-42,"big":9007199254740993,"f":1.5e3,"t":true,"no":false,"z":null,"#
      + #""a":["x","y"],"o":{"k":7}}"#
    let object = try JSONObject(parsing: Array(line.utf8))
    #expect(object["n"]?.int == -42)
    #expect(object["big"]?.int == 9_007_199_254_740_993)
    #expect(object["f"]?.int == nil)
    #expect(object["f"]?.double == 1500)
    #expect(object["t"]?.bool == true)
    #expect(object["no"]?.bool == false)
    #expect(object["z"]?.isNull == true)
    #expect(object["a"]?.array?.compactMap(\.string) == ["x", "y"])
    #expect(object["o"]?.object?["k"]?.int == 7)
    #expect(object["missing"] == nil)
    #expect(object.keys == ["n", "big", "f", "t", "no", "z", "a", "o"])
  }

  @Test(arguments: [
    "", "[]", "{", #"{"a":1"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":tru}"#, #"{"a":"x"} x"#,
    #"{a:1}"#, #"{"a":"\q"}"#, "{\"a\":\"\u{01}\"}", #"{"a":1.}"#, #"{"a":-}"#,
  ])
  func malformedTextIsRejected(_ text: String) {
    #expect(throws: JSONSyntaxError.self) { try JSONObject(parsing: Array(text.utf8)) }
  }

  /// The scanner skips plain ASCII eight bytes at a time: whatever needs a look (a quote, a
  /// backslash, a control character, a multi-byte character) must be found at every offset
  /// from the line's start and the string's.
  @Test func everyByteThatMattersIsSeenAtEveryOffset() throws {
    for lead in 0..<17 {
      for offset in 0..<17 {
        let head = #"{"type":"f","# + String(repeating: " ", count: lead) + #""p":""#
        let before = String(repeating: "a", count: offset)
        func parse(_ middle: [UInt8]) throws -> String? {
          let line = Array((head + before).utf8) + middle + Array(#"bcdefghijk"}"#.utf8)
          return try JSONObject(parsing: line)["p"]?.string
        }
        let context = "lead \(lead), offset \(offset)"
        #expect(try parse(Array(#"\""#.utf8)) == before + "\"bcdefghijk", "\(context)")
        #expect(try parse(Array(#"\\"#.utf8)) == before + "\\bcdefghijk", "\(context)")
        #expect(try parse(Array("é".utf8)) == before + "ébcdefghijk", "\(context)")
        #expect(throws: JSONSyntaxError.self, "\(context)") { try parse([0x01]) }
        #expect(throws: JSONSyntaxError.self, "\(context)") { try parse([0x1F]) }
        #expect(throws: JSONSyntaxError.self, "\(context)") { try parse([0xFF]) }
        #expect(throws: JSONSyntaxError.self, "\(context)") {
          try JSONObject(parsing: Array((head + before).utf8))
        }
        // A quote ends the string where it is: what follows is then not JSON.
        #expect(throws: JSONSyntaxError.self, "\(context)") { try parse(Array("\"".utf8)) }
      }
    }
  }

  @Test func invalidUTF8IsRejected() {
    let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
    #expect(throws: JSONSyntaxError.self) { try JSONObject(parsing: bytes) }
  }

  @Test func recordsRoundTrip() throws {
    let file = FileRecord(
      path: "/p/a b.jpg", root: "/p", size: 5_000_000_000, mtime: Date(timeIntervalSince1970: 1.5),
      checksum: "2jmj7l5rSw0yVb/vlWAYkK/YBwk=", device: 2049, inode: 123)
    let again = try FileRecord(JSONObject(parsing: file.jsonBytes()))
    #expect(again == file)
    let object = try foundationObject(file.jsonBytes())
    #expect(object["type"] as? String == "file")
    #expect(object["mtime"] as? String == "1970-01-01T00:00:01.500Z")

    let candidate = CandidateRecord(
      assetId: "a", checksum: "c", bucket: .held, reason: "quarantine", paths: ["/x"],
      eligibleAt: Date(timeIntervalSince1970: 86400))
    #expect(try CandidateRecord(JSONObject(parsing: candidate.jsonBytes())) == candidate)

    let end = EndRecord(
      tool: "cairn-hash", complete: false, errors: 2, counts: ["files": 3],
      roots: [RootStatus(path: "/p", complete: false, files: 3, problem: "unreadable")])
    #expect(try EndRecord(JSONObject(parsing: end.jsonBytes())) == end)

    let scoped = EndRecord(
      tool: "cairn-hash", complete: true, counts: ["files": 3],
      roots: [
        RootStatus(
          path: "/p", complete: true, files: 3,
          outOfScope: [.init(path: "/p/Card", problem: "volume away", files: 2)])
      ])
    let text = String(decoding: scoped.jsonBytes(), as: UTF8.self)
    #expect(text.contains(#""outOfScope":[{"path":"/p/Card","problem":"volume away","files":2}]"#))
    #expect(try EndRecord(JSONObject(parsing: scoped.jsonBytes())) == scoped)
    #expect(!String(decoding: end.jsonBytes(), as: UTF8.self).contains("outOfScope"))
  }

  @Test func unknownFieldsAreIgnored() throws {
    let line = #"{"type":"asset","id":"x","checksum":"c","ownerId":"u","future":{"deep":[1,2]}}"#
    let asset = try AssetRecord(JSONObject(parsing: Array(line.utf8)))
    #expect(asset.id == "x")
    #expect(asset.visibility == "timeline")
  }

  @Test func missingAndMistypedFieldsSayWhich() throws {
    let missing = try JSONObject(parsing: Array(#"{"type":"file","size":1}"#.utf8))
    #expect(throws: RecordError.missing("path")) { try FileRecord(missing) }
    let mistyped = try JSONObject(parsing: Array(#"{"type":"file","path":"/a","size":"1"}"#.utf8))
    #expect(throws: RecordError.wrongKind("size", "an integer")) { try FileRecord(mistyped) }
  }
}
