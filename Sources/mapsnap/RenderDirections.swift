import MapSnap

/// The directions part of `mapsnap render`: asks the router (or reads the saved answer),
/// adds the routes, pins and callout to the spec's overlays, and writes `--steps-out`.
enum RenderDirections {
    static let valuedOptions: Set<String> = ["--from", "--to", "--via", "--mode", "--alternatives", "--avoid", "--units", "--router",
                                "--steps-out", "--directions-json"]

    /// Draws the spec's directions into it; returns the answer (nil when none was asked for).
    /// Nothing is written here: a failure leaves no file behind.
    static func apply(to spec: inout RenderSpec, _ args: ParsedArguments,
                      environment: EnvironmentVariables = .process) throws(CLIError) -> DirectionsResponse? {
        if spec.directions.isEmpty {
            if args.last("--steps-out") != nil {
                throw .usage("--steps-out needs directions: --from and --to, or --directions-json FILE")
            }
            return nil
        }
        let router = try self.router(args, environment: environment)
        let response: DirectionsResponse
        do {
            response = try spec.directions.response(router: router, http: spec.options.http)
        } catch let e as DirectionsError {
            throw e.isInputError ? .input(e.description) : .runtime(e.description)
        } catch {
            throw .input(String(describing: error))
        }
        spec.options.overlays += spec.directions.overlays(for: response)
        return response
    }

    /// `--router URL`, else `$MAPSNAP_ROUTER`, else none.
    static func router(_ args: ParsedArguments, environment: EnvironmentVariables) throws(CLIError) -> Router? {
        let (text, origin): (String?, String) = args.last("--router").map { ($0, "--router") }
            ?? (environment["MAPSNAP_ROUTER"].flatMap { $0.isEmpty ? nil : $0 }, "MAPSNAP_ROUTER")
        guard let text else { return nil }
        guard let router = Router(text) else {
            throw .usage("\(origin) \(text): expected an http(s) URL, optionally prefixed valhalla+, osrm+ or graphhopper+")
        }
        return router
    }

    /// `--steps-out FILE.json`, written atomically after the image.
    static func writeSteps(_ response: DirectionsResponse?, camera: Camera, _ args: ParsedArguments) throws(CLIError) {
        guard let path = args.last("--steps-out"), let response else { return }
        do {
            try AtomicFile.write(response.stepsReport(camera: camera), to: path)
        } catch {
            throw .runtime("--steps-out \(path): \(error)")
        }
    }
}
