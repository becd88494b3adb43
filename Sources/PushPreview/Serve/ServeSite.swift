import Checked
import ConfinedFiles
import Formats
import Foundation
import HTTP
import Imaging

/// Every request `serve` answers, whatever protocol brought it: the live page, its event stream,
/// the output folder's files (confined to it, as every path an input names is), and the APNs
/// endpoint. A request whose Host is not the server's own name is refused (DNS rebinding: a page
/// elsewhere that points a name at 127.0.0.1 reaches nothing), and nothing is written but
/// `received/`.
public struct ServeSite: Sendable {
    let gallery: LiveGallery
    let endpoint: APNsEndpoint
    let names: Set<String>
    let anyAddress: Bool
    /// Said when a push could not be kept (a full disk), for the log.
    let log: @Sendable (String) -> Void

    /// `host`: the name bound; loopback takes its other names too (localhost, 127.0.0.1, ::1).
    public init(gallery: LiveGallery, endpoint: APNsEndpoint, host: String, log: @escaping @Sendable (String) -> Void) {
        self.gallery = gallery; self.endpoint = endpoint; self.log = log
        let loopback: Set<String> = ["localhost", "127.0.0.1", "::1"]
        anyAddress = host == "0.0.0.0" || host == "::"
        var names: Set<String> = [host.lowercased()]
        if loopback.contains(host) || host.hasPrefix("127.") || anyAddress { names.formUnion(loopback) }
        if anyAddress {
            var buffer = [CChar](repeating: 0, count: 256)
            if gethostname(&buffer, buffer.count) == 0 { names.insert(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()) }
        }
        self.names = names
    }

    /// The name part of a Host header: `[::1]:8765` → `::1`, `localhost:8765` → `localhost`.
    static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<end]).lowercased() }
        if host.filter({ $0 == ":" }).count == 1 { return String(host.split(separator: ":")[0]).lowercased() }
        return host.lowercased()
    }

    func allows(host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        let name = Self.name(ofHost: host)
        if names.contains(name) { return true }
        // Bound to every address: any address literal is this machine's (no name can rebind to it).
        return anyAddress && (name.allSatisfy { $0.isNumber || $0 == "." } || name.contains(":"))
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard allows(host: request.host) else {
            return text(421, "this server answers to \(names.sorted().joined(separator: ", ")) only, not to Host \(request.host ?? "(none)")\n")
        }
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        if path.hasPrefix("/3/") {
            let outcome = endpoint.evaluate(request)
            if case .accepted(let push) = outcome {
                do { try gallery.take(push) } catch {
                    log("serve: could not keep push \(push.id): \(error)")
                    return APNsEndpoint.response(.refused(status: 500, reason: "InternalServerError", id: push.id))
                }
            }
            return APNsEndpoint.response(outcome)
        }
        if path == "/viewing" { return viewing(request) }
        if path == "/approve" { return approve(request) }
        guard request.method == "GET" || request.method == "HEAD" else { return text(405, "\(request.method) is not served here\n", ["allow": "GET, HEAD"]) }
        var response: HTTPResponse
        switch path {
        case "/", "/index.html":
            response = HTTPResponse(status: 200, headers: [("content-type", "text/html; charset=utf-8"), ("cache-control", "no-store")], body: gallery.pageBytes)
        case "/events":
            // Each open page holds a connection for as long as it is open: a few dozen is many
            // tabs, more is a client holding the server's places (they would never be freed).
            guard gallery.hub.count < Self.maxOpenPages else {
                return text(503, "\(Self.maxOpenPages) pages are already open on this server; close some and reload\n", ["retry-after": "5"])
            }
            return HTTPResponse(events: gallery.hub.subscribe())
        case _ where path.hasPrefix("/difference/"):
            response = difference(String(path.dropFirst("/difference/".count)))
        default:
            response = file(path)
        }
        response.headers += [("x-content-type-options", "nosniff"), ("referrer-policy", "no-referrer")]
        if request.method == "HEAD" { response.body = .bytes([]) }
        return response
    }

    static let types = ["png": "image/png", "html": "text/html; charset=utf-8", "json": "application/json", "jpg": "image/jpeg", "jpeg": "image/jpeg",
                        "gif": "image/gif", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "m4a": "audio/mp4", "mp3": "audio/mpeg",
                        "wav": "audio/wav", "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8"]
    /// Files of the output folder only, by the one confinement rule (a symlink that leads out is
    /// refused like `..`), of the kinds the gallery writes, each with a locked-down policy.
    static let filePolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'"
    static let largestFile = 64 << 20
    /// Event streams (open pages) at once.
    static let maxOpenPages = 64

    func file(_ path: String) -> HTTPResponse {
        guard let relative = Confinement.relativeURLPath(String(path.dropFirst())), !relative.isEmpty,
              !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
              let type = Self.types[URL(fileURLWithPath: relative).pathExtension.lowercased()] else { return text(404, "not found\n") }
        let data: [UInt8]
        do { data = try gallery.out.read(relative, limit: Self.largestFile) } catch {
            if case .tooLarge = error.reason { return text(413, "\(relative) is larger than \(Self.largestFile >> 20) MB; open it from the output folder\n") }
            return text(404, "not found\n")
        }
        return HTTPResponse(status: 200, headers: [("content-type", type), ("content-security-policy", Self.filePolicy), ("cache-control", "no-cache")], body: data)
    }

    /// GET /difference/PATH: a picture against the one before it (`previous/PATH`), drawn as
    /// `diff` draws it — the picture now faded to grey, the pixels that differ red — when asked.
    func difference(_ path: String) -> HTTPResponse {
        guard let relative = Confinement.relativeURLPath(path), relative.hasSuffix(".png"),
              !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return text(404, "not found\n") }
        do {
            let before = try PNGCodec.decode(try gallery.out.read("previous/" + relative, limit: Self.largestFile))
            let now = try PNGCodec.decode(try gallery.out.read(relative, limit: Self.largestFile))
            let drawn = PixelDifference.compare(before, now, threshold: OutputDiff.defaultThreshold)
            let bytes = try drawn.highlight.map { h in
                try h.bgra.withUnsafeBufferPointer { try PNGCodec.encodeOpaqueBGRA($0.baseAddress!, width: h.width, height: h.height, stride: h.width * 4) }
            } ?? (try gallery.out.read(relative, limit: Self.largestFile))
            return HTTPResponse(status: 200, headers: [("content-type", "image/png"), ("content-security-policy", Self.filePolicy), ("cache-control", "no-cache"),
                                                       ("x-differing-share", String(format: "%.6f", drawn.share))], body: bytes)
        } catch {
            return text(404, "no picture before \(relative) to compare with\n")
        }
    }

    /// POST /viewing `{"cards": [ID…]}`: the cards the page shows, to draw first. JSON only, so
    /// a page elsewhere cannot send it without a preflight this server never answers.
    func viewing(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "POST" else { return text(405, "\(request.method) is not served here\n", ["allow": "POST"]) }
        guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
            return text(415, "send the cards in view as application/json: {\"cards\": [ID…]}\n")
        }
        guard !request.bodyTooLarge, request.body.count <= Self.largestViewing,
              case .array(let items)? = (try? JSONParser.parse(request.body, file: "request"))?["cards"],
              case let cards = items.compactMap(\.string), cards.count == items.count else {
            return text(400, "expected {\"cards\": [ID…]} of at most \(Self.largestViewing >> 10) kB\n")
        }
        gallery.viewing(cards)
        return HTTPResponse(status: 204, headers: [("cache-control", "no-store")])
    }
    static let largestViewing = 32 << 10

    /// POST /approve `{"card": ID, "approved": true|false}`: approves the card as its pictures are
    /// now, or takes that back, in the project's `pushpreview-approved.json`.
    func approve(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "POST" else { return text(405, "\(request.method) is not served here\n", ["allow": "POST"]) }
        guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
            return text(415, "send {\"card\": ID, \"approved\": true} as application/json\n")
        }
        guard !request.bodyTooLarge, request.body.count <= Self.largestViewing,
              let object = try? JSONParser.parse(request.body, file: "request"),
              let card = object["card"]?.string, case .bool(let approved)? = object["approved"] else {
            return text(400, "expected {\"card\": ID, \"approved\": true|false}\n")
        }
        do {
            guard try gallery.approve(card, approved) else { return text(404, "no card \(card.prefix(200))\n") }
        } catch {
            log("serve: could not write \(Approvals.fileName): \(error)")
            return text(500, "could not write \(Approvals.fileName): \(error)\n")
        }
        return HTTPResponse(status: 204, headers: [("cache-control", "no-store")])
    }

    func text(_ status: Int, _ message: String, _ extra: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "text/plain; charset=utf-8")] + extra.map { ($0.key, $0.value) }, body: Array(message.utf8))
    }
}
