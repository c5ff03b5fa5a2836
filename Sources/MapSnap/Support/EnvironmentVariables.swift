#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Environment variables as mapsnap reads them: the process's own, each looked up when read
/// (`ProcessInfo.environment` copies the whole environment into a new dictionary every time
/// it is read, a third of a millisecond at start-up), or a fixed set given by a test.
package struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
    /// The fixed variables; nil reads the process environment.
    private let fixed: [String: String]?

    /// The process environment, read with `getenv` at each lookup.
    package static let process = EnvironmentVariables(fixed: nil)

    private init(fixed: [String: String]?) { self.fixed = fixed }

    /// Exactly these variables, whatever the process has.
    package init(_ variables: [String: String]) { fixed = variables }

    package init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(elements, uniquingKeysWith: { $1 })
    }

    /// The value of `name`, or nil when it is not set.
    package subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
