import CairnImmich

extension Checker {
  /// Says how many of the user's assets belong to an external library, and why cairn leaves
  /// them alone: Immich's checksum of such an asset hashes its path, not its bytes, so no local
  /// file matches it, and Immich's own library scan trashes it when its file goes.
  func noteExternalLibraries(_ client: ImmichClient, _ tally: Tally) async {
    var external = 0
    do {
      for visibility in AssetVisibility.listed {
        var all = MetadataQuery(visibility: visibility, withDeleted: true)
        external += try await client.searchStatistics(all)
        all.uploadedOnly = true
        external -= try await client.searchStatistics(all)
      }
    } catch {
      line(.warn, "cannot count external-library assets: \(error.message)", tally)
      return
    }
    guard external > 0 else { return }
    line(
      .note,
      "\(external) asset(s) of external libraries: cairn leaves them alone (their checksum hashes"
        + " a path, not the bytes, and Immich's library scan removes them when their files go)",
      tally)
  }
}
