import Foundation

/// The pixels of an asset's image, which the double's thumbnails are made from: the original's
/// own pixels when a scenario supplies them (the demo's sample library does), else a small
/// gradient drawn from the asset's checksum, so every image asset has a picture of its own.
package struct AssetImage: Codable, Sendable, Hashable {
  package var width: Int
  package var height: Int
  /// Three bytes per pixel (red, green, blue), rows top to bottom.
  package var rgb: [UInt8]

  package init(width: Int, height: Int, rgb: [UInt8]) {
    self.width = width
    self.height = height
    self.rgb = rgb
  }

  enum CodingKeys: String, CodingKey { case width, height, rgb }

  /// In scenario files `rgb` is base64.
  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    width = try c.decode(Int.self, forKey: .width)
    height = try c.decode(Int.self, forKey: .height)
    let text = try c.decode(String.self, forKey: .rgb)
    guard let data = Data(base64Encoded: text), width > 0, height > 0,
      width <= 8192, height <= 8192, data.count == width * height * 3
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .rgb, in: c, debugDescription: "rgb must be base64 of width × height × 3 bytes")
    }
    rgb = Array(data)
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(width, forKey: .width)
    try c.encode(height, forKey: .height)
    try c.encode(Data(rgb).base64EncodedString(), forKey: .rgb)
  }

  /// A 48×36 gradient whose colours come from `seed` (an asset's checksum bytes).
  package static func drawn(from seed: [UInt8]) -> AssetImage {
    let (width, height) = (48, 36)
    let a = Int(seed.first ?? 0)
    let b = Int(seed.dropFirst().first ?? 0)
    let c = Int(seed.dropFirst(2).first ?? 0)
    var rgb: [UInt8] = []
    rgb.reserveCapacity(width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        rgb += [UInt8((a + x * 5) % 256), UInt8((b + y * 7) % 256), UInt8((c + (x ^ y) * 3) % 256)]
      }
    }
    return AssetImage(width: width, height: height, rgb: rgb)
  }

  /// The image scaled down (nearest pixel) to fit `longest` pixels, as Immich's thumbnail
  /// (250) and preview (1440) sizes do; a smaller image is kept as it is.
  func fitting(_ longest: Int) -> AssetImage {
    let side = max(width, height)
    guard side > longest else { return self }
    let newWidth = max(1, width * longest / side)
    let newHeight = max(1, height * longest / side)
    var out: [UInt8] = []
    out.reserveCapacity(newWidth * newHeight * 3)
    for y in 0..<newHeight {
      for x in 0..<newWidth {
        let at = ((y * height / newHeight) * width + x * width / newWidth) * 3
        out += rgb[at..<at + 3]
      }
    }
    return AssetImage(width: newWidth, height: newHeight, rgb: out)
  }

  /// JPEG bytes of the image fitted to `longest`, as the thumbnail route serves them.
  package func jpeg(fitting longest: Int = 250) -> [UInt8] {
    let image = fitting(longest)
    return JPEGEncoder.encode(width: image.width, height: image.height, rgb: image.rgb)
  }
}
