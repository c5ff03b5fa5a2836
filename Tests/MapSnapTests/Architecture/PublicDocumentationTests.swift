import Foundation
import Testing

/// Finds `public` declarations without a doc comment in Swift source text: the API users see
/// must say what each part is for. A declaration is documented when the nearest line above
/// it that is not an attribute (`@inlinable`, `@discardableResult`) is a `///` line or ends
/// a `/** … */` block. `public` inside comments and string literals does not count, nor does
/// `public import`.
///
/// A text check like `LayerChecker`: it reads lines, not syntax trees, which is enough for
/// code formatted as this project's is (one declaration per line, attributes above or in
/// front of it).
enum DocumentationChecker {
    /// An undocumented public declaration: `file:line: text`.
    struct Finding: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    /// `files` maps a path (for messages) to its source text.
    static func undocumented(files: [String: String]) -> [Finding] {
        var found: [Finding] = []
        for path in files.keys.sorted() {
            let text = files[path] ?? ""
            let original = text.split(separator: "\n", omittingEmptySubsequences: false)
            let code = LayerChecker.stripCommentsAndStrings(text).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in code.enumerated() where declaresPublic(line) && !isDocumented(original, before: i) {
                found.append(Finding(file: path, line: i + 1, text: original[i].trimmingCharacters(in: .whitespaces)))
            }
        }
        return found
    }

    /// True for a line of code (comments and strings blanked) carrying the `public` modifier.
    static func declaresPublic(_ code: Substring) -> Bool {
        let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let k = words.firstIndex(where: { $0 == "public" || $0.hasPrefix("public(") }) else { return false }
        return words.index(after: k) < words.endIndex && words[words.index(after: k)] != "import"
    }

    /// True when the line above `index` (skipping attribute-only lines) is documentation.
    static func isDocumented(_ lines: [Substring], before index: Int) -> Bool {
        var k = index - 1
        while k >= 0 {
            let line = lines[k].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("@") && !line.contains(" func ") && !line.contains(" var ") && !line.contains(" let ") {
                k -= 1
                continue
            }
            return line.hasPrefix("///") || line.hasSuffix("*/") && isDocBlock(lines, endingAt: k)
        }
        return false
    }

    /// True when the comment block ending on line `end` opens with `/**`.
    private static func isDocBlock(_ lines: [Substring], endingAt end: Int) -> Bool {
        var k = end
        while k >= 0 {
            let line = lines[k].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("/**") { return true }
            if line.hasPrefix("/*") { return false }
            k -= 1
        }
        return false
    }
}

@Suite struct PublicDocumentationTests {
    /// The library and the snapshot-testing library: the code users import.
    static let sourceRoots = ["Sources/MapSnap", "Sources/MapSnapTesting"]

    static func sourceFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for root in sourceRoots {
            let dir = TestPaths.repositoryRoot + "/" + root
            let enumerator = FileManager.default.enumerator(atPath: dir)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                files[root + "/" + relative] = try String(contentsOfFile: dir + "/" + relative, encoding: .utf8)
            }
        }
        return files
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 100)
        let missing = DocumentationChecker.undocumented(files: files)
        let list = missing.map(\.description).joined(separator: "\n")
        #expect(missing.isEmpty, "\(missing.count) public declarations lack a /// comment:\n\(list)")
    }

    @Test func anUndocumentedDeclarationIsReported() {
        let source = """
            /// A documented type.
            public struct Documented {
                /// Documented.
                public var a: Int
                public var b: Int
                @inlinable
                public func c() {}
                /// Documented, attribute between.
                @discardableResult
                public func d() -> Int { 0 }
                // A plain comment is not documentation.
                public init() {}
                /** A doc block. */
                public static let e = 1
                /* A plain block. */
                public static let f = 2
                let g = "public text"  // public in a comment
            }
            public import Foundation
            """
        let found = DocumentationChecker.undocumented(files: ["T.swift": source])
        #expect(found.map(\.line) == [5, 7, 12, 16], "\(found)")
    }
}
