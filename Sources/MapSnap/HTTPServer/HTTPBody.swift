import Synchronization

/// The bytes of a response body, copied once when made and then shared, not copied, by every
/// response that sends them.
///
/// A map kept in the response cache is sent to every client asking for it; libmicrohttpd
/// sends straight from this storage (`HTTPServer` hands it the pointer and keeps the storage
/// alive until libmicrohttpd releases the response), so a thousand slow readers of one 4 MB
/// image hold one 4 MB buffer, not a thousand.
struct HTTPBody: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Immutable bytes in memory allocated here: libmicrohttpd reads them from its event-loop
    /// thread through a raw pointer, so they must neither move nor change while any response
    /// holds them. Written only in `init`, hence safe to share across threads.
    final class Storage: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer

        init<C: Collection>(_ source: C) where C.Element == UInt8 {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 16)
            let written = buffer.initializeMemory(as: UInt8.self, from: source)
            bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<written.initialized.count])
            HTTPBody.allocated.wrappingAdd(bytes.count, ordering: .relaxed)
        }

        deinit { UnsafeMutableRawBufferPointer(mutating: bytes).deallocate() }
    }

    /// Bytes ever copied into body storage by this process: what a test reads to see that a
    /// response sent many times was copied once.
    static let allocated = Atomic<Int>(0)

    let storage: Storage

    /// Copies `bytes` (once).
    init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        storage = Storage(bytes)
    }

    init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }

    var count: Int { storage.bytes.count }
    var isEmpty: Bool { storage.bytes.isEmpty }
    /// A copy as an array (tests, small bodies).
    var array: [UInt8] { Array(storage.bytes) }

    static func == (a: HTTPBody, b: HTTPBody) -> Bool {
        a.storage === b.storage || a.storage.bytes.elementsEqual(b.storage.bytes)
    }
}
