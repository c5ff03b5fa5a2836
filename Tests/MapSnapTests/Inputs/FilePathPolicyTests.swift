import Foundation
import Testing
@testable import MapSnap

/// Where a path in a spec may point (issue #10: spec-relative paths could leave the spec's
/// folder; a server must accept no file paths at all).
@Suite struct FilePathPolicyTests {
    /// A folder with a file, a subfolder and a symbolic link pointing out of it.
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "mapsnap-paths-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/route.gpx", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: dir + "/out", withDestinationPath: "/tmp")
        return dir
    }

    @Test(arguments: ["route.gpx", "sub/../route.gpx", "./sub/new.png", "sub/deeper/new.png"])
    func insideIsAllowed(_ path: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try FilePathPolicy.insideBaseDirectory.resolve(path, against: dir) == dir + "/" + path)
    }

    @Test(arguments: [
        ("/etc/passwd", "absolute paths are not allowed"), ("../x.gpx", "leads outside"),
        ("sub/../../x.gpx", "leads outside"), ("out/passwd", "through a symbolic link"),
        ("out/new/file.png", "through a symbolic link"),
    ])
    func outsideIsRefused(_ path: String, _ reason: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect {
            try FilePathPolicy.insideBaseDirectory.resolve(path, against: dir)
        } throws: { error in
            (error as? FilePathPolicy.Refusal)?.reason.contains(reason) == true
        }
    }

    @Test func refusedAndUnrestricted() throws {
        #expect(throws: FilePathPolicy.Refusal(reason: "file paths are not allowed here")) {
            try FilePathPolicy.refused.resolve("route.gpx", against: "/data")
        }
        #expect(try FilePathPolicy.unrestricted.resolve("../x.gpx", against: "/data") == "/data/../x.gpx")
        #expect(try FilePathPolicy.unrestricted.resolve("/etc/x", against: "/data") == "/etc/x")
    }

    /// Every key of a spec that names a file is refused under `.refused`; inline data, URL
    /// templates and bundled style names still work.
    @Test(arguments: [
        (#""geojson": "areas.geojson""#, "geojson"), (#""gpx": "ride.gpx""#, "gpx"),
        (#""style": "my-style.json""#, "style"), (#""source": "tiles.mbtiles""#, "source"),
        (#""source": "file:///etc/tiles""#, "source"), (#""dem": "dem/""#, "dem"),
        (#""output": "map.png""#, "output"),
        (#""markers": [{"lat": 60.17, "lon": 24.94, "icon": "pin.png"}]"#, "markers[0].icon"),
        (#""markers": ["icon:pin.png|60.17,24.94"]"#, "markers[0]"),
        (#""url": "staticmap?markers=icon:/etc/pin.png|60.17,24.94""#, "url"),
    ])
    func serverSpecsNameNoFiles(_ entry: String, _ key: String) {
        let json = #"{"center": "60.17,24.94", "zoom": 12, "#.appending(entry) + "}"
        #expect {
            try RenderSpec.parse(data: Data(json.utf8), source: "request", baseDirectory: nil, filePaths: .refused)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("request: \(key)") && text.contains("file paths are not allowed here")
        }
    }

    @Test func serverSpecsKeepInlineDataAndURLs() throws {
        let json = #"""
        {"center": "60.17,24.94", "zoom": 12, "style": "terrain", "source": "https://tiles.example.org/{z}/{x}/{y}.pbf",
         "geojson": {"type": "Point", "coordinates": [24.94, 60.17]}, "markers": ["label:A|60.17,24.94"]}
        """#
        let spec = try RenderSpec.parse(data: Data(json.utf8), source: "request", filePaths: .refused)
        #expect(spec.options.style == "terrain")
        #expect(spec.options.source == "https://tiles.example.org/{z}/{x}/{y}.pbf")
        #expect(spec.options.overlays.count == 2)
    }

    /// A spec confined to its folder reads the files beside it and nothing above.
    @Test func confinedSpecFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(#"{"gpx": "../route.gpx"}"#.utf8).write(to: URL(fileURLWithPath: dir + "/sub/spec.json"))
        #expect {
            try RenderSpec.load(path: dir + "/sub/spec.json", filePaths: .insideBaseDirectory)
        } throws: { error in
            "\(error)".contains("\"../route.gpx\": leads outside \(dir)/sub")
        }
        // The same spec without confinement gets past the path (and fails on the empty GPX).
        #expect {
            try RenderSpec.load(path: dir + "/sub/spec.json")
        } throws: { error in
            !"\(error)".contains("leads outside")
        }
    }
}
