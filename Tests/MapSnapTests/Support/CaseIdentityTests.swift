import Testing
@testable import MapSnap

/// `CaseIdentified`: case numbers are the declaration order, distinct, and equality and
/// hashing agree with the raw strings they replace.
struct CaseIdentityTests {
    @Test func stylePropertiesAreNumberedInDeclarationOrder() {
        #expect(MemoryLayout<StyleProperty>.size == 1)
        #expect(StyleProperty.allCases.map(\.caseNumber) == (0..<StyleProperty.allCases.count).map { UInt8($0) })
    }

    @Test func equalityAndHashingFollowTheCase() {
        for a in StyleProperty.allCases {
            for b in StyleProperty.allCases {
                #expect((a == b) == (a.rawValue == b.rawValue))
            }
        }
        let table = Dictionary(uniqueKeysWithValues: StyleProperty.allCases.map { ($0, $0.rawValue) })
        #expect(StyleProperty.allCases.allSatisfy { table[$0] == $0.rawValue })
        let types: Set<GeometryType> = [.point, .polygon]
        #expect(types.contains(.point) && types.contains(.polygon) && !types.contains(.lineString))
        #expect([GeometryType.point, .lineString, .polygon].map(\.caseNumber) == [0, 1, 2])
    }
}
