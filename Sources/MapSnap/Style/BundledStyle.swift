/// The names of the styles mapsnap ships in `Styles/`, and Google's map type names for them:
/// the one table `--style`, a spec's `"style"`, a Static Maps URL's `maptype=` and the server
/// read, so `roadmap` means `normal` wherever a style name is accepted.
package enum BundledStyle {
    /// The bundled styles, in the order help texts list them.
    package static let names = ["normal", "terrain", "hybrid", "satellite"]

    /// Google Static Maps `maptype` values and the bundled style each one means: roadmap →
    /// normal; terrain, satellite (imagery without roads or labels) and hybrid are ours too.
    package static let mapTypes: [(mapType: String, style: String)] = [
        ("roadmap", "normal"), ("terrain", "terrain"), ("satellite", "satellite"), ("hybrid", "hybrid"),
    ]

    /// The bundled style `name` means: a bundled style's own name or a Google map type, in
    /// any case; nil for anything else (a file, a URL, a typo).
    package static func resolve(_ name: String) -> String? {
        let lower = name.lowercased()
        if names.contains(lower) { return lower }
        return style(forMapType: lower)
    }

    /// The bundled style a Google `maptype` names (any case), or nil.
    package static func style(forMapType mapType: String) -> String? {
        let lower = mapType.lowercased()
        return mapTypes.first { $0.mapType == lower }?.style
    }

    /// Every name `resolve` accepts: the styles, then the map types that are not also styles.
    package static var acceptedNames: [String] {
        names + mapTypes.map(\.mapType).filter { !names.contains($0) }
    }

    /// ` (did you mean "normal"?)` for a style name that is close to an accepted one, else "".
    package static func suggestion(for name: String) -> String {
        Suggestion.hint(for: name, among: acceptedNames)
    }
}
