/// A string-valued enum whose equality and hashing use the case, not the raw string.
///
/// `RawRepresentable` gives `Hashable` and `==` through `rawValue`, so a dictionary keyed by
/// such an enum hashes and compares strings: the style's property tables are read thousands of
/// times per render (`layer.paint[.lineWidth]`). A field-less enum of at most 256 cases is
/// stored as its case number in one byte, which is what these compare.
protocol CaseIdentified: RawRepresentable, Hashable where RawValue == String {}

extension CaseIdentified {
    /// The case's number: its position in the declaration. `unsafeBitCast` stops the process
    /// if `Self` is not one byte (an enum with payloads or over 256 cases), never misreads it.
    var caseNumber: UInt8 { unsafeBitCast(self, to: UInt8.self) }

    static func == (a: Self, b: Self) -> Bool { a.caseNumber == b.caseNumber }

    func hash(into hasher: inout Hasher) { hasher.combine(caseNumber) }
}
