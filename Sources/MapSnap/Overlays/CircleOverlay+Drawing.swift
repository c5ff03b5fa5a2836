extension CircleOverlay {
    /// The ring camera fitting uses: 64 points on the geodesic circle (the drawn ring's
    /// resolution depends on the camera, which fitting is about to choose), closed over the
    /// pole when the circle contains one, as the drawn polygon is.
    func fitRing() -> [WorldPoint] {
        WorldRing(polygon: Geodesy.circle(center: center, radiusMeters: radiusMeters, segments: 64)).points
    }

    /// The geodesic circle as a polygon with as many segments as its on-screen radius in
    /// pixels (32…2048), so big circles stay round and small ones cheap.
    func draw(in ctx: OverlayContext) {
        let radiusPixels = radiusMeters / max(ctx.camera.metersPerPixel, 1e-9)
        let segments = max(32, min(2048, Int(radiusPixels)))
        let ring = Geodesy.circle(center: center, radiusMeters: radiusMeters, segments: segments)
        let polygon = PolygonOverlay(rings: [ring], fillColor: fillColor, strokeColor: strokeColor,
                                     strokeWidth: strokeWidth, level: level)
        polygon.draw(ProjectedOverlay(.polygon(polygon)), in: ctx)
    }
}
