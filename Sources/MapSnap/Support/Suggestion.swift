/// "Did you mean" for a name that is not one of a known set (a style, a base map, a command):
/// the known names spelt most like it, for the one-line error that refuses it.
package enum Suggestion {
    /// Known names within `maxDistance` edits of `name` (case ignored), closest first, ties in
    /// the order `candidates` gives them; at most `limit`. A name shorter than the distance
    /// would match nearly anything, so the distance allowed is at most a third of its length
    /// (at least 1).
    package static func closest(to name: String, among candidates: [String], maxDistance: Int = 2, limit: Int = 1) -> [String] {
        let key = name.lowercased().unicodeScalars.map(\.value)
        let allowed = max(1, min(maxDistance, key.count / 3))
        var distance = EditDistance()
        var scored: [(distance: Int, order: Int, name: String)] = []
        for (order, candidate) in candidates.enumerated() {
            let d = distance(key, candidate.lowercased().unicodeScalars.map(\.value), limit: allowed)
            if d <= allowed, !scored.contains(where: { $0.name == candidate }) { scored.append((d, order, candidate)) }
        }
        scored.sort { ($0.distance, $0.order) < ($1.distance, $1.order) }
        return scored.prefix(max(0, limit)).map(\.name)
    }

    /// ` (did you mean "normal"?)` for the closest known name, or "" when none is close: the
    /// tail of an error message that refuses `name`. `quote` is put around the name: the CLI
    /// quotes commands and region names with `'` and leaves options (`--marker`) bare.
    package static func hint(for name: String, among candidates: [String], maxDistance: Int = 2,
                             quote: String = "\"") -> String {
        guard let best = closest(to: name, among: candidates, maxDistance: maxDistance).first else { return "" }
        return " (did you mean \(quote)\(best)\(quote)?)"
    }
}
