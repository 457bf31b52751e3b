/// How the page opens quickly at thousands of tiles: only its first screens of tiles are live
/// markup; each group's later tiles wait in inert `<template>` elements, which the browser
/// parses but neither styles nor lays out. The page's script puts them in place a few at a time
/// right after the first frame, and all at once before anything reads or writes the boxes
/// (`ReviewScript`). At 5,000 tiles laying out every tile before the first frame took 6 s;
/// parsing them into templates costs a fraction of that (docs/BENCHMARKS.md).
package enum LaterTiles {
  /// Tiles drawn at once, in page order across every section and group: about four screens of
  /// a 1280-pixel window (five tiles to a row), more than any first frame shows.
  package static let live = 48

  /// Tiles one template holds: the script unfolds one template per step, and 50 tiles are about
  /// 50 ms of layout on the slow machine the benchmark runs on, short enough to scroll through.
  package static let perTemplate = 50

  /// One group's tiles (each already HTML, in page order): the first `budget` live, the rest in
  /// templates of `perTemplate`, with a note for a browser that runs no script saying how many
  /// it does not show. `budget` is what the groups before left of `live`.
  static func html(_ tiles: [String], budget: inout Int) -> String {
    let shown = min(budget, tiles.count)
    budget -= shown
    var out = tiles[..<shown].joined()
    let later = tiles[shown...]
    guard !later.isEmpty else { return out }
    for start in stride(from: later.startIndex, to: later.endIndex, by: perTemplate) {
      let end = min(start + perTemplate, later.endIndex)
      out += "<template class=\"later\">\n" + later[start..<end].joined() + "</template>\n"
    }
    out += "<noscript><p class=\"later\">\(later.count) more in this group, shown only when the "
    out += "page's script runs.</p></noscript>\n"
    return out
  }
}
