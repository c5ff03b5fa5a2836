/// The base map under the overlays: a style and the tile sources it draws from.
struct BaseMap {
    enum Pass { case belowLabels, labels }

    let background: Color
    var warnings: [String] = []
    var attribution: String = ""

    init(styleName: String, sourceOverride: String?) throws {
        switch styleName {
        case "normal": background = Color(rgb: 0xF2EFE9)
        case "terrain": background = Color(rgb: 0xECE6D6)
        case "hybrid": background = Color(rgb: 0x1F2A1C)
        default: throw RenderError.style("--style \(styleName): no such style (normal, terrain, hybrid or a .json file)")
        }
    }

    /// Draws one pass of the style's layers; returns warnings.
    func drawLayers(camera: Camera, canvas: Canvas, labels: LabelCollisionIndex, pass: Pass) -> [String] {
        if pass == .belowLabels {
            var p = Path()
            p.addRect(PixelRect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)))
            canvas.fill(p, color: background)
        }
        return []
    }
}
