import Foundation
import Testing
@testable import MapSnap

/// `ResourceLocator`'s one search: the installed `share/mapsnap` beside the executable, then
/// `$MAPSNAP_RESOURCES`, then the checkout, the last only for a binary built inside a checkout.
@Suite struct ResourceLocatorTests {
    /// A scratch tree: `prefix/` (an installed layout), `elsewhere/` (resources named by the
    /// environment) and `checkout/` (a repository with `Sources/MapSnap/Support/`), each with
    /// a `Styles/normal.json` whose text names the tree.
    struct Tree {
        let root = TestPaths.temporaryDirectory()
        var prefix: String { root + "/prefix" }
        var elsewhere: String { root + "/elsewhere" }
        var checkout: String { root + "/checkout" }
        var sourceFile: String { checkout + "/Sources/MapSnap/Support/ResourceLocator.swift" }

        init(installed: Bool = true, environment: Bool = true, checkout hasCheckout: Bool = true) throws {
            let fm = FileManager.default
            var styles: [String] = []
            if installed { styles.append(prefix + "/share/mapsnap/Styles") }
            if environment { styles.append(elsewhere + "/Styles") }
            if hasCheckout { styles.append(checkout + "/Styles") }
            for dir in styles {
                try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try Data(dir.utf8).write(to: URL(fileURLWithPath: dir + "/normal.json"))
            }
            try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        }

        func find(executable: String, resources: String? = nil) -> Result<String, ResourceNotFound> {
            var env: EnvironmentVariables = [:]
            if let resources { env = ["MAPSNAP_RESOURCES": resources] }
            return ResourceLocator.directory(named: "Styles", probe: "normal.json", environment: env,
                                             executablePaths: [executable], sourceFile: sourceFile)
        }
    }

    @Test func theInstalledShareFolderComesFirst() throws {
        let tree = try Tree()
        defer { CLIRunner.cleanUp(tree.root) }
        let found = try tree.find(executable: tree.prefix + "/bin/mapsnap", resources: tree.elsewhere).get()
        #expect(found == tree.prefix + "/share/mapsnap/Styles")
    }

    @Test func theEnvironmentIsUsedWhenNothingIsInstalledBesideTheBinary() throws {
        let tree = try Tree(installed: false)
        defer { CLIRunner.cleanUp(tree.root) }
        let found = try tree.find(executable: tree.prefix + "/bin/mapsnap", resources: tree.elsewhere).get()
        #expect(found == tree.elsewhere + "/Styles")
    }

    @Test(arguments: ["/checkout/.build/debug/mapsnap", "/checkout/.build/x86_64-unknown-linux-gnu/release/mapsnap"])
    func theCheckoutServesBinariesBuiltInABuildFolder(relativeExecutable: String) throws {
        let tree = try Tree(installed: false, environment: false)
        defer { CLIRunner.cleanUp(tree.root) }
        let found = try tree.find(executable: tree.root + relativeExecutable).get()
        #expect(found == tree.checkout + "/Styles")
    }

    /// A package depending on MapSnap: SwiftPM checks mapsnap out into the consumer's build
    /// folder (`.build`, or any `--scratch-path`) and builds the consumer's executables there.
    @Test(arguments: ["/consumer/.build", "/tmp/any-scratch"])
    func aDependencysCheckoutServesExecutablesOfItsBuildFolder(scratch: String) throws {
        let tree = try Tree(installed: false, environment: false, checkout: false)
        defer { CLIRunner.cleanUp(tree.root) }
        let checkout = tree.root + scratch + "/checkouts/mapsnap"
        try FileManager.default.createDirectory(atPath: checkout + "/Styles", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: checkout + "/Styles/normal.json"))
        let source = checkout + "/Sources/MapSnap/Support/ResourceLocator.swift"
        func find(_ exe: String) -> Result<String, ResourceNotFound> {
            ResourceLocator.directory(named: "Styles", probe: "normal.json", environment: [:],
                                      executablePaths: [exe], sourceFile: source)
        }
        #expect(try find(tree.root + scratch + "/x86_64-unknown-linux-gnu/debug/App").get() == checkout + "/Styles")
        // The same checkout is not read by a binary built, or copied, anywhere else.
        guard case .failure = find(tree.root + "/elsewhere/.build/debug/App") else {
            Issue.record("a binary outside the consumer's build folder read its checkout")
            return
        }
    }

    @Test func anInstalledBinaryNeverReadsTheCheckout() throws {
        let tree = try Tree(installed: false, environment: false)
        defer { CLIRunner.cleanUp(tree.root) }
        let result = tree.find(executable: tree.prefix + "/bin/mapsnap")
        guard case .failure(let error) = result else {
            Issue.record("an installed binary found \(result) although only a checkout has Styles/")
            return
        }
        #expect(error.searched == [tree.prefix + "/share/mapsnap/Styles"])
    }

    @Test func theErrorListsEachFolderOnceOnOneLineAndSaysHowToInstall() throws {
        let tree = try Tree(installed: false, environment: false, checkout: false)
        defer { CLIRunner.cleanUp(tree.root) }
        let exe = tree.checkout + "/.build/debug/mapsnap"
        // /proc/self/exe and argv[0] often name the same file: it is searched once.
        let result = ResourceLocator.directory(named: "Styles", probe: "normal.json",
                                               environment: ["MAPSNAP_RESOURCES": tree.elsewhere],
                                               executablePaths: [exe, exe], sourceFile: tree.sourceFile)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.searched == [tree.checkout + "/.build/share/mapsnap/Styles", tree.elsewhere + "/Styles",
                                   tree.checkout + "/Styles"])
        let message = error.description
        #expect(!message.contains("\n"))
        #expect(message.contains("scripts/install.sh"))
        #expect(message.contains("MAPSNAP_RESOURCES"))
        for folder in error.searched {
            #expect(message.components(separatedBy: folder).count == 2, "\(folder) should appear exactly once in: \(message)")
        }
    }

    @Test func theBuildFileIsReadFromTheInstalledRoot() throws {
        let tree = try Tree()
        defer { CLIRunner.cleanUp(tree.root) }
        try Data("commit 0123456\n".utf8).write(to: URL(fileURLWithPath: tree.prefix + "/share/mapsnap/BUILD"))
        let found = ResourceLocator.file(named: "BUILD", environment: [:], executablePaths: [tree.prefix + "/bin/mapsnap"],
                                         sourceFile: tree.sourceFile)
        #expect(found == tree.prefix + "/share/mapsnap/BUILD")
        #expect(ResourceLocator.file(named: "BUILD", environment: [:], executablePaths: [tree.root + "/other/bin/mapsnap"],
                                     sourceFile: tree.sourceFile) == nil)
    }
}
