import Foundation
import MapSnap

/// `mapsnap data extract`: the tiles of an area, copied from a PMTiles or MBTiles archive.
enum DataExtractCommand {
    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        throw .usage("data extract: not built yet")
    }
}
