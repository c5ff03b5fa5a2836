import Foundation

/// How the `mapsnap` process asks glibc's malloc for memory. A process policy, so it lives in
/// the command, not in the library (an application embedding MapSnap keeps its own).
///
/// - Buffers of 1 MiB or more (canvases, PNG rows, a million-point route's arrays) that the
///   heap's free space cannot hold are mapped on their own and returned to the system when
///   freed, never left to grow the heap. glibc's default raises this threshold after the
///   first such buffer is freed, so later large temporaries stay in the heap and the peak
///   resident size grows by their sum (a 1M-point route: 212 → 147 MiB).
/// - Smaller ones — a decoded 256-px tile is 256 KiB — come from the heap, which grows in
///   steps of several MiB: every mmap, munmap or heap growth takes the address space's lock
///   for writing, and the other threads' page faults wait for it.
/// - The first 64 MiB of the heap are reserved at start and marked for transparent huge
///   pages (`MADV_HUGEPAGE`; the kernel's default policy only backs marked memory with them),
///   so that memory arrives in 2 MiB pages: one page fault where there were 512. A render
///   first touches tens of MiB (decoded tiles, edge tables, encoder rows), and in a small VM
///   each 4 KiB fault costs microseconds: the S1 route image took ~9,700 faults, a quarter
///   of its CPU time; with this ~1,300 (Benchmarks/PROFILES.md). Reserving is address space only;
///   nothing is resident until touched. The heap is trimmed when more than 8 MiB at its top
///   are free; with the reservation only past 80 MiB, so that it stays (a trim would cut the
///   marked region, and memory the heap grows into later is not marked). Only the commands
///   that render (`render`, `batch`, `serve`) reserve: a first huge page costs a 2 MiB
///   clear, more than `--version` or `info` ever allocate.
/// - A single render also keeps its worker threads' small allocations in that heap
///   (`M_ARENA_MAX` 1): each thread otherwise gets an arena of its own, mapped apart and not
///   marked. Each thread's cache still serves small sizes without the arena's lock; `batch`
///   and `serve` run many renders on many threads and keep glibc's arena per thread.
///
/// `mallopt` and its parameters live in malloc.h, which Swift's Glibc module does not
/// import; the functions are looked up in the C library (RTLD_DEFAULT is the null handle).
/// Calling `malloc`/`free` through the looked-up pointers also keeps the optimizer from
/// removing the reserving allocation as unused. Anything missing (another C library) leaves
/// malloc's defaults; nothing here changes what is drawn.
enum ProcessMemory {
    static let mapThreshold: Int32 = 1 << 20
    static let topPad: Int32 = 4 << 20
    static let hugePageHeap = 64 << 20
    static let reservedTrimThreshold: Int32 = 80 << 20

    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    // malloc.h: M_TRIM_THRESHOLD −1, M_TOP_PAD −2, M_MMAP_THRESHOLD −3, M_ARENA_MAX −8.
    private static let trimThresholdOption: Int32 = -1
    private static let topPadOption: Int32 = -2
    private static let mapThresholdOption: Int32 = -3
    private static let arenaMaxOption: Int32 = -8

    /// Sets the policy above for `command`, the first argument (`render`, `batch`, …). Returns
    /// the bytes marked for huge pages (0 when the command does not render, or the heap could
    /// not grow or was already larger).
    @discardableResult
    static func configure(command: String) -> Int {
        guard let mallopt = function("mallopt", as: Mallopt.self),
              let malloc = function("malloc", as: Malloc.self),
              let free = function("free", as: Free.self) else { return 0 }
        _ = mallopt(mapThresholdOption, mapThreshold)
        _ = mallopt(topPadOption, topPad)
        _ = mallopt(trimThresholdOption, 8 << 20)
        guard ["render", "batch", "serve"].contains(command) else { return 0 }
        _ = mallopt(trimThresholdOption, reservedTrimThreshold)
        if command == "render" { _ = mallopt(arenaMaxOption, 1) }
        // Grow the heap once to the reservation: a heap-sized request (the map threshold at its
        // 32 MiB maximum for the moment) plus top padding. Whatever the top already held, the
        // heap then ends `hugePageHeap` bytes past the request's start.
        let probe = 31 << 20
        _ = mallopt(mapThresholdOption, 32 << 20)
        _ = mallopt(topPadOption, Int32(hugePageHeap - probe))
        let block = malloc(probe)
        let end = UInt(bitPattern: sbrk(0))
        free(block)
        _ = mallopt(mapThresholdOption, mapThreshold)
        _ = mallopt(topPadOption, topPad)
        // (A block mapped on its own, past the heap, means the heap could not grow.)
        guard let block, end != UInt.max, UInt(bitPattern: block) < end else { return 0 }
        // The block merged back into the heap's free top, which starts at its header (16 bytes
        // below it); what is allocated next is carved from there. A huge page needs a whole
        // aligned 2 MiB, so a filler block, never freed, takes the rest of the 2 MiB the top
        // starts in: the allocations after it begin on a huge page, not on up to 512 small
        // ones. Only the filler's header is ever touched.
        let hugePage: UInt = 2 << 20
        let top = UInt(bitPattern: block) - 16
        let first = (top + hugePage - 1) & ~(hugePage - 1)
        // Marked before the filler: splitting the top writes a header at `first`, and a page
        // touched before the mark keeps its whole 2 MiB on small pages.
        guard end > first,
              madvise(UnsafeMutableRawPointer(bitPattern: first), Int(end - first), MADV_HUGEPAGE) == 0
        else { return 0 }
        if first - top >= 64 << 10 { _ = malloc(Int(first - top) - 16) }
        return Int(end - first)
    }

    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
}
