import CairnTestSupport
import Foundation
import ImmichTestServer
import Testing

/// The validator the conformance suites rely on must reject wrong documents; one that accepted
/// everything would make every conformance test pass vacuously.
@Suite struct SchemaValidatorTests {
  static var components: [String: Any] {
    [
      "Color": ["type": "string", "enum": ["red", "green"]],
      "Tag": [
        "type": "object", "required": ["id", "name"],
        "properties": [
          "id": ["type": "string", "format": "uuid"],
          "name": ["type": "string"],
          "parentId": ["type": "string", "nullable": true],
          "color": ["$ref": "#/components/schemas/Color"],
          "createdAt": ["type": "string", "format": "date-time"],
          "count": ["type": "integer", "minimum": 0, "maximum": 10],
          "owner": ["allOf": [["$ref": "#/components/schemas/Owner"]], "nullable": true],
        ],
      ],
      "Owner": [
        "type": "object", "required": ["email"], "properties": ["email": ["type": "string"]],
      ],
      "Free": ["type": "object", "additionalProperties": ["type": "boolean"]],
      "Closed": [
        "type": "object", "additionalProperties": false, "properties": ["a": ["type": "string"]],
      ],
    ]
  }

  let validator = SchemaValidator(schemas: components)
  let strict = SchemaValidator(schemas: components, rejectUndeclaredProperties: true)
  static let id = "0b3e7f4e-2b7d-4c1a-9a51-0e2f3d4c5b6a"
  let good: ImmichJSON = [
    "id": .string(id), "name": "a", "parentId": .null, "color": "red",
    "createdAt": "2026-01-02T03:04:05.678Z", "count": 3, "owner": ["email": "x@y"],
  ]

  @Test func acceptsAConformingDocument() {
    #expect(validator.errors(good, ref: "Tag") == [])
    #expect(strict.errors(good, ref: "Tag") == [])
    #expect(
      validator.errors(["id": .string(Self.id), "name": "a", "owner": .null], ref: "Tag") == [])
  }

  struct Wrong: Sendable, CustomStringConvertible {
    var description: String
    var document: ImmichJSON
    var complaint: String
  }

  static func replacing(_ key: String, with value: ImmichJSON?) -> ImmichJSON {
    let base = SchemaValidatorTests().good
    guard case .object(let pairs) = base else { return base }
    var out = pairs.filter { $0.0 != key }
    if let value { out.append((key, value)) }
    return .object(out)
  }

  static let wrongs: [Wrong] = [
    Wrong(
      description: "missing required", document: replacing("name", with: nil),
      complaint: "missing required property 'name'"),
    Wrong(
      description: "null where not nullable", document: replacing("name", with: .null),
      complaint: "$.name: expected string, got null"),
    Wrong(
      description: "number for string", document: replacing("name", with: 1),
      complaint: "$.name: expected string"),
    Wrong(
      description: "bool for integer", document: replacing("count", with: true),
      complaint: "$.count: expected integer"),
    Wrong(
      description: "fraction for integer", document: replacing("count", with: .number(1.5)),
      complaint: "$.count: expected integer"),
    Wrong(
      description: "above maximum", document: replacing("count", with: 11),
      complaint: "above the maximum"),
    Wrong(
      description: "not in enum (via $ref)", document: replacing("color", with: "blue"),
      complaint: "$.color: \"blue\" is not one of"),
    Wrong(
      description: "not a uuid", document: replacing("id", with: "1234"),
      complaint: "is not a uuid"),
    Wrong(
      description: "date without time", document: replacing("createdAt", with: "2026-01-02"),
      complaint: "not an RFC 3339 date-time"),
    Wrong(
      description: "date without zone",
      document: replacing("createdAt", with: "2026-01-02T03:04:05"),
      complaint: "not an RFC 3339 date-time"),
    Wrong(
      description: "month 13", document: replacing("createdAt", with: "2026-13-02T03:04:05Z"),
      complaint: "not an RFC 3339 date-time"),
    Wrong(
      description: "allOf part violated", document: replacing("owner", with: ["mail": "x"]),
      complaint: "$.owner: missing required property 'email'"),
    Wrong(description: "array for object", document: [], complaint: "$: expected object"),
  ]

  @Test(arguments: wrongs)
  func rejectsAWrongDocument(wrong: Wrong) {
    let errors = validator.errors(wrong.document, ref: "Tag")
    #expect(errors.contains { $0.contains(wrong.complaint) }, "\(errors)")
  }

  @Test func strictModeRejectsUndeclaredProperties() {
    let extra = Self.replacing("deletedAt", with: .null)
    #expect(validator.errors(extra, ref: "Tag") == [])
    #expect(
      strict.errors(extra, ref: "Tag") == ["$: property 'deletedAt' is not declared by the schema"])
  }

  @Test func additionalPropertiesIsHonoured() {
    #expect(validator.errors(["x": true, "y": false], ref: "Free") == [])
    #expect(validator.errors(["x": "yes"], ref: "Free") == ["$.x: expected boolean, got string"])
    #expect(validator.errors(["a": "1"], ref: "Closed") == [])
    #expect(
      validator.errors(["a": "1", "b": "2"], ref: "Closed") == ["$: property 'b' is not allowed"])
  }

  @Test func itemsAndArrayBoundsAreChecked() {
    let schema: [String: Any] = [
      "type": "array", "maxItems": 2, "items": ["$ref": "#/components/schemas/Color"],
    ]
    #expect(validator.errors(["red", "green"], schema) == [])
    #expect(validator.errors(["red", "pink"], schema).first?.hasPrefix("$[1]:") == true)
    #expect(validator.errors(["red", "red", "red"], schema) == ["$: 3 items, more than 2"])
  }

  @Test func compositionKeywords() {
    let s: [String: Any] = ["type": "string"]
    let i: [String: Any] = ["type": "integer"]
    let n: [String: Any] = ["type": "number"]
    #expect(validator.errors(1, ["anyOf": [s, i]]) == [])
    #expect(validator.errors(true, ["anyOf": [s, i]]) == ["$: matches none of anyOf"])
    #expect(validator.errors("a", ["oneOf": [s, i]]) == [])
    // 2 is both an integer and a number: oneOf wants exactly one.
    #expect(
      validator.errors(2, ["oneOf": [i, n]]) == ["$: matches 2 of oneOf, expected exactly 1"])
    #expect(validator.errors(2, ["allOf": [i, n]]) == [])
    #expect(
      validator.errors(.number(2.5), ["allOf": [i, n]]) == ["$: expected integer, got number"])
  }

  @Test func patternAndUnresolvableReferences() {
    let hex: [String: Any] = ["type": "string", "pattern": "^#?[0-9a-f]{6}$"]
    #expect(validator.errors("#00ff00", hex) == [])
    #expect(validator.errors("green", hex).count == 1)
    #expect(validator.errors("x", ["$ref": "#/components/schemas/Nope"]).count == 1)
  }

  /// Where the conformance suites look for the spec, and that a missing or foreign file
  /// yields no document (so those suites are skipped rather than run against nothing).
  @Test func specLocationAndMissingDocument() throws {
    let fallback = try #require(OpenAPIDocument.candidates.last)
    #expect(fallback.path.hasSuffix("/docs/immich/immich-openapi-specs.json"))
    #expect(!fallback.path.contains(".."))
    // The copies are in the repository: a fresh clone runs the conformance suites.
    #expect(OpenAPIDocument.isAvailable)
    #expect(OpenAPIDocument.v3_2?.schemas["SearchFilter"] != nil)
    #expect(OpenAPIDocument.v3_2?.schemas["AssetResponseDto"] != nil)
    #expect(OpenAPIDocument(URL(fileURLWithPath: "/nonexistent/immich-openapi-specs.json")) == nil)
    let temp = TemporaryDirectory()
    let notASpec = try temp.file("spec.json", "{\"openapi\":\"3.0.0\"}")
    #expect(OpenAPIDocument(URL(fileURLWithPath: notASpec)) == nil)
  }
}
