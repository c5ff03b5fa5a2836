// swift-tools-version:6.0
// A sample user package: a library that renders maps with MapSnap, and snapshot tests
// that pin them with MapSnapTesting. Run with `swift test --package-path examples/SnapshotTestingDemo`.
import PackageDescription

let package = Package(
    name: "SnapshotTestingDemo",
    products: [
        .library(name: "DeliveryMaps", targets: ["DeliveryMaps"]),
    ],
    dependencies: [
        // In your own package: .package(url: "https://…/mapsnap.git", from: "…")
        .package(name: "mapsnap", path: "../.."),
    ],
    targets: [
        .target(name: "DeliveryMaps", dependencies: [.product(name: "MapSnap", package: "mapsnap")]),
        .testTarget(
            name: "DeliveryMapsTests",
            dependencies: ["DeliveryMaps", .product(name: "MapSnapTesting", package: "mapsnap")],
            // Goldens are data, not sources: keep them out of the target.
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
