/// The version every tool reports with `--version` and writes into stream headers.
package enum CairnVersion {
  package static let current = "0.1.0"
}
