extension DirectionsResponse {
    /// The `--steps-out` document: the camera of the image drawn, then each route (best first)
    /// with the engine's own numbers, unrounded:
    ///
    /// ```
    /// {"camera": {"center": [lat, lng], "zoom": z},
    ///  "routes": [{"distanceMeters", "durationSeconds", "summary",
    ///              "steps": [{"instruction", "distanceMeters", "durationSeconds", "location": [lat, lng]}]}]}
    /// ```
    public func stepsReport(camera: Camera) -> [UInt8] {
        let routes: [JSONValue] = routes.map { route in
            .object([
                "distanceMeters": .number(route.distance),
                "durationSeconds": .number(route.expectedTravelTime),
                "summary": .string(route.name),
                "steps": .array(route.steps.map { step in
                    .object([
                        "instruction": .string(step.instructions),
                        "distanceMeters": .number(step.distance),
                        "durationSeconds": .number(step.expectedTravelTime),
                        "location": .array([.number(step.location.latitude), .number(step.location.longitude)]),
                    ])
                }),
            ])
        }
        let document: JSONValue = .object([
            "camera": .object([
                "center": .array([.number(camera.center.latitude), .number(camera.center.longitude)]),
                "zoom": .number(camera.zoom),
            ]),
            "routes": .array(routes),
        ])
        return JSONWriter.bytes(document, pretty: true) + [0x0A]
    }
}
