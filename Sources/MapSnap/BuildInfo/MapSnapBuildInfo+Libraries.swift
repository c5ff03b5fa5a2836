extension MapSnapBuildInfo {
    /// The C libraries mapsnap uses, each with the version this process runs with: asked of
    /// the library where it offers a query (libpng, FreeType, HarfBuzz, libwebp, SQLite, zlib, Expat,
    /// libcurl, libmicrohttpd), else its header's (libdeflate, libjpeg-turbo, ISA-L, FriBiDi).
    ///
    /// - Parameter loadingOnDemandLibraries: HarfBuzz, libcurl and libmicrohttpd are loaded on
    ///   first use (loading libcurl and its TLS libraries costs a process ~15 ms, HarfBuzz and
    ///   GLib a few); false leaves them unloaded and reports them as `.notLoaded`.
    public static func libraryVersions(loadingOnDemandLibraries: Bool = false) -> [LibraryVersion] {
        var list: [LibraryVersion] = [
            LibraryVersion(name: "libpng", version: PNGCodec.libraryVersion, origin: .runtime),
            LibraryVersion(name: "libdeflate", version: Gzip.libdeflateVersion, origin: .header),
            LibraryVersion(name: "FreeType", version: FreeTypeFace.libraryVersion, origin: .runtime),
            loadingOnDemandLibraries
                ? LibraryVersion(name: "HarfBuzz", version: HarfBuzzFont.libraryVersion, origin: .runtime)
                : LibraryVersion(name: "HarfBuzz", version: HarfBuzzFont.headerVersion, origin: .notLoaded),
            LibraryVersion(name: "FriBiDi", version: BidiParagraph.libraryVersion, origin: .header),
            LibraryVersion(name: "libjpeg-turbo", version: JPEGCodec.libraryVersion, origin: .header),
            LibraryVersion(name: "libwebp", version: WebPEncoder.libraryVersion, origin: .runtime),
            LibraryVersion(name: "SQLite", version: MBTilesSource.sqliteVersion, origin: .runtime),
            LibraryVersion(name: "zlib", version: Gzip.zlibVersion, origin: .runtime),
            LibraryVersion(name: "Expat", version: XMLEventReader.libraryVersion, origin: .runtime),
            LibraryVersion(name: "ISA-L", version: IgzipDeflate.libraryVersion, origin: .header),
        ]
        if loadingOnDemandLibraries {
            list.append(LibraryVersion(name: "libcurl", version: CurlTransfer.libraryVersion, origin: .runtime))
            list.append(LibraryVersion(name: "libmicrohttpd", version: HTTPServer.libraryVersion, origin: .runtime))
        } else {
            list.append(LibraryVersion(name: "libcurl", version: CurlTransfer.headerVersion, origin: .notLoaded))
            list.append(LibraryVersion(name: "libmicrohttpd", version: HTTPServer.headerVersion, origin: .notLoaded))
        }
        return list
    }
}
