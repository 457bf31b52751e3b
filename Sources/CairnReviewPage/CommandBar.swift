/// The bar that holds the command the ticked boxes build: a direct child of the body, so it
/// stays at the top of the window however far the person scrolls, with a button that copies
/// the command (the clipboard API where the browser allows it from a file, else the text is
/// selected for Ctrl+C).
enum CommandBar {
  static func html(_ input: ReviewInput) -> String {
    var out = "<div class=\"command\" id=\"bar\"><p>Your selection: "
    out += "<span id=\"selection\">none</span>. Run it in place of <code>cairn-gate</code>: "
    out += "<code>… | cairn-reconcile | <em>this command</em> | cairn-trash</code>. "
    out += "<strong>Excluding is for good</strong>: an excluded photo is never trashed by this "
    out += "or any later run, until <code>cairn-observe include</code> lifts it.</p>\n"
    if input.overThreshold {
      // The override is a person's explicit act: a box, never ticked for them.
      out += "<p><label><input type=\"checkbox\" id=\"override\"> Let this plan, with your "
      out += "selection, through the threshold rail (<code>--override-threshold</code>)</label>"
      out += "</p>\n"
    }
    // Without the script nothing builds the command and the later tiles stay in their
    // templates (`LaterTiles`): the bar says so rather than showing boxes that do nothing.
    out += "<noscript><p class=\"later\">Scripts are off for this page: ticking a box does not "
    out += "change the command, and photos past the first \(LaterTiles.live) stay hidden (each "
    out += "group says how many). The page's one script talks to nothing; allow it to review "
    out += "here.</p></noscript>\n"
    out += "<pre id=\"command\">cairn-gate --plan \(HTMLText.escape(input.streamDigest))</pre>"
    out += "<p><button type=\"button\" id=\"copy\">Copy the command</button>"
    out += "<span id=\"copied\" role=\"status\"></span></p>\n</div>\n"
    return out
  }
}
