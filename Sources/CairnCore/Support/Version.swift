/// The version every tool reports with `--version` and writes into stream headers.
public enum CairnVersion {
  public static let current = "0.1.0"
}
