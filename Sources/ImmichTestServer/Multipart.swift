import Foundation

/// A minimal `multipart/form-data` reader: enough for `POST /api/assets`.
struct MultipartForm {
  struct Part {
    var name: String
    var filename: String?
    var data: [UInt8]
    var text: String { String(decoding: data, as: UTF8.self) }
  }

  var parts: [Part] = []

  func field(_ name: String) -> String? {
    parts.first { $0.name == name && $0.filename == nil }?.text
  }
  func file(_ name: String) -> Part? { parts.first { $0.name == name && $0.filename != nil } }

  init?(body: [UInt8], contentType: String) {
    guard let range = contentType.range(of: "boundary=") else { return nil }
    var boundary = String(contentType[range.upperBound...])
    if let semicolon = boundary.firstIndex(of: ";") { boundary = String(boundary[..<semicolon]) }
    boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    let delimiter = Array("--\(boundary)".utf8)
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var chunks: [ArraySlice<UInt8>] = []
    var start: Int?
    var i = 0
    while i + delimiter.count <= body.count {
      if body[i] == delimiter[0], body[i..<(i + delimiter.count)].elementsEqual(delimiter) {
        if let s = start { chunks.append(body[s..<i]) }
        i += delimiter.count
        start = i
      } else {
        i += 1
      }
    }
    for chunk in chunks {
      var part = chunk
      if part.starts(with: [13, 10]) { part = part.dropFirst(2) }
      if part.reversed().starts(with: [10, 13]) { part = part.dropLast(2) }
      guard let headerEnd = MultipartForm.find(separator, in: part) else { continue }
      let headers = String(decoding: part[part.startIndex..<headerEnd], as: UTF8.self)
      let data = Array(part[(headerEnd + separator.count)...])
      guard let name = MultipartForm.attribute("name", in: headers) else { continue }
      parts.append(
        Part(name: name, filename: MultipartForm.attribute("filename", in: headers), data: data))
    }
  }

  static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    var i = haystack.startIndex
    while i + needle.count <= haystack.endIndex {
      if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  static func attribute(_ key: String, in headers: String) -> String? {
    for line in headers.split(separator: "\r\n")
    where line.lowercased().hasPrefix("content-disposition") {
      for item in line.split(separator: ";") {
        let pair = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
        if pair.count == 2, pair[0] == key {
          return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
      }
    }
    return nil
  }
}
