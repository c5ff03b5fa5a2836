import Foundation
import Testing

/// The stages of `Sources/MapSnap`, lowest first (docs/architecture.md). A folder may use
/// types declared in folders of a strictly lower rank only: folders of equal rank stay
/// independent of each other, and nothing points upward, so there are no cycles.
let layerRanks: [String: Int] = [
    "Support": 0, "Geo": 0,
    "Raster": 1, "HTTPServer": 1,
    "Codecs": 2, "Text": 2, "VectorTile": 2,
    "Style": 3, "Tiles": 3, "Places": 3, "Compare": 3, "OSM": 3,
    "Overlays": 4, "Regions": 4, "BuildInfo": 4,
    "Options": 5, "Directions": 5,
    "Inputs": 6,
    "Render": 7,
    "Server": 8,
]

/// A dependency that points up (or sideways) in the stage order.
struct LayerViolation: Equatable, CustomStringConvertible {
    var file: String
    var fromFolder: String
    var toFolder: String
    var typeName: String
    var description: String {
        "\(file): \(fromFolder) (rank \(layerRanks[fromFolder] ?? -1)) uses \(typeName) from \(toFolder) (rank \(layerRanks[toFolder] ?? -1))"
    }
}

/// Finds upward dependencies between the top-level folders of a Swift source tree by
/// matching type names: which folder declares each top-level type, and which folders
/// mention it. Comments and string literals are ignored; a name declared (at any nesting
/// depth) in the folder itself shadows a top-level type of another folder, as Swift's
/// lookup would for nested types such as `MarkerOverlay.Style`.
///
/// This is a text check, not a compiler: it sees type names, not members added by
/// extensions. It is cheap and catches the common way a dependency creeps in.
enum LayerChecker {
    /// `files` maps a path relative to the tree (`Raster/Canvas.swift`) to its source text.
    static func violations(files: [String: String], ranks: [String: Int]) -> [LayerViolation] {
        var declaringFolders: [String: Set<String>] = [:]
        var namesByFolder: [String: Set<String>] = [:]
        var code: [String: String] = [:]
        for (path, text) in files {
            let folder = topFolder(path)
            let stripped = stripCommentsAndStrings(text)
            code[path] = stripped
            for line in stripped.split(separator: "\n", omittingEmptySubsequences: true) {
                guard let name = declaredTypeName(in: line) else { continue }
                namesByFolder[folder, default: []].insert(name)
                if line.first.map({ !$0.isWhitespace }) ?? false {
                    declaringFolders[name, default: []].insert(folder)
                }
            }
        }
        var found: [LayerViolation] = []
        for path in files.keys.sorted() {
            let folder = topFolder(path)
            guard let rank = ranks[folder] else { continue }
            let local = namesByFolder[folder] ?? []
            for name in typeNameReferences(in: code[path] ?? "").sorted() where !local.contains(name) {
                for other in (declaringFolders[name] ?? []).sorted() where other != folder {
                    if let otherRank = ranks[other], otherRank >= rank {
                        found.append(LayerViolation(file: path, fromFolder: folder, toFolder: other, typeName: name))
                    }
                }
            }
        }
        return found
    }

    /// `Raster/Geometry/Path.swift` → `Raster`; a file at the root belongs to the folder `.`.
    static func topFolder(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : "."
    }

    /// The name declared by a `struct`/`class`/`enum`/`protocol`/`typealias`/`actor` line.
    static func declaredTypeName(in line: Substring) -> String? {
        let modifiers: Set<Substring> = ["public", "internal", "private", "fileprivate", "package", "final",
                                         "indirect", "nonisolated", "open"]
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "actor"]
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let w = words.first, w.hasPrefix("@") || modifiers.contains(w) || w.hasPrefix("private(") || w.hasPrefix("public(") {
            words = words.dropFirst()
        }
        guard let kind = words.first, kinds.contains(kind), words.count > 1 else { return nil }
        let name = words[words.startIndex + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    /// Capitalised identifiers not preceded by `.` (a member access such as `.Style` or
    /// `Foo.Bar` names a nested type through its parent, which is counted on its own).
    static func typeNameReferences(in code: String) -> Set<String> {
        var names: Set<String> = []
        let chars = Array(code.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if isIdentifierStart(c) {
                let start = i
                while i < chars.count, isIdentifierPart(chars[i]) { i += 1 }
                let precededByDot = start > 0 && chars[start - 1] == "."
                if !precededByDot, ("A"..."Z").contains(c) {
                    names.insert(String(String.UnicodeScalarView(chars[start..<i])))
                }
            } else {
                i += 1
            }
        }
        return names
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    /// Blanks comments and string literals (keeping newlines, so lines stay lines).
    static func stripCommentsAndStrings(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        while i < s.count {
            if s[i] == "/", at(i + 1) == "/" {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if s[i] == "/", at(i + 1) == "*" {
                var depth = 0
                repeat {
                    if s[i] == "/", at(i + 1) == "*" { depth += 1; i += 2; continue }
                    if s[i] == "*", at(i + 1) == "/" { depth -= 1; i += 2; continue }
                    if s[i] == "\n" { out.append("\n") }
                    i += 1
                } while i < s.count && depth > 0
            } else if s[i] == "\"" {
                let triple = at(i + 1) == "\"" && at(i + 2) == "\""
                i += triple ? 3 : 1
                while i < s.count {
                    if s[i] == "\\" { i += 2; continue }
                    if triple, s[i] == "\"", at(i + 1) == "\"", at(i + 2) == "\"" { i += 3; break }
                    if !triple, s[i] == "\"" { i += 1; break }
                    if s[i] == "\n" { out.append("\n") }
                    i += 1
                }
                out.append(contentsOf: "\"\"".unicodeScalars)
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }
}

@Suite struct LayerDependencyTests {
    static let sourceRoot = TestPaths.repositoryRoot + "/Sources/MapSnap"

    static func sourceFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: sourceRoot)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files[relative] = try String(contentsOfFile: sourceRoot + "/" + relative, encoding: .utf8)
        }
        return files
    }

    @Test func sourceFoldersOnlyDependDownward() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 50)
        let violations = LayerChecker.violations(files: files, ranks: layerRanks)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func everySourceFolderHasARank() throws {
        let folders = Set(try Self.sourceFiles().keys.map(LayerChecker.topFolder))
        let unranked = folders.subtracting(layerRanks.keys).sorted()
        #expect(unranked.isEmpty, "give these folders a rank in layerRanks and docs/architecture.md: \(unranked)")
    }

    @Test func injectedUpwardDependencyIsReported() throws {
        var files = try Self.sourceFiles()
        files["Raster/Injected.swift"] = "struct Injected { var overlay: Overlay }  // uses an Overlays type\n"
        let violations = LayerChecker.violations(files: files, ranks: layerRanks)
        #expect(violations == [LayerViolation(file: "Raster/Injected.swift", fromFolder: "Raster",
                                              toFolder: "Overlays", typeName: "Overlay")])
    }

    @Test func sidewaysDependencyBetweenEqualRanksIsReported() {
        let files = ["Text/A.swift": "public struct Label {}\n",
                     "VectorTile/B.swift": "struct B { let l: Label }\n"]
        let violations = LayerChecker.violations(files: files, ranks: layerRanks)
        #expect(violations.map(\.typeName) == ["Label"])
    }

    @Test func commentsStringsMembersAndNestedNamesAreNotDependencies() {
        let files = [
            "Overlays/Overlay.swift": "public enum Overlay {}\npublic struct Marker {\n    public enum Style { case pin }\n    var style: Style\n}\n",
            "Style/Style.swift": "public struct Style {}\n",
            "Raster/Canvas.swift": """
                // An Overlay is drawn later.
                /* nested /* Overlay */ comment */
                let s = "Overlay \\(1)"
                let t = \"\"\"
                Overlay
                \"\"\"
                let m = Something.Overlay
                struct Canvas {
                    enum Overlay { case none }  // a nested name shadows Overlays' type
                    var overlay: Overlay
                }
                """,
        ]
        #expect(LayerChecker.violations(files: files, ranks: layerRanks).isEmpty)
    }
}
