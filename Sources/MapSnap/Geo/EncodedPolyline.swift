/// Google's encoded polyline algorithm format, at any precision (5 for Google, 6 for OSRM and
/// Valhalla).
///
/// Each coordinate is stored as the zig-zag encoded delta from the previous one, in units of
/// 10^-precision degrees, split into 5-bit groups (least significant first), each group
/// offset by 63 so that it lands in the printable range `?`…`~`; bit 0x20 of a group says
/// "another group follows". Latitude comes before longitude.
///
/// Decoding accumulates in 64 bits and rejects anything that could not have come from an
/// encoder: more than 12 groups per value (60 bits), a final group that still has its
/// continuation bit set, a latitude without its longitude, bytes outside 63…126 and
/// coordinates outside ±90/±180.
public enum EncodedPolyline {
    /// Largest number of points a decoded polyline may hold.
    public static let maximumPointCount = 10_000_000
    /// Supported precisions (decimal digits after the point).
    public static let supportedPrecisions: ClosedRange<Int> = 1...7
    /// A value spans at most 12 five-bit groups: 60 bits is more than any ±180° value needs
    /// even at precision 7, and keeps the shift below 64.
    static let maximumGroupsPerValue = 12

    /// Decodes `text` into coordinates.
    ///
    /// - Parameter precision: digits after the decimal point: 5 (Google) or 6 (OSRM, Valhalla).
    /// - Throws: `PolylineError` with the byte offset of the problem.
    public static func decode(_ text: String, precision: Int = 5) throws(PolylineError) -> [LatLng] {
        guard supportedPrecisions.contains(precision) else { throw .unsupportedPrecision(precision) }
        let factor = powerOfTen(precision)
        var result: [LatLng] = []
        // Every point takes at least two bytes, so this never over-reserves by more than 2×.
        result.reserveCapacity(Swift.min(text.utf8.count / 2, maximumPointCount))
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var pendingLatitude: Int64? = nil
        var valueStart = 0
        var shift: UInt64 = 0
        var groups = 0
        var accumulator: UInt64 = 0
        var offset = 0
        // The UTF-8 view lets a non-ASCII scalar be reported by the offset of its first byte.
        for byte in text.utf8 {
            defer { offset += 1 }
            guard byte >= 63 && byte <= 126 else { throw .invalidCharacter(offset: offset, byte: byte) }
            if groups == 0 { valueStart = offset }
            let group = UInt64(byte - 63)
            groups += 1
            guard groups <= maximumGroupsPerValue else { throw .overlongValue(offset: valueStart) }
            accumulator |= (group & 0x1F) << shift
            shift += 5
            if group & 0x20 != 0 { continue }
            // Zig-zag: the low bit carries the sign, the rest the magnitude.
            let magnitude = Int64(bitPattern: accumulator >> 1)
            let delta = accumulator & 1 != 0 ? ~magnitude : magnitude
            accumulator = 0
            shift = 0
            groups = 0
            if let lat = pendingLatitude {
                let (lon, overflow) = longitude.addingReportingOverflow(delta)
                guard !overflow else { throw .overlongValue(offset: valueStart) }
                longitude = lon
                pendingLatitude = nil
                let coordinate = LatLng(latitude: Double(lat) / factor, longitude: Double(lon) / factor)
                guard coordinate.isValid else {
                    throw .coordinateOutOfRange(index: result.count, offset: valueStart,
                                                latitude: coordinate.latitude, longitude: coordinate.longitude)
                }
                guard result.count < maximumPointCount else { throw .tooManyPoints(limit: maximumPointCount) }
                result.append(coordinate)
            } else {
                let (lat, overflow) = latitude.addingReportingOverflow(delta)
                guard !overflow else { throw .overlongValue(offset: valueStart) }
                latitude = lat
                pendingLatitude = lat
            }
        }
        if groups != 0 { throw .truncated(offset: valueStart) }
        if pendingLatitude != nil { throw .missingLongitude(offset: offset) }
        return result
    }

    /// Encodes coordinates; each value is rounded to the nearest 10^-precision degrees (as
    /// Google's reference encoder does) before deltas are taken, so errors do not accumulate.
    ///
    /// - Throws: `PolylineError.coordinateOutOfRange` for non-finite or out-of-range input.
    public static func encode(_ coordinates: [LatLng], precision: Int = 5) throws(PolylineError) -> String {
        guard supportedPrecisions.contains(precision) else { throw .unsupportedPrecision(precision) }
        let factor = powerOfTen(precision)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(coordinates.count * 8)
        var previousLatitude: Int64 = 0
        var previousLongitude: Int64 = 0
        for (index, coordinate) in coordinates.enumerated() {
            guard coordinate.isValid else {
                throw .coordinateOutOfRange(index: index, offset: bytes.count,
                                            latitude: coordinate.latitude, longitude: coordinate.longitude)
            }
            // |value| ≤ 180·10^7, far inside Int64: the conversions cannot trap.
            let lat = Int64((coordinate.latitude * factor).rounded())
            let lon = Int64((coordinate.longitude * factor).rounded())
            appendValue(lat - previousLatitude, to: &bytes)
            appendValue(lon - previousLongitude, to: &bytes)
            previousLatitude = lat
            previousLongitude = lon
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendValue(_ delta: Int64, to bytes: inout [UInt8]) {
        var value = UInt64(bitPattern: delta << 1)
        if delta < 0 { value = ~value }
        while value >= 0x20 {
            bytes.append(UInt8((value & 0x1F) | 0x20) + 63)
            value >>= 5
        }
        bytes.append(UInt8(value) + 63)
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

/// Why an encoded polyline was rejected; offsets are byte offsets into the UTF-8 text.
public enum PolylineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A byte outside the encoding alphabet 63…126 (`?`…`~`).
    case invalidCharacter(offset: Int, byte: UInt8)
    /// The text ends inside a value (its last group has the continuation bit set).
    case truncated(offset: Int)
    /// A value uses more than 12 groups or overflows 64 bits.
    case overlongValue(offset: Int)
    /// The text ends after a latitude with no longitude.
    case missingLongitude(offset: Int)
    /// A decoded (or to-be-encoded) coordinate is not finite or outside ±90/±180.
    case coordinateOutOfRange(index: Int, offset: Int, latitude: Double, longitude: Double)
    case unsupportedPrecision(Int)
    case tooManyPoints(limit: Int)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .invalidCharacter(offset, byte):
            let shown = byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return "offset \(offset): \(shown) is not a polyline character (allowed: ASCII 63…126)"
        case let .truncated(offset):
            return "offset \(offset): polyline ends inside a value (last character has the continuation bit)"
        case let .overlongValue(offset):
            return "offset \(offset): value is longer than 12 characters or overflows"
        case let .missingLongitude(offset):
            return "offset \(offset): polyline ends after a latitude with no longitude"
        case let .coordinateOutOfRange(index, offset, latitude, longitude):
            return "offset \(offset): point \(index + 1) (\(latitude),\(longitude)) is outside -90…90, -180…180"
        case let .unsupportedPrecision(p):
            return "precision \(p) is not supported (expected \(EncodedPolyline.supportedPrecisions.lowerBound)…\(EncodedPolyline.supportedPrecisions.upperBound))"
        case let .tooManyPoints(limit):
            return "polyline has more than \(limit) points"
        }
    }
}
