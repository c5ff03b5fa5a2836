// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mapsnap",
    products: [
        .library(name: "MapSnap", targets: ["MapSnap"]),
        .library(name: "MapSnapTesting", targets: ["MapSnapTesting"]),
        .executable(name: "mapsnap", targets: ["mapsnap"]),
    ],
    targets: [
        // Thin system-library shims: each is imported by exactly one adapter file in MapSnap.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CIsal", path: "Sources/CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // HarfBuzz is opened on first shaping (dlopen, see its shim.h): headers only, no link flags.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBiDi", path: "Sources/CFriBiDi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .target(
            name: "MapSnap",
            dependencies: ["CPNG", "CFreeType", "CZlib", "CSQLite", "CDeflate", "CIsal", "CTurboJPEG", "CExpat", "CCurl", "CWebP", "CMicroHTTPD", "CHarfBuzz", "CFriBiDi"],
            path: "Sources/MapSnap"
        ),
        .target(name: "MapSnapTesting", dependencies: ["MapSnap"], path: "Sources/MapSnapTesting"),
        .executableTarget(name: "mapsnap", dependencies: ["MapSnap"], path: "Sources/mapsnap"),
        .testTarget(
            name: "MapSnapTests",
            dependencies: ["MapSnap", "MapSnapTesting", "mapsnap"],
            path: "Tests/MapSnapTests",
            exclude: ["Goldens", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
