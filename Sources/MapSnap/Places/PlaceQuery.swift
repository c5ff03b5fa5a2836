/// Reading a query as an address: a street, a house number and what follows.
enum PlaceQuery {
    struct Address: Equatable {
        /// The street as typed (`Aleksanterinkatu`).
        var street: String
        /// The house number, normalized (`PlaceIndexEntry.normalizedHouseNumber`): `52a`.
        var number: String
        /// Words after the number (`Helsinki` in `Aleksanterinkatu 52 Helsinki`), as typed.
        var trailing: String
    }

    /// `Street 52`, `Street 52 A`, `Street 52a`, `Street 52-54`, `Street 52 City` or
    /// `52 Street`; nil when no word is a house number (one starting with a digit) or when
    /// nothing is left for the street.
    static func address(_ text: String) -> Address? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count >= 2 else { return nil }
        func isNumber(_ w: String) -> Bool { w.first?.isNumber ?? false }
        if isNumber(words[0]), !words.dropFirst().contains(where: isNumber) {
            let number = PlaceIndexEntry.normalizedHouseNumber(words[0])
            return number.isEmpty ? nil : Address(street: words.dropFirst().joined(separator: " "), number: number, trailing: "")
        }
        guard let i = words.firstIndex(where: isNumber), i > 0 else { return nil }
        var numberText = words[i]
        var next = i + 1
        // `52 A`: a single letter after the number belongs to it.
        if next < words.count, words[next].count == 1, words[next].first?.isLetter ?? false {
            numberText += words[next]
            next += 1
        }
        let number = PlaceIndexEntry.normalizedHouseNumber(numberText)
        guard !number.isEmpty else { return nil }
        return Address(street: words[..<i].joined(separator: " "), number: number,
                       trailing: words[next...].joined(separator: " "))
    }
}
