/// A point in normalised Web Mercator space: x and y in 0…1 over the whole world,
/// x east from the antimeridian, y south from the top (latitude +85.0511°).
///
/// x may leave 0…1 when a geometry is unwrapped across the antimeridian.
struct WorldPoint: Hashable, Sendable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
