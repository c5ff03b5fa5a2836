import Testing
@testable import MapSnap

/// `EditDistance` (the one Levenshtein) and `Suggestion` ("did you mean").
@Suite struct SuggestionTests {
    @Test(arguments: [
        ("", "abc", 3), ("abc", "abc", 0), ("kitten", "sitting", 3), ("normall", "normal", 1),
        ("roadmpa", "roadmap", 2), ("Zürich", "Zurich", 1), ("flaw", "lawn", 2),
    ])
    func distances(a: String, b: String, expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
        #expect(EditDistance.between(b, a) == expected)
    }

    /// Past the limit the answer is `limit + 1`, found without filling the whole table.
    @Test func givesUpPastTheLimit() {
        #expect(EditDistance.between("kitten", "sitting", limit: 2) == 3)
        #expect(EditDistance.between(String(repeating: "x", count: 100_000), "get", limit: 2) == 3)
        var reused = EditDistance()
        #expect(reused([1, 2, 3], [1, 2, 4], limit: 2) == 1)
        #expect(reused([1, 2], [1, 2, 3, 4, 5], limit: 2) == 3)
        #expect(reused([5, 6, 7], [5, 6, 7], limit: 0) == 0)
    }

    @Test func closestNamesFirstAndNothingFarAway() {
        #expect(Suggestion.closest(to: "normall", among: BundledStyle.acceptedNames) == ["normal"])
        #expect(Suggestion.closest(to: "NORMAL", among: BundledStyle.acceptedNames) == ["normal"])
        #expect(Suggestion.closest(to: "blueprint", among: BundledStyle.acceptedNames).isEmpty)
        // Short names allow one edit only: "ab" is not "a typo of" everything two letters long.
        #expect(Suggestion.closest(to: "ab", among: ["xy", "ac"]) == ["ac"])
        #expect(Suggestion.closest(to: "liberti", among: ["liberty", "positron", "bright"], limit: 3) == ["liberty"])
        #expect(Suggestion.hint(for: "hybird", among: BundledStyle.acceptedNames) == #" (did you mean "hybrid"?)"#)
        #expect(Suggestion.hint(for: "zzz", among: BundledStyle.acceptedNames) == "")
    }

    @Test func googleMapTypesResolveToBundledStyles() {
        #expect(BundledStyle.resolve("roadmap") == "normal")
        #expect(BundledStyle.resolve("Satellite") == "satellite")
        #expect(BundledStyle.resolve("terrain") == "terrain")
        #expect(BundledStyle.resolve("hybrid") == "hybrid")
        #expect(BundledStyle.resolve("normal") == "normal")
        #expect(BundledStyle.resolve("style.json") == nil)
        #expect(StaticMapsSyntax.styleName(forMapType: "ROADMAP") == "normal")
        #expect(StaticMapsSyntax.styleName(forMapType: "normal") == nil, "maptype= takes Google's names only")
    }
}
