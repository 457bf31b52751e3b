import Foundation

/// A baseline JPEG encoder (JFIF, no chroma subsampling, the example tables of the standard's
/// Annex K), so the double's thumbnails are real image bytes any browser decodes, without an
/// image library. Small and slow by design: thumbnails here are a few dozen pixels a side.
enum JPEGEncoder {
  /// Encodes `rgb` (three bytes per pixel, rows top to bottom) at `quality` 1…100.
  static func encode(width: Int, height: Int, rgb: [UInt8], quality: Int = 85) -> [UInt8] {
    precondition(width > 0 && height > 0 && rgb.count >= width * height * 3)
    let luma = scaled(lumaQuantisation, quality)
    let chroma = scaled(chromaQuantisation, quality)
    var out: [UInt8] = [0xFF, 0xD8]
    segment(&out, 0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    segment(&out, 0xDB, [0] + zigzag.map { luma[$0] } + [1] + zigzag.map { chroma[$0] })
    segment(
      &out, 0xC0,
      [
        8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
        1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1,
      ])
    var tables: [UInt8] = []
    for (id, table) in [(0x00, dcLuma), (0x10, acLuma), (0x01, dcChroma), (0x11, acChroma)] {
      tables += [UInt8(id)] + table.bits + table.values
    }
    segment(&out, 0xC4, tables)
    segment(&out, 0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])

    var bits = BitWriter()
    var previousDC = [0, 0, 0]
    let dcCodes = [dcLuma.codes, dcChroma.codes, dcChroma.codes]
    let acCodes = [acLuma.codes, acChroma.codes, acChroma.codes]
    let quantisation = [luma, chroma, chroma]
    for top in stride(from: 0, to: height, by: 8) {
      for left in stride(from: 0, to: width, by: 8) {
        let blocks = componentBlocks(rgb, width: width, height: height, left: left, top: top)
        for component in 0..<3 {
          let coefficients = quantised(transform(blocks[component]), quantisation[component])
          let dc = coefficients[0]
          encodeValue(&bits, dc - previousDC[component], dcCodes[component], run: 0)
          previousDC[component] = dc
          encodeAC(&bits, coefficients, acCodes[component])
        }
      }
    }
    out += bits.finished()
    out += [0xFF, 0xD9]
    return out
  }

  // MARK: - Blocks

  /// The 8×8 Y, Cb and Cr blocks at (`left`, `top`), level-shifted; edges repeat the last pixel.
  static func componentBlocks(
    _ rgb: [UInt8], width: Int, height: Int, left: Int, top: Int
  ) -> [[Double]] {
    var blocks = [[Double]](repeating: [Double](repeating: 0, count: 64), count: 3)
    for y in 0..<8 {
      for x in 0..<8 {
        let at = (min(top + y, height - 1) * width + min(left + x, width - 1)) * 3
        let (r, g, b) = (Double(rgb[at]), Double(rgb[at + 1]), Double(rgb[at + 2]))
        blocks[0][y * 8 + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128
        blocks[1][y * 8 + x] = -0.168_736 * r - 0.331_264 * g + 0.5 * b
        blocks[2][y * 8 + x] = 0.5 * r - 0.418_688 * g - 0.081_312 * b
      }
    }
    return blocks
  }

  static let cosines: [Double] = (0..<64).map { index in
    let (x, u) = (Double(index / 8), Double(index % 8))
    return cos((2 * x + 1) * u * Double.pi / 16)
  }

  /// The two-dimensional DCT-II of one block, in natural (row-major) order: one pass over the
  /// rows, then one over the columns (a quarter of the work of the direct sum).
  static func transform(_ block: [Double]) -> [Double] {
    var rows = [Double](repeating: 0, count: 64)
    for y in 0..<8 {
      for u in 0..<8 {
        var sum = 0.0
        for x in 0..<8 { sum += block[y * 8 + x] * cosines[x * 8 + u] }
        rows[y * 8 + u] = sum
      }
    }
    var out = [Double](repeating: 0, count: 64)
    let scale = 1 / 2.0.squareRoot()
    for v in 0..<8 {
      for u in 0..<8 {
        var sum = 0.0
        for y in 0..<8 { sum += rows[y * 8 + u] * cosines[y * 8 + v] }
        out[v * 8 + u] = 0.25 * (u == 0 ? scale : 1) * (v == 0 ? scale : 1) * sum
      }
    }
    return out
  }

  /// Quantised coefficients in zig-zag order.
  static func quantised(_ coefficients: [Double], _ table: [UInt8]) -> [Int] {
    zigzag.map { Int((coefficients[$0] / Double(table[$0])).rounded()) }
  }

  // MARK: - Entropy coding

  static func encodeAC(_ bits: inout BitWriter, _ coefficients: [Int], _ codes: [Int: Code]) {
    var zeros = 0
    for index in 1..<64 {
      let value = coefficients[index]
      if value == 0 {
        zeros += 1
        continue
      }
      while zeros >= 16 {
        bits.write(codes[0xF0, default: Code(bits: 0, length: 0)])
        zeros -= 16
      }
      encodeValue(&bits, value, codes, run: zeros)
      zeros = 0
    }
    if zeros > 0 { bits.write(codes[0x00, default: Code(bits: 0, length: 0)]) }
  }

  /// The Huffman code of (run, size) followed by the value's `size` low bits (one's complement
  /// for negative values).
  static func encodeValue(_ bits: inout BitWriter, _ value: Int, _ codes: [Int: Code], run: Int) {
    let magnitude = abs(value)
    let size = magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
    bits.write(codes[run << 4 | size, default: Code(bits: 0, length: 0)])
    if size > 0 {
      let raw = value < 0 ? value - 1 : value
      bits.write(Code(bits: raw & ((1 << size) - 1), length: size))
    }
  }

  struct Code {
    var bits: Int
    var length: Int
  }

  struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer = 0
    private var count = 0

    mutating func write(_ code: Code) {
      for shift in stride(from: code.length - 1, through: 0, by: -1) {
        buffer = buffer << 1 | (code.bits >> shift & 1)
        count += 1
        if count == 8 { emit() }
      }
    }

    private mutating func emit() {
      let byte = UInt8(buffer & 0xFF)
      bytes.append(byte)
      if byte == 0xFF { bytes.append(0) }  // byte stuffing
      buffer = 0
      count = 0
    }

    /// The bytes, the last one padded with 1-bits.
    mutating func finished() -> [UInt8] {
      while count != 0 { write(Code(bits: 1, length: 1)) }
      return bytes
    }
  }

  struct HuffmanTable {
    var bits: [UInt8]
    var values: [UInt8]

    /// Canonical codes, keyed by symbol.
    var codes: [Int: Code] {
      var result: [Int: Code] = [:]
      var code = 0
      var next = 0
      for length in 1...16 {
        for _ in 0..<Int(bits[length - 1]) {
          result[Int(values[next])] = Code(bits: code, length: length)
          code += 1
          next += 1
        }
        code <<= 1
      }
      return result
    }
  }

  // MARK: - Tables

  static func segment(_ out: inout [UInt8], _ marker: UInt8, _ body: [UInt8]) {
    let length = body.count + 2
    out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }

  /// The IJG scaling of a base table for `quality`.
  static func scaled(_ table: [Int], _ quality: Int) -> [UInt8] {
    let q = max(1, min(100, quality))
    let factor = q < 50 ? 5000 / q : 200 - 2 * q
    return table.map { UInt8(max(1, min(255, ($0 * factor + 50) / 100))) }
  }

  static let zigzag: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27,
    20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58,
    59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
  ]

  static let lumaQuantisation: [Int] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69,
    56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104,
    113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
  ]

  static let chromaQuantisation: [Int] =
    [
      17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99,
      99,
    ]
    + [47, 66, 99, 99, 99, 99, 99, 99] + [Int](repeating: 99, count: 32)

  static let dcLuma = HuffmanTable(
    bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], values: Array(0...11))

  static let dcChroma = HuffmanTable(
    bits: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], values: Array(0...11))

  static let acLuma = HuffmanTable(
    bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
    values: [
      0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61,
      0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52,
      0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25,
      0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45,
      0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64,
      0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83,
      0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
      0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6,
      0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3,
      0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8,
      0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
    ])

  static let acChroma = HuffmanTable(
    bits: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
    values: [
      0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61,
      0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33,
      0x52, 0xF0, 0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18,
      0x19, 0x1A, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44,
      0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63,
      0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A,
      0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
      0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4,
      0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA,
      0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7,
      0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
    ])
}
