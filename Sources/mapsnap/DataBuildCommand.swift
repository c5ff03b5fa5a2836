import Foundation
import MapSnap

/// `mapsnap data build`: OpenMapTiles-schema tiles and a place index from an `.osm.pbf`.
enum DataBuildCommand {
    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        throw .usage("data build: not built yet")
    }
}
