import Checked
import ConfinedFiles
import Foundation
import HTTP
import PushPreview
import Typography

enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve", synopsis: ["serve [PROJECT] [--port 8765] [--host 127.0.0.1] [options]"],
        summary: "live gallery: re-renders on every edit and shows it in open pages; takes pushes at an APNs-compatible endpoint",
        about: """
        Serves PROJECT's gallery (default Examples) at http://HOST:PORT/ and keeps it current: an edit
        to a payload, template, string, catalog, Info.plist, setting or media file draws again only
        the mock-ups it touches, and open pages swap the changed pictures in place. A template that
        no longer parses keeps its last good picture, with the finding on its card.

        POST /3/device/TOKEN takes pushes as APNs's provider API does (the same headers, statuses
        and reasons), over HTTP/2 with TLS (what provider libraries use), h2c or HTTP/1.1. Each push
        is kept as PROJECT/received/TIME-ID.apns and drawn in the page's Received section.
        """,
        positionals: [.init(name: "PROJECT", completes: .folder)],
        options: RenderOptions.sharedOptions(appearances: "both", views: "lockscreen, notification-center") + [
            .value("port", "N", "port to listen on, 0 to 65535 (default 8765; 0: any free port, printed)"),
            .value("host", "ADDR", "address to listen on (default 127.0.0.1; anything else is warned about unless --auth-key is given)"),
            .value("jobs", "N", "parallel workers, 1 to 16 (default 2)"),
            .value("topic", "ID", "the app's bundle ID: apns-topic must be it (default: the bundleId setting, else the Xcode app's PRODUCT_BUNDLE_IDENTIFIER; else any topic)"),
            .value("auth-key", "FILE", "token authentication: the team's AuthKey_KEYID.p8; requests then need a valid ES256 provider token", completes: .file),
            .value("team-id", "T", "the team ID the provider tokens must name (iss), with --auth-key"),
            .value("key-id", "K", "the key ID the tokens must name (kid), when the .p8 file's name does not say it"),
            .value("tls-cert", "FILE", "the certificate to serve TLS with (PEM; default: one made and kept in PROJECT/.pushpreview/tls/)", completes: .file),
            .value("tls-key", "FILE", "its private key (PEM), with --tls-cert", completes: .file),
        ],
        notes: "Stop with Ctrl-C. A second serve on the same port says the port is in use.",
        exits: [.init(0, "not used: serve runs until stopped; Ctrl-C (or SIGTERM) stops it cleanly and it ends by that signal"),
                .init(1, "could not start (the port is in use, the project cannot be read, a bad key or certificate)"),
                .init(2, "usage (an unknown option or device, a bad value)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        var options: RenderOptions
        var plan: WorkerPlan
        var port = 8765, jobs = 2
        do {
            a = try Arguments(argv, Self.spec)
            guard a.positionals.count <= 1 else { throw Arguments.UsageError(description: "give one PROJECT folder") }
            options = try RenderOptions(a, defaultAppearances: [.light, .dark])
            options.reviewVariants = true
            plan = try WorkerPlan(a)
            if let p = a.value("port") {
                guard let n = Int(p), n >= 0, n <= 65535 else { throw Arguments.UsageError(description: "--port takes a number from 0 to 65535") }
                port = n
            }
            if let j = a.value("jobs") {
                guard let n = Int(j), n >= 1, n <= 16 else { throw Arguments.UsageError(description: "--jobs takes a number from 1 to 16") }
                jobs = n
            }
            guard (a.value("auth-key") == nil) == (a.value("team-id") == nil) else { throw Arguments.UsageError(description: "--auth-key and --team-id go together") }
            guard (a.value("tls-cert") == nil) == (a.value("tls-key") == nil) else { throw Arguments.UsageError(description: "--tls-cert and --tls-key go together") }
        } catch { return usageError(Self.spec, error) }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let folder = URL(fileURLWithPath: a.positionals.first ?? "Examples").standardizedFileURL
        let host = a.value("host") ?? "127.0.0.1"
        do {
            let token = try a.value("auth-key").map { try ProviderToken(keyFile: URL(fileURLWithPath: $0), teamID: a.value("team-id")!, keyID: a.value("key-id")) }
            let tls = try a.value("tls-cert").map { try TLSIdentity(certificate: URL(fileURLWithPath: $0), key: URL(fileURLWithPath: a.value("tls-key")!)) }
                ?? TLSIdentity.kept(in: try ConfinedFolder(trusted: folder).folder(".pushpreview/tls", links: .refused, create: true), host: host)
            var setup = LiveGallery.Setup(folder: folder, templates: templates, fonts: try FontSet.standard(extraDirectories: a.list("font-dir")), options: options, workers: plan)
            setup.jobs = jobs
            let gallery = try LiveGallery(setup)
            let topic = a.value("topic") ?? gallery.bundleID
            let endpoint = APNsEndpoint(bundleID: topic, token: token)
            let log: @Sendable (String) -> Void = { printError($0) }
            gallery.log = log
            let site = ServeSite(gallery: gallery, endpoint: endpoint, host: host, log: log)
            let server = try HTTPServer(host: host, port: port, tls: tls) { site.handle($0) }
            let address = host.contains(":") ? "[\(host)]:\(server.port)" : "\(host):\(server.port)"
            gallery.endpointNote = "POST https://\(address)/3/device/TOKEN" + (token.map { " · provider tokens of key \($0.keyID), team \($0.teamID)" } ?? " · no token authentication")
                + (topic.map { " · apns-topic \($0)" } ?? " · any apns-topic")
            // Listening first: a second serve on the port says so at once, and pages and pushes
            // are taken while the gallery is first drawn.
            server.start()
            printError("pushpreview serve: drawing \(folder.lastPathComponent)…")
            try gallery.start()
            print("serving http://\(address)/ (the gallery, live) · APNs endpoint https://\(address)/3/device/TOKEN (also h2c and HTTP/1.1)")
            print("TLS certificate SHA-256 \(tls.fingerprint)")
            if !isLoopback(host) && token == nil {
                printError("pushpreview serve: warning: listening on \(host) without --auth-key: anyone who can reach it can send pushes and read the gallery")
            }
            if topic == nil { printError("pushpreview serve: warning: no bundle ID (--topic, bundleId in pushpreview.json, or the Xcode app's PRODUCT_BUNDLE_IDENTIFIER): every apns-topic is taken") }
            fflush(nil)
            // Ctrl-C: connections closed, workers stopped, then the process ends by the signal.
            ChildProcesses.onSignal {
                server.stop()
                gallery.stop()
                printError("pushpreview serve: stopped")
            }
            while true { pause() }
        } catch {
            printError("pushpreview serve: \(error)")
            return 1
        }
    }

    static func isLoopback(_ host: String) -> Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }
}
