/// Validates a 3.2 `filter` the way its zod schema does and builds the `SearchFilter`: the
/// filter and its `or` branches are strict objects (an unknown key is `unrecognized_keys`),
/// each leaf is a `nonEmptyPartial` of its operators, and every value is type-checked.
struct SearchFilterReader {
  private(set) var issues: [ValidationIssue] = []

  /// The operators each kind of leaf takes, in zod's order (the order of its message).
  static func operators(_ kind: FilterField.Kind) -> [String] {
    switch kind {
    case .bool: return ["eq"]
    case .date, .dateNullable: return ["eq", "ne", "gt", "gte", "lt", "lte"]
    case .number, .numberNullable: return ["eq", "ne", "lt", "lte", "gt", "gte", "in", "notIn"]
    case .id, .idNullable: return ["eq", "ne"]
    case .ids: return ["any", "all", "none"]
    case .string, .stringNullable, .assetType, .visibility: return ["eq", "ne", "in", "notIn"]
    case .pattern:
      return ["eq", "ne", "in", "notIn", "like", "notLike", "startsWith", "endsWith"]
    case .similarity: return ["matches"]
    }
  }

  mutating func read(_ value: ImmichJSON?, path: [ImmichJSON]) -> SearchFilter {
    guard let value else { return SearchFilter() }
    guard case .object(let pairs) = value else {
      typeMismatch(path, expected: "object", got: value)
      return SearchFilter()
    }
    var filter = SearchFilter()
    filter.leaves = leaves(pairs, path: path, allowOr: true)
    if let or = value["or"] {
      guard let branches = or.arrayValue else {
        typeMismatch(path + [.string("or")], expected: "array", got: or)
        return filter
      }
      if branches.isEmpty {
        fail(
          path + [.string("or")], "too_small", "Too small: expected array to have >=1 items",
          [("origin", "array"), ("minimum", 1), ("inclusive", true)])
      }
      for (i, branch) in branches.enumerated() {
        let at = path + [.string("or"), .number(Double(i))]
        guard case .object(let branchPairs) = branch else {
          typeMismatch(at, expected: "object", got: branch)
          continue
        }
        filter.branches.append(leaves(branchPairs, path: at, allowOr: false))
      }
    }
    return filter
  }

  private mutating func leaves(
    _ pairs: [(String, ImmichJSON)], path: [ImmichJSON], allowOr: Bool
  ) -> [FilterLeaf] {
    let unknown = pairs.map(\.0).filter {
      FilterField.kinds[$0] == nil && !(allowOr && $0 == "or")
    }
    if !unknown.isEmpty {
      let quoted = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
      fail(
        path, "unrecognized_keys",
        "Unrecognized key\(unknown.count == 1 ? "" : "s"): \(quoted)",
        [("keys", .array(unknown.map(ImmichJSON.string)))])
    }
    var out: [FilterLeaf] = []
    for (field, value) in pairs {
      guard let kind = FilterField.kinds[field] else { continue }
      if let leaf = leaf(field, kind, value, path: path + [.string(field)]) { out.append(leaf) }
    }
    return out
  }

  private mutating func leaf(
    _ field: String, _ kind: FilterField.Kind, _ value: ImmichJSON, path: [ImmichJSON]
  ) -> FilterLeaf? {
    guard case .object = value else {
      typeMismatch(path, expected: "object", got: value)
      return nil
    }
    let ops = Self.operators(kind)
    var conditions: [(op: String, value: ImmichJSON)] = []
    for op in ops {
      guard let operand = value[op] else { continue }
      if check(operand, op: op, kind: kind, path: path + [.string(op)]) {
        conditions.append((op, operand))
      }
    }
    let present = ops.filter { value[$0] != nil }
    if present.isEmpty {
      if kind == .bool || kind == .similarity {
        typeMismatch(
          path + [.string(ops[0])], expected: kind == .bool ? "boolean" : "string", got: nil)
      } else {
        fail(
          path, "custom",
          "At least one of the following fields is required: \(ops.joined(separator: ", "))")
      }
      return nil
    }
    return FilterLeaf(field: field, conditions: conditions)
  }

  /// Type-checks one operand; true when it is usable.
  private mutating func check(
    _ operand: ImmichJSON, op: String, kind: FilterField.Kind, path: [ImmichJSON]
  ) -> Bool {
    if op == "in" || op == "notIn" || kind == .ids {
      guard let items = operand.arrayValue else {
        typeMismatch(path, expected: "array", got: operand)
        return false
      }
      if items.isEmpty {
        fail(
          path, "too_small", "Too small: expected array to have >=1 items",
          [("origin", "array"), ("minimum", 1), ("inclusive", true)])
        return false
      }
      var ok = true
      for (i, item) in items.enumerated() {
        ok = scalar(item, kind: kind, nullable: false, path: path + [.number(Double(i))]) && ok
      }
      return ok
    }
    let nullable =
      (op == "eq" || op == "ne")
      && [.dateNullable, .numberNullable, .idNullable, .stringNullable, .pattern].contains(kind)
    if ["like", "notLike", "startsWith", "endsWith", "matches"].contains(op),
      operand.stringValue == ""
    {
      fail(
        path, "too_small", "Too small: expected string to have >=1 characters",
        [("origin", "string"), ("minimum", 1), ("inclusive", true)])
      return false
    }
    return scalar(operand, kind: kind, nullable: nullable, path: path)
  }

  private mutating func scalar(
    _ value: ImmichJSON, kind: FilterField.Kind, nullable: Bool, path: [ImmichJSON]
  ) -> Bool {
    if value == .null {
      if nullable { return true }
      typeMismatch(path, expected: expectedType(kind), got: value)
      return false
    }
    switch kind {
    case .bool:
      guard value.boolValue != nil else { return mismatch(path, kind, value) }
    case .number, .numberNullable:
      guard case .number = value else { return mismatch(path, kind, value) }
    case .date, .dateNullable:
      guard let text = value.stringValue else { return mismatch(path, kind, value) }
      guard Timestamps.parseWithOffset(text) != nil else {
        fail(path, "invalid_format", "Invalid ISO datetime", [("format", "datetime")])
        return false
      }
    case .id, .idNullable, .ids:
      guard let text = value.stringValue else { return mismatch(path, kind, value) }
      guard Identifiers.isUUIDv4(text) else {
        fail(path, "invalid_format", "Invalid UUID", [("format", "uuid")])
        return false
      }
    case .assetType, .visibility:
      let options =
        kind == .assetType
        ? AssetType.allCases.map(\.rawValue) : AssetVisibility.allCases.map(\.rawValue)
      guard let text = value.stringValue, options.contains(text) else {
        let list = options.map { "\"\($0)\"" }.joined(separator: "|")
        fail(
          path, "invalid_value", "Invalid option: expected one of \(list)",
          [("values", .array(options.map(ImmichJSON.string)))])
        return false
      }
    case .string, .stringNullable, .pattern, .similarity:
      guard value.stringValue != nil else { return mismatch(path, kind, value) }
    }
    return true
  }

  private func expectedType(_ kind: FilterField.Kind) -> String {
    switch kind {
    case .bool: return "boolean"
    case .number, .numberNullable: return "number"
    default: return "string"
    }
  }

  private mutating func mismatch(
    _ path: [ImmichJSON], _ kind: FilterField.Kind, _ got: ImmichJSON
  ) -> Bool {
    typeMismatch(path, expected: expectedType(kind), got: got)
    return false
  }

  private mutating func typeMismatch(_ path: [ImmichJSON], expected: String, got: ImmichJSON?) {
    fail(
      path, "invalid_type",
      "Invalid input: expected \(expected), received \(got?.typeName ?? "undefined")",
      [("expected", .string(expected))])
  }

  private mutating func fail(
    _ path: [ImmichJSON], _ code: String, _ message: String, _ extra: [(String, ImmichJSON)] = []
  ) {
    issues.append(ValidationIssue(code: code, path: path, message: message, extra: extra))
  }
}
