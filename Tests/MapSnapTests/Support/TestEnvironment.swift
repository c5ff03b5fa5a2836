import Foundation

/// What the tests need to know about the build they run in.
enum TestEnvironment {
    /// True when this process carries a sanitizer runtime (RTLD_DEFAULT lookup); the
    /// `mapsnap` binary the CLI tests run is then built the same way.
    static let isSanitized = ["__asan_init", "__tsan_init", "__msan_init"].contains { (name: String) in dlsym(nil, name) != nil }

    /// A time limit for work whose speed the build changes: `seconds` normally, five times
    /// as long under a sanitizer (ThreadSanitizer runs renders 10–50× slower, and the
    /// limits guard against hangs, not slowness).
    static func seconds(_ seconds: Double) -> Double { isSanitized ? seconds * 5 : seconds }
}
