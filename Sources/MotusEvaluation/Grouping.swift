/// `items` grouped by `key`, the groups in the order their first member comes and each group's
/// members in the order they come; items whose key is nil are left out. How every report of
/// this module lists its groups (step groups, paired devices, fusion activities), so that a
/// table's rows follow the data set's own order.
func groupedInFirstOrder<T, K: Hashable>(_ items: [T], by key: (T) -> K?) -> [(key: K, members: [T])] {
    var order: [K] = []
    var members: [K: [T]] = [:]
    for x in items {
        guard let k = key(x) else { continue }
        if members[k] == nil { order.append(k) }
        members[k, default: []].append(x)
    }
    return order.map { ($0, members[$0]!) }
}
