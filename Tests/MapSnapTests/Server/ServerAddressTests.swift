import Foundation
import Testing
@testable import MapSnap

/// Addresses and named places in Static Maps requests: the server resolves them as
/// `mapsnap render --url` does (bundled Helsinki index, then GeoNames).
@Suite struct ServerAddressTests {
    @Test func addressMarkerRendersLikeItsCoordinate() throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = "/maps/api/staticmap?size=160x120&zoom=17&markers=color:red%7C"
        // pyosmium: node 319515045, Aleksanterinkatu 52, is at 60.1686722,24.9419347.
        let byAddress = try server.get(base + "Aleksanterinkatu%2052%2C%20Helsinki")
        let byCoordinate = try server.get(base + "60.1686722,24.9419347")
        #expect(byAddress.status == 200 && byCoordinate.status == 200)
        #expect(byAddress.body == byCoordinate.body)
        let typo = try server.get(base + "Aleksanterinktu%2052%2C%20Helsinki")
        #expect(typo.status == 400)
        #expect(typo.text.contains("did you mean \"Aleksanterinkatu 52, Helsinki\""), "\(typo.text)")
    }
}
