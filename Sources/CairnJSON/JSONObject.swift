import CairnSupport

/// One parsed JSON object, read lazily.
///
/// cairn's streams carry millions of small records, so the parser only finds where each top-level
/// field starts and ends; a value is decoded when a stage asks for it. Stages never pay for the
/// fields they ignore, and unknown fields cost nothing.
package struct JSONObject: Sendable {
  /// The UTF-8 bytes of the object (the whole input line, or a nested object's slice of it).
  package let bytes: [UInt8]
  @usableFromInline let fields: [Field]

  @usableFromInline struct Field: Sendable {
    var keyStart: Int32
    var keyEnd: Int32
    var keyHasEscapes: Bool
    var valueStart: Int32
    var valueEnd: Int32
  }

  init(bytes: [UInt8], fields: [Field]) {
    self.bytes = bytes
    self.fields = fields
  }

  /// Parses one JSON object; `bytes` must hold exactly the object, with optional white space.
  package init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
    var scanner = JSONScanner(bytes: bytes)
    self = try scanner.scanTopLevelObject()
  }

  /// The field names, in input order.
  package var keys: [String] {
    fields.map { field in
      JSONScanner.decodeString(
        bytes, from: Int(field.keyStart), to: Int(field.keyEnd),
        hasEscapes: field.keyHasEscapes)
    }
  }

  @usableFromInline func index(of key: String) -> Int? {
    var key = key
    return key.withUTF8 { keyBytes -> Int? in
      bytes.withUnsafeBufferPointer { buffer -> Int? in
        for (i, field) in fields.enumerated() {
          let start = Int(field.keyStart)
          let length = Int(field.keyEnd) - start
          if field.keyHasEscapes {
            if JSONScanner.decodeString(bytes, from: start, to: Int(field.keyEnd), hasEscapes: true)
              .utf8.elementsEqual(keyBytes)
            {
              return i
            }
            continue
          }
          guard length == keyBytes.count else { continue }
          if UnsafeBufferPointer(rebasing: buffer[start..<(start + length)])
            .sameBytes(as: keyBytes)
          {
            return i
          }
        }
        return nil
      }
    }
  }

  /// The value of `key`, or nil when the field is absent.
  package subscript(key: String) -> JSONValue? {
    guard let i = index(of: key) else { return nil }
    let field = fields[i]
    return JSONValue(bytes: bytes, start: Int(field.valueStart), end: Int(field.valueEnd))
  }

  /// The raw UTF-8 text of a field's value, exactly as it appeared in the input.
  package func rawValue(_ key: String) -> ArraySlice<UInt8>? {
    guard let i = index(of: key) else { return nil }
    return bytes[Int(fields[i].valueStart)..<Int(fields[i].valueEnd)]
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif
