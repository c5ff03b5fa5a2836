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
/// This is a text check, not a compiler. Besides type names it sees the two ways a
/// dependency hides from them: a member that a folder adds to another folder's type in an
/// `extension` (`extension Canvas { func drawPin() }` in Overlays, called as `.drawPin` in
/// Raster), and a free function (`renderHelper()`). Those are matched by name, so only
/// names declared in exactly one folder count (a `width` or `draw` declared in several is
/// ambiguous without a compiler and is left out). It is cheap and catches the common ways a
/// dependency creeps in.
enum LayerChecker {
    /// `files` maps a path relative to the tree (`Raster/Canvas.swift`) to its source text.
    static func violations(files: [String: String], ranks: [String: Int]) -> [LayerViolation] {
        dependencies(files: files).filter { d in
            guard let rank = ranks[d.fromFolder], let otherRank = ranks[d.toFolder] else { return false }
            return otherRank >= rank
        }
    }

    /// Every use of another folder's declaration: its types, its extension members and its
    /// free functions (see the type's comment), one entry per file and name.
    static func dependencies(files: [String: String]) -> [LayerViolation] {
        var declaringFolders: [String: Set<String>] = [:]
        var namesByFolder: [String: Set<String>] = [:]
        // Member-like names (func, var, let, case) declared anywhere, by folder; and those a
        // folder declares as free functions or extension members.
        var memberFolders: [String: Set<String>] = [:]
        var addedNames: [String: String] = [:]  // name → folder (unique names only, below)
        var added: [(name: String, folder: String)] = []
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
            for d in memberDeclarations(in: stripped) {
                memberFolders[d.name, default: []].insert(folder)
                if d.isAdded { added.append((d.name, folder)) }
            }
        }
        for a in added where memberFolders[a.name] == [a.folder] { addedNames[a.name] = a.folder }
        var found: [LayerViolation] = []
        for path in files.keys.sorted() {
            let folder = topFolder(path)
            let local = namesByFolder[folder] ?? []
            let text = code[path] ?? ""
            for name in typeNameReferences(in: text).sorted() where !local.contains(name) {
                for other in (declaringFolders[name] ?? []).sorted() where other != folder {
                    found.append(LayerViolation(file: path, fromFolder: folder, toFolder: other, typeName: name))
                }
            }
            for name in memberReferences(in: text).sorted() {
                guard let other = addedNames[name], other != folder else { continue }
                found.append(LayerViolation(file: path, fromFolder: folder, toFolder: other, typeName: name))
            }
        }
        return found
    }

    /// The folders each folder uses (see `dependencies`), for docs/architecture.md's "uses".
    static func uses(files: [String: String]) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for d in dependencies(files: files) { result[d.fromFolder, default: []].insert(d.toFolder) }
        return result
    }

    /// `func`/`var`/`let`/`case` names declared in `code` (comments and strings blanked),
    /// each marked `isAdded` when it is a free function (a `func` at the top level) or a
    /// member of an `extension` (directly inside its braces).
    static func memberDeclarations(in code: String) -> [(name: String, isAdded: Bool)] {
        let modifiers: Set<Substring> = ["public", "internal", "private", "fileprivate", "package", "final", "static",
                                         "class", "mutating", "nonmutating", "override", "nonisolated", "lazy",
                                         "weak", "unowned", "dynamic", "convenience", "required", "indirect", "consuming",
                                         "borrowing", "open"]
        var found: [(String, Bool)] = []
        var depth = 0
        var extensionDepths: [Int] = []  // brace depth inside each open extension
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let w = words.first, w.hasPrefix("@") || modifiers.contains(w) || w.hasPrefix("private(")
                    || w.hasPrefix("public(") || w.hasPrefix("package(") || w.hasPrefix("internal(") {
                words = words.dropFirst()
            }
            if let kind = words.first, ["func", "var", "let", "case"].contains(kind), words.count > 1 {
                let name = words[words.startIndex + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty, name != "_" {
                    let isAdded = kind == "func" && depth == 0 || (extensionDepths.last == depth - 1 && kind != "case")
                    found.append((String(name), isAdded))
                }
            }
            let startsExtension = words.first == "extension"
            for c in line {
                if c == "{" {
                    if startsExtension, !extensionDepths.contains(depth), depth == 0 { extensionDepths.append(depth) }
                    depth += 1
                } else if c == "}" {
                    depth -= 1
                    if extensionDepths.last == depth { extensionDepths.removeLast() }
                }
            }
        }
        return found
    }

    /// Names used as members (`.name`) or called (`name(`): candidates for `dependencies`.
    static func memberReferences(in code: String) -> Set<String> {
        var names: Set<String> = []
        let chars = Array(code.unicodeScalars)
        var i = 0
        while i < chars.count {
            if isIdentifierStart(chars[i]) {
                let start = i
                while i < chars.count, isIdentifierPart(chars[i]) { i += 1 }
                let afterDot = start > 0 && chars[start - 1] == "."
                let called = i < chars.count && chars[i] == "("
                if afterDot || called { names.insert(String(String.UnicodeScalarView(chars[start..<i]))) }
            } else {
                i += 1
            }
        }
        return names
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

    @Test func anExtensionMemberFromAboveIsReported() {
        let files = ["Raster/Canvas.swift": "final class Canvas {}\n",
                     "Overlays/Canvas+Pin.swift": "extension Canvas {\n    func drawPinShape(at x: Int) {}\n}\n",
                     "Raster/Use.swift": "func paint(_ c: Canvas) {\n    c.drawPinShape(at: 1)\n}\n"]
        let violations = LayerChecker.violations(files: files, ranks: layerRanks)
        #expect(violations == [LayerViolation(file: "Raster/Use.swift", fromFolder: "Raster", toFolder: "Overlays",
                                              typeName: "drawPinShape")])
    }

    @Test func aFreeFunctionFromAboveIsReported() {
        let files = ["Render/Helpers.swift": "func renderOnlyHelper() -> Int { 1 }\n",
                     "Geo/Use.swift": "enum G {\n    static let x = renderOnlyHelper()\n}\n"]
        let violations = LayerChecker.violations(files: files, ranks: layerRanks)
        #expect(violations.map(\.typeName) == ["renderOnlyHelper"])
    }

    @Test func aNameDeclaredInSeveralFoldersIsNoDependency() {
        // `draw` is an extension member in Overlays but also a method in Raster: ambiguous.
        let files = ["Raster/Canvas.swift": "final class Canvas {\n    func draw() {}\n}\n",
                     "Overlays/Canvas+Pin.swift": "extension Canvas {\n    func draw(pin: Int) {}\n}\n",
                     "Raster/Use.swift": "func paint(_ c: Canvas) { c.draw() }\n"]
        #expect(LayerChecker.violations(files: files, ranks: layerRanks).isEmpty)
    }

    /// docs/architecture.md's "uses" column is what the check finds: each stage lists the
    /// folders it uses, no more and no fewer ("everything below" and "—" as written).
    @Test func theArchitectureDocumentListsWhatEachStageUses() throws {
        let doc = try String(contentsOfFile: TestPaths.repositoryRoot + "/docs/architecture.md", encoding: .utf8)
        let uses = LayerChecker.uses(files: try Self.sourceFiles())
        var rows = 0
        for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, Int(cells[1]) != nil, cells[2].hasPrefix("`"), cells[2].hasSuffix("/`") else { continue }
            let folder = String(cells[2].dropFirst().dropLast(2))
            rows += 1
            let actual = uses[folder] ?? []
            let written = cells[4]
            if written == "everything below" {
                let rank = layerRanks[folder] ?? -1
                #expect(actual.allSatisfy { (layerRanks[$0] ?? 99) < rank }, "\(folder)")
                continue
            }
            let documented = written == "—" ? Set<String>() : Set(written.split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " })
            })
            let generated = actual.isEmpty ? "—" : actual.sorted { (layerRanks[$0] ?? 0, $0) > (layerRanks[$1] ?? 0, $1) }.joined(separator: ", ")
            #expect(documented == actual, "docs/architecture.md: `\(folder)/` uses \"\(written)\"; the sources use: \(generated)")
        }
        #expect(rows == layerRanks.count, "a row per ranked folder in docs/architecture.md")
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
