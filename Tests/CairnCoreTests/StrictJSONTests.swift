import CairnJSON
import Testing

/// The scanner's strictness beyond RFC 8259, where two readers could disagree on a record or a
/// hostile line could crash a tool (cairn-records(5), STRICTNESS).
@Suite struct StrictJSONTests {
  private func parse(_ text: String) throws -> JSONObject {
    try JSONObject(parsing: Array(text.utf8))
  }

  @Test(arguments: [
    #"{"type":"file","type":"asset"}"#,
    #"{"path":"/a","x":1,"path":"/b"}"#,
    #"{"type":"file","\u0074ype":"asset"}"#,
    #"{"o":{"k":1,"k":2}}"#,
  ])
  func aKeyTwiceIsRejected(_ text: String) {
    let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
    #expect(error?.message == "duplicate field name")
  }

  @Test func keysThatOnlyLookAlikeAreDistinct() throws {
    // Same length, different bytes; and composed versus decomposed é, which are different keys.
    let object = try parse(#"{"path":1,"root":2,"\u00e9":3,"e\u0301":4}"#)
    #expect(object.keys.count == 4)
  }

  @Test(arguments: [
    #"{"p":"\ud800"}"#, #"{"p":"\udc00"}"#, #"{"p":"\ud800x"}"#, #"{"p":"\ud800\u0041"}"#,
    #"{"p":"\ud800\ud800"}"#, #"{"p":"a\udfffb"}"#,
  ])
  func aLoneSurrogateIsRejected(_ text: String) {
    let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
    #expect(error?.message.contains("surrogate") == true)
  }

  @Test func aSurrogatePairDecodes() throws {
    #expect(try parse(#"{"p":"\ud83d\ude00"}"#)["p"]?.string == "😀")
  }

  @Test func anEscapedNULIsRejected() {
    let error = #expect(throws: JSONSyntaxError.self) { try parse(#"{"p":"/a\u0000.jpg"}"#) }
    #expect(error?.message.contains("u0000") == true)
  }

  @Test(arguments: ["{\"a\":1}\r", "{\"a\":1,\r\"b\":2}", "\r{\"a\":1}", "{\"a\":\"x\ry\"}"])
  func aCarriageReturnIsRejected(_ text: String) {
    #expect(throws: JSONSyntaxError.self) { try parse(text) }
  }

  @Test func nestingUpToTheBoundIsRead() throws {
    // The object itself is the first level.
    let depth = 32
    let text =
      #"{"a":"# + String(repeating: "[", count: depth - 1) + "1"
      + String(repeating: "]", count: depth - 1) + "}"
    #expect(try parse(text)["a"]?.kind == .array)
  }

  @Test func nestingBeyondTheBoundIsRejected() {
    let text =
      #"{"a":"# + String(repeating: "[", count: 32) + "1"
      + String(repeating: "]", count: 32) + "}"
    let error = #expect(throws: JSONSyntaxError.self) { try parse(text) }
    #expect(error?.message == "nested deeper than 32 levels")
  }

  /// A line that nests a million levels deep is an error, not a stack overflow.
  @Test(arguments: ["[", #"{"a":"#])
  func hostileNestingDoesNotCrash(_ opener: String) {
    let text = #"{"a":"# + String(repeating: opener, count: 1_000_000)
    #expect(throws: JSONSyntaxError.self) { try parse(text) }
  }
}
