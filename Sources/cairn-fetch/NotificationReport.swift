import CairnSettings

/// `cairn-fetch check`'s word on where cairn-nightly's notifications go, so a person sees it
/// before a run sends anything: a public service (`PublicNotifiers`) is a warning, and so is
/// the review page going with the notifications. Only the host is named: the URL may hold a
/// token.
enum NotificationReport {
  static func lines(_ configuration: Configuration) -> [(Checker.Mark, String)] {
    guard let url = configuration.string("CAIRN_NOTIFY_URL") else { return [] }
    let origin = configuration.origin(of: "CAIRN_NOTIFY_URL") ?? "?"
    let attach = (try? SettingsTable.notifyAttachReviewPage.value(in: configuration)) ?? false
    let page =
      attach
      ? "CAIRN_NOTIFY_ATTACH_REVIEW_PAGE=on sends ntfy the review page, with the photos' "
        + "thumbnails, names and folders"
      : "they carry counts and commands, no photo, name or path"
    guard let host = PublicNotifiers.publicHost(of: url) else {
      let named = PublicNotifiers.host(of: url) ?? "an address without a host"
      return [(attach ? .warn : .note, "notifications go to \(named) (from \(origin)): \(page)")]
    }
    return [
      (
        .warn,
        "notifications go to \(host), a public service: anyone who knows the address can read "
          + "what is sent there (from \(origin)); \(page)"
      )
    ]
  }
}

extension Checker {
  /// Prints where notifications go, after the settings.
  func reportNotifications(_ tally: Tally) {
    for (mark, text) in NotificationReport.lines(configuration) { line(mark, text, tally) }
  }
}
