import Foundation

/// The folder holding what the executable reads besides a project: `Templates/` (system chrome,
/// stock templates, device profiles). Looked for, in order, where `make install` and the Debian
/// package put it (`../share/pushpreview` beside the executable's `bin/`), in the checkout the
/// executable was built in (upwards from it, as `.build/release/pushpreview` sits), and last in
/// `PUSHPREVIEW_HOME`. `--version` says which was found.
public struct ShareFolder: Sendable {
    public enum Origin: String, Sendable { case installed, checkout, environment = "PUSHPREVIEW_HOME" }
    public var url: URL
    public var origin: Origin
    public var templates: URL { url.appendingPathComponent("Templates") }

    /// The running executable, through /proc (argv[0] may be a bare name found on PATH).
    public static var executable: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }

    public static func locate(executable: URL = executable,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> ShareFolder? {
        let bin = executable.deletingLastPathComponent()
        let installed = bin.deletingLastPathComponent().appendingPathComponent("share/pushpreview")
        if holdsTemplates(installed) { return ShareFolder(url: installed.standardizedFileURL, origin: .installed) }
        var dir = bin
        for _ in 0..<6 {
            if holdsTemplates(dir) { return ShareFolder(url: dir, origin: .checkout) }
            dir = dir.deletingLastPathComponent()
        }
        if let home = environment["PUSHPREVIEW_HOME"], holdsTemplates(URL(fileURLWithPath: home)) {
            return ShareFolder(url: URL(fileURLWithPath: home).standardizedFileURL, origin: .environment)
        }
        return nil
    }

    private static func holdsTemplates(_ root: URL) -> Bool {
        TrustedFiles.exists(root.appendingPathComponent("Templates/system/expanded.html"))
    }
}
