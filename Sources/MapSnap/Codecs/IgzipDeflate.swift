internal import CIsal

/// Raw deflate data (RFC 1951) from ISA-L's igzip, ended by a sync flush: no block is final
/// and the data ends on a byte boundary, so another raw deflate stream may follow and the
/// two inflate as one. `PNGEncoder` deflates a big image in such parts on two threads at
/// once (libdeflate, which writes the last part, cannot flush).
///
/// Level 2, igzip's fastest level with a proper matcher: on the S1 route image's rows about
/// 2.7× faster than libdeflate's level 1 and 3 % larger (zlib's level 1, which this
/// replaced, is slower than libdeflate). Its output is the same on every x86-64 CPU with
/// SSE4.2 (the hash is CRC-32C there; a plain C hash below it), whatever the thread count.
enum IgzipDeflate {
    static let level: UInt32 = 2

    static func syncFlushed(_ bytes: UnsafeRawBufferPointer) throws(PNGError) -> [UInt8] {
        guard bytes.count <= Int(UInt32.max) / 2 else {
            throw .encodingFailed(reason: "\(bytes.count) bytes are too many for one igzip part")
        }
        let levelBufferSize = Int(mapsnap_isal_level2_buffer_size())
        let levelBuffer = UnsafeMutableRawPointer.allocate(byteCount: levelBufferSize, alignment: 64)
        defer { levelBuffer.deallocate() }
        // Incompressible rows grow by less than a percent; a flush adds at most 5 bytes.
        let bound = bytes.count + bytes.count / 8 + 1024
        var stream = isal_zstream()
        isal_deflate_init(&stream)
        stream.level = level
        stream.level_buf = levelBuffer.assumingMemoryBound(to: UInt8.self)
        stream.level_buf_size = UInt32(levelBufferSize)
        stream.end_of_stream = 0
        stream.flush = UInt16(SYNC_FLUSH)
        stream.gzip_flag = UInt16(IGZIP_DEFLATE)
        var code: Int32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { out, initialized in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = UInt32(bytes.count)
            stream.next_out = out.baseAddress
            stream.avail_out = UInt32(out.count)
            code = isal_deflate(&stream)
            initialized = out.count - Int(stream.avail_out)
        }
        // All input taken, room left and the flush done (igzip waits for a new block header).
        guard code == COMP_OK, stream.avail_in == 0, output.count < bound,
              stream.internal_state.state == ZSTATE_NEW_HDR else {
            throw .encodingFailed(reason: "igzip could not deflate \(bytes.count) bytes (code \(code))")
        }
        return output
    }
}

extension IgzipDeflate {
    /// ISA-L's version as its header says (the library has no run-time query), or nil when
    /// the header was not available at build time.
    static var libraryVersion: String? {
        let v = mapsnap_isal_version()
        return v == 0 ? nil : "\(v >> 16).\(v >> 8 & 0xff).\(v & 0xff)"
    }
}
