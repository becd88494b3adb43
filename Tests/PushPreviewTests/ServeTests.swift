import Foundation
@testable import HTTP
@testable import PushPreview
import Testing

/// `pushpreview serve` as people run it: the real binary on 127.0.0.1 (any free port), spoken
/// to by curl, a real APNs provider library, headless Chromium and raw sockets.
@Suite(.serialized) struct ServeTests {
    static let bundleID = "com.example.ferry"
    static let keyID = "KEY1234567", teamID = "TEAM765432"

    /// A served copy of Examples with two payloads, one device, light, English.
    final class Served {
        let process = Process()
        let project: URL, out: URL, log: URL
        private(set) var port = 0
        var base: String { "http://127.0.0.1:\(port)" }
        var certificate: URL { project.appendingPathComponent(".pushpreview/tls/server.pem") }

        /// `prepare`: changes to the project (and its output folder) before serve starts.
        init(_ extra: [String] = [], payloads: [String] = ["localized-boarding.apns", "plain-alert.apns"], name: String = #function,
             prepare: ((_ project: URL, _ out: URL) throws -> Void)? = nil) throws {
            project = try examplesCopy(payloads: payloads, name)
            var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("pushpreview.json"))) as! [String: Any]
            settings["bundleId"] = ServeTests.bundleID
            try JSONSerialization.data(withJSONObject: settings).write(to: project.appendingPathComponent("pushpreview.json"))
            out = project.deletingLastPathComponent().appendingPathComponent("Output")
            log = project.deletingLastPathComponent().appendingPathComponent("serve.log")
            let stdout = project.deletingLastPathComponent().appendingPathComponent("serve.out")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
            try prepare?(project, out)
            process.executableURL = pushpreviewBinary
            process.arguments = ["serve", project.path, "--out", out.path, "--port", "0", "--device", "iphone-17", "--appearance", "light", "--locale", "en"] + extra
            process.standardOutput = try FileHandle(forWritingTo: stdout)
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let deadline = Date(timeIntervalSinceNow: 180)
            while Date() < deadline, process.isRunning {
                let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("serving http://127.0.0.1:") }),
                   let p = Int(line.dropFirst("serving http://127.0.0.1:".count).prefix { $0.isNumber }) {
                    port = p
                    return
                }
                usleep(50_000)
            }
            process.terminate()
            throw Failure(description: "serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }

        struct Failure: Error, CustomStringConvertible { var description: String }

        /// Ctrl-C, and what it said.
        func stop() -> (status: Int32, reason: Process.TerminationReason, log: String) {
            if process.isRunning { kill(process.processIdentifier, SIGINT) }
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }

        /// curl: the status, the response headers and the body.
        func curl(_ arguments: [String]) throws -> (status: Int, headers: String, body: String) {
            let folder = project.deletingLastPathComponent()
            let headers = folder.appendingPathComponent("headers.txt"), body = folder.appendingPathComponent("body.txt")
            let run = try runProcess(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", body.path, "-D", headers.path, "-w", "%{http_code}", "--max-time", "30"] + arguments)
            return (Int(run.stdout) ?? -1, (try? String(contentsOf: headers, encoding: .utf8)) ?? "", (try? String(contentsOf: body, encoding: .utf8)) ?? "")
        }

        /// A push over HTTP/2 with TLS, the certificate checked against the one serve made.
        func push(_ headers: [String: String], body: String, token: String = "aabbccdd", method: String = "POST", path: String? = nil) throws -> (status: Int, headers: String, body: String) {
            var arguments = ["--http2", "--cacert", certificate.path, "-X", method, "https://127.0.0.1:\(port)\(path ?? "/3/device/\(token)")", "--data-binary", body]
            for (k, v) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(k): \(v)"] }
            return try curl(arguments)
        }

        func waitFor(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline { if condition() { return true }; usleep(50_000) }
            return false
        }

        var page: String { (try? String(contentsOf: URL(string: base + "/")!, encoding: .utf8)) ?? "" }
        var received: [String] { (try? FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("received").path))?.sorted() ?? [] }
    }

    /// An APNs auth key (a P-256 key in PKCS #8, as Apple's .p8 files are), made by openssl.
    static func authKey(in folder: URL, id: String = keyID) throws -> URL {
        let key = folder.appendingPathComponent("AuthKey_\(id).p8")
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/openssl"), ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
        #expect(run.status == 0, "\(run.stderr)")
        return key
    }

    /// A provider token signed by PyJWT (not our code), `age` seconds old.
    static func jwt(key: URL, keyID: String = keyID, teamID: String = teamID, age: Int = 0) throws -> String {
        let script = "import jwt, sys, time; print(jwt.encode({'iss': sys.argv[2], 'iat': int(time.time()) - int(sys.argv[4])}, open(sys.argv[1]).read(), algorithm='ES256', headers={'kid': sys.argv[3]}))"
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, key.path, teamID, keyID, String(age)])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func answersAsAPNsDoesOverHTTP2WithTLS() throws {
        let folder = temporaryFolder()
        let key = try Self.authKey(in: folder), otherKey = try Self.authKey(in: folder, id: "OTHER12345")
        let served = try Served(["--auth-key", key.path, "--team-id", Self.teamID])
        defer { _ = served.stop() }
        let good = try Self.jwt(key: key)
        let auth = ["authorization": "bearer \(good)", "apns-topic": Self.bundleID, "apns-push-type": "alert"]
        let payload = #"{"aps":{"alert":{"title":"Gate change","body":"Now boarding at gate 4"}}}"#
        func with(_ changes: [String: String?]) -> [String: String] {
            var h = auth
            for (k, v) in changes { h[k] = v }
            return h
        }
        let cases: [(String, [String: String], String, String, Int, String)] = [
            ("wrong topic", with(["apns-topic": "com.example.other"]), payload, "aabbccdd", 400, "TopicDisallowed"),
            ("no topic", with(["apns-topic": nil]), payload, "aabbccdd", 400, "MissingTopic"),
            ("bad device token", auth, payload, "not-hex!", 400, "BadDeviceToken"),
            ("bad priority", with(["apns-priority": "7"]), payload, "aabbccdd", 400, "BadPriority"),
            ("bad push type", with(["apns-push-type": "banner"]), payload, "aabbccdd", 400, "InvalidPushType"),
            ("empty payload", auth, "", "aabbccdd", 400, "PayloadEmpty"),
            ("collapse id over 64 bytes", with(["apns-collapse-id": String(repeating: "c", count: 65)]), payload, "aabbccdd", 400, "BadCollapseId"),
            ("bad expiration", with(["apns-expiration": "tomorrow"]), payload, "aabbccdd", 400, "BadExpirationDate"),
            ("bad apns-id", with(["apns-id": "not-a-uuid"]), payload, "aabbccdd", 400, "BadMessageId"),
            ("oversized body", auth, #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#, "aabbccdd", 413, "PayloadTooLarge"),
            ("no token", with(["authorization": nil]), payload, "aabbccdd", 403, "MissingProviderToken"),
            ("a token of another key", with(["authorization": "bearer \(try Self.jwt(key: otherKey))"]), payload, "aabbccdd", 403, "InvalidProviderToken"),
            ("a token of another team", with(["authorization": "bearer \(try Self.jwt(key: key, teamID: "NOTMYTEAM1"))"]), payload, "aabbccdd", 403, "InvalidProviderToken"),
            ("not a JWT", with(["authorization": "bearer abc.def"]), payload, "aabbccdd", 403, "InvalidProviderToken"),
            ("a token two hours old", with(["authorization": "bearer \(try Self.jwt(key: key, age: 7200))"]), payload, "aabbccdd", 403, "ExpiredProviderToken"),
        ]
        for (what, headers, body, token, status, reason) in cases {
            let r = try served.push(headers, body: body, token: token)
            #expect(r.status == status && r.body.contains("\"reason\":\"\(reason)\"") && r.headers.lowercased().contains("apns-id:"),
                    "\(what): \(r.status) \(r.body)")
            #expect(r.headers.hasPrefix("HTTP/2"), "\(what): \(r.headers.prefix(20))")
        }
        let method = try served.push(auth, body: payload, method: "GET")
        #expect(method.status == 405 && method.body.contains("MethodNotAllowed"), "\(method)")
        let path = try served.push(auth, body: payload, path: "/3/devices/aabb")
        #expect(path.status == 404 && path.body.contains("BadPath"), "\(path)")
        // Accepted: 200 with the apns-id the request gave, kept in received/ and drawn.
        let id = "6f1c5b4e-9a47-4e0c-8a3c-2b1d5c6e7f80"
        let ok = try served.push(with(["apns-id": id.uppercased()]), body: payload)
        #expect(ok.status == 200 && ok.headers.lowercased().contains("apns-id: \(id)"), "\(ok)")
        #expect(served.received.count == 1, "\(served.received)")
        #expect(served.waitFor { served.page.contains(id) && served.page.contains("-expanded.png?v=") && !served.page.contains("Drawing…") },
                "the push is not drawn in the page")
        let stopped = served.stop()
        #expect(stopped.reason == .uncaughtSignal && stopped.status == SIGINT && stopped.log.contains("stopped"), "\(stopped)")
    }

    @Test func h2cAndHTTP1AnswerTheSame() throws {
        let served = try Served()
        defer { _ = served.stop() }
        let url = "\(served.base)/3/device/aabbccdd"
        var ids: [String] = []
        for transport in [["--http2-prior-knowledge"], ["--http1.1"]] {
            let wrong = try served.curl(transport + ["-H", "apns-topic: com.example.other", "--data-binary", #"{"aps":{"alert":"x"}}"#, url])
            #expect(wrong.status == 400 && wrong.body == #"{"reason":"TopicDisallowed"}"#, "\(transport): \(wrong)")
            let big = try served.curl(transport + ["--data-binary", String(repeating: "x", count: 5000), url])
            #expect(big.status == 413 && big.body.contains("PayloadTooLarge"), "\(transport): \(big)")
            let ok = try served.curl(transport + ["-H", "apns-topic: \(Self.bundleID)", "-H", "apns-collapse-id: same", "--data-binary", #"{"aps":{"alert":{"title":"Collapsed \#(transport[0])"}}}"#, url])
            #expect(ok.status == 200, "\(transport): \(ok)")
            ids += ok.headers.lowercased().split(separator: "\r\n").filter { $0.hasPrefix("apns-id: ") }.map { String($0.dropFirst("apns-id: ".count)) }
            #expect(ok.headers.hasPrefix(transport[0] == "--http1.1" ? "HTTP/1.1" : "HTTP/2"), "\(ok.headers.prefix(20))")
        }
        // Same collapse id: the second replaces the first in the page, as on a device; both are kept on disk.
        #expect(served.received.count == 2)
        #expect(ids.count == 2)
        #expect(served.waitFor { served.page.contains(ids.last ?? "?") && !served.page.contains(ids.first ?? "?") && served.page.contains("1 replaced") },
                "\(served.page.components(separatedBy: "<section id=\"received\"").dropFirst().first?.prefix(600) ?? "")")
    }

    @Test func aRealAPNsClientLibraryDeliversToThePage() throws {
        let library = repositoryRoot.appendingPathComponent(".build/python/aioapns-4.0")
        guard FileManager.default.fileExists(atPath: library.path) else {
            Issue.record("aioapns is not installed (make deps installs it into .build/python): no real APNs client was tried")
            return
        }
        let folder = temporaryFolder()
        let key = try Self.authKey(in: folder)
        let served = try Served(["--auth-key", key.path, "--team-id", Self.teamID])
        defer { _ = served.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = library.path
        let script = repositoryRoot.appendingPathComponent("Tests/Support/apns-client.py").path
        let send = { (topic: String, title: String) in
            try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [script, "127.0.0.1", String(served.port), served.certificate.path, key.path,
                                                                   Self.keyID, Self.teamID, topic, "a1b2c3d4e5f60718", title], environment: environment)
        }
        let sent = try send(Self.bundleID, "Sent through aioapns")
        #expect(sent.status == 0 && sent.stdout.contains("\"ok\": true"), "\(sent.stdout) \(sent.stderr)")
        let id = sent.stdout.components(separatedBy: "\"id\": \"").dropFirst().first?.prefix { $0 != "\"" } ?? "?"
        #expect(served.waitFor { served.page.contains(String(id)) && !served.page.contains("Drawing…") }, "the push \(id) is not drawn in the page")
        let kept = served.received.first.flatMap { try? String(contentsOf: served.project.appendingPathComponent("received/\($0)"), encoding: .utf8) } ?? ""
        #expect(kept.contains("Sent through aioapns"), "received/ keeps the payload as sent: \(kept)")
        let drawn = try FileManager.default.contentsOfDirectory(atPath: served.out.appendingPathComponent("received").path).filter { !$0.hasPrefix("media") }
        #expect(drawn.count == 1)
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: served.out.appendingPathComponent("received/\(drawn.first ?? "")").path)) ?? []
        #expect(pictures.contains { $0.hasSuffix("-banner.png") } && pictures.contains { $0.hasSuffix("-expanded.png") }, "\(pictures)")
        let refused = try send("com.example.not-the-app", "Refused")
        #expect(refused.stdout.contains("TopicDisallowed"), "\(refused.stdout) \(refused.stderr)")
    }

    @Test func theOpenPageFollowsATemplateEdit() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            Issue.record("Chromium is not installed (make deps installs it): the live page was not checked in a browser")
            return
        }
        let served = try Served()
        defer { _ = served.stop() }
        // The page tells which cards it shows (JSON only: a form elsewhere cannot send it).
        let card = #"{"cards": ["payloads/localized-boarding.apns|iphone-15|light|en|"]}"#
        #expect(try served.curl(["-X", "POST", "-H", "content-type: application/json", "--data-binary", card, "\(served.base)/viewing"]).status == 204)
        #expect(try served.curl(["-X", "POST", "-H", "content-type: text/plain", "--data-binary", card, "\(served.base)/viewing"]).status == 415)
        #expect(try served.curl(["-X", "POST", "-H", "content-type: application/json", "--data-binary", "[1]", "\(served.base)/viewing"]).status == 400)
        #expect(try served.curl(["\(served.base)/viewing"]).status == 405)
        let check = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/live-check.py").path, served.base + "/",
                                                                        served.project.appendingPathComponent("Templates/boarding-pass.html").path, "localized-boarding", "#1fb5a8", "#d4145a"])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
    }

    @Test func hostileRequestsAreRefusedAndTheServerKeepsServing() throws {
        let served = try Served()
        defer { _ = served.stop() }
        // A symlink put into the output folder that leads out of it.
        try FileManager.default.createSymbolicLink(atPath: served.out.appendingPathComponent("leak.png").path, withDestinationPath: "/etc/passwd")
        let check = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/hostile-http.py").path, String(served.port), "leak.png"])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        // The same limits over HTTP/2: a 10 MB body and 100 KB of headers.
        let body = served.project.deletingLastPathComponent().appendingPathComponent("big.json")
        try Data(repeating: 0x78, count: 10 << 20).write(to: body)
        let big = try served.curl(["--http2-prior-knowledge", "--data-binary", "@\(body.path)", "\(served.base)/3/device/aabb", "-H", "apns-topic: \(Self.bundleID)"])
        #expect(big.status == 413 && big.body.contains("PayloadTooLarge"), "\(big.status) \(big.body.prefix(80))")
        let headers = try served.curl(["--http2-prior-knowledge", "-H", "x-big: \(String(repeating: "h", count: 60_000))", "\(served.base)/"])
        #expect(headers.status == 431 || headers.status == -1 || headers.status == 0, "\(headers.status)")
        #expect(try served.curl(["\(served.base)/"]).status == 200)
        // Nothing was written but received/ (no push was accepted here).
        #expect(served.received.isEmpty)
    }

    /// Issue 34, problem 10's smaller parts: HTTP/1.1 took 32 KB of headers where README says
    /// 16 KB (HTTP/2 kept to it), two different `Content-Length`s were accepted (RFC 9112: 400),
    /// and full-width "hex" device tokens passed (APNs: BadDeviceToken).
    @Test func headerLimitsLengthsAndTokensAreAPNsOwn() throws {
        let served = try Served(payloads: ["plain-alert.apns"])
        defer { _ = served.stop() }
        let script = """
        import socket, sys
        def ask(raw):
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
            s.sendall(raw)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            return data.split(b"\\r\\n")[0].decode()
        body = b'{"aps":{"alert":"Hi"}}'
        head = "POST /3/device/aabbccdd HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\napns-topic: \(Self.bundleID)\\r\\n"
        print(ask(b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX-Big: " + b"h" * 20000 + b"\\r\\n\\r\\n"))
        print(ask(b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX-Big: " + b"h" * 15000 + b"\\r\\n\\r\\n"))
        print(ask(head.encode() + b"Content-Length: 22\\r\\nContent-Length: 5\\r\\n\\r\\n" + body))
        """
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, String(served.port)])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.stdout) \(run.stderr)")
        #expect(lines.first?.hasPrefix("HTTP/1.1 431") == true, "20 KB of headers: \(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("HTTP/1.1 200") == true, "15 KB of headers: \(lines)")
        #expect(lines.last?.hasPrefix("HTTP/1.1 400") == true, "two Content-Lengths: \(lines)")
        let h2 = try served.curl(["--http2-prior-knowledge", "-H", "x-big: \(String(repeating: "h", count: 20_000))", "\(served.base)/"])
        #expect(h2.status == 431 || h2.status == 0, "HTTP/2, 20 KB of headers: \(h2.status)")
        let fullWidth = try served.push(["apns-topic": Self.bundleID, "apns-push-type": "alert"], body: #"{"aps":{"alert":"Hi"}}"#, token: "\u{FF10}\u{FF11}aabb")
        #expect(fullWidth.status == 400 && fullWidth.body.contains("BadDeviceToken"), "\(fullWidth)")
    }

    /// `received/` grew without bound: it keeps the newest `--keep-received` pushes.
    @Test func receivedKeepsTheNewestPushes() throws {
        let served = try Served(["--keep-received", "3"], payloads: ["plain-alert.apns"])
        defer { _ = served.stop() }
        for i in 0..<5 {
            let r = try served.push(["apns-topic": Self.bundleID, "apns-push-type": "alert", "apns-id": "00000000-0000-0000-0000-00000000000\(i)"], body: #"{"aps":{"alert":"Push \#(i)"}}"#)
            #expect(r.status == 200, "\(r)")
            usleep(20_000)  // names sort by arrival time, to the millisecond
        }
        #expect(served.received.count == 3 && served.received.allSatisfy { !$0.hasSuffix("0.apns") && !$0.hasSuffix("1.apns") }, "\(served.received)")
    }

    /// iOS 26's WidgetKit pushes: taken on the app's `.push-type.widgets` topic only, and drawn as
    /// no alert; a payload without `content-changed: true` is said to be one WidgetKit ignores.
    @Test func widgetsPushesAreTakenAndDrawnAsNoAlert() throws {
        let served = try Served(payloads: ["plain-alert.apns"])
        defer { _ = served.stop() }
        let widgets = ["apns-topic": Self.bundleID + ".push-type.widgets", "apns-push-type": "widgets", "apns-priority": "5"]
        let good = try served.push(widgets.merging(["apns-id": "00000000-0000-0000-0000-00000000000a"]) { $1 }, body: #"{"aps":{"content-changed":true}}"#)
        #expect(good.status == 200, "\(good)")
        let topic = try served.push(["apns-topic": Self.bundleID, "apns-push-type": "widgets"], body: #"{"aps":{"content-changed":true}}"#)
        #expect(topic.status == 400 && topic.body.contains("TopicDisallowed"), "\(topic)")
        let bare = try served.push(widgets.merging(["apns-id": "00000000-0000-0000-0000-00000000000b"]) { $1 }, body: #"{"aps":{}}"#)
        #expect(bare.status == 200, "\(bare)")
        #expect(served.waitFor { served.page.components(separatedBy: "apns-push-type widgets: no alert").count == 3 }, "\(served.page.suffix(3000))")
        #expect(served.page.components(separatedBy: "content-changed").count == 2, "only the bare push is said to lack content-changed")
    }

    @Test func aSecondServeOnThePortSaysSo() throws {
        let served = try Served()
        defer { _ = served.stop() }
        let second = try runProcess(pushpreviewBinary, ["serve", served.project.path, "--out", served.out.path + "-2", "--port", String(served.port)])
        #expect(second.status == 1 && second.stderr.contains("already in use"), "\(second.stderr)")
        let elsewhere = try runProcess(pushpreviewBinary, ["serve", served.project.path, "--port", "99999"])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("--port"), "\(elsewhere.stderr)")
        // Ctrl-C leaves no worker behind.
        let pid = served.process.processIdentifier
        _ = served.stop()
        let children = try runProcess(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", String(pid)])
        #expect(children.stdout.isEmpty, "left running: \(children.stdout)")
    }

    /// The load `make bench` runs for a minute, bounded to a few seconds: 20 pages on the event
    /// stream and pushes at 50 a second; every push is accepted and kept, every page keeps up.
    @Test func underLoadNoPushIsLostAndEveryPageKeepsUp() throws {
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("scripts/bench-serve.py").path, pushpreviewBinary.path,
                                                                      "--seconds", "2", "--rate", "50", "--pages", "20", "--edits", "2", "--check"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("to keep: True"), "\(run.stdout)")
    }

    // What an edit touches, asked of a report.
    @Test func anEditTouchesOnlyWhatReadsIt() throws {
        let project = try Project(folder: examples)
        let templates = repositoryRoot.appendingPathComponent("Templates")
        func input(_ payload: String, template: String?) -> GalleryReport.Input {
            var m = MockupResult(payload: payload, device: "iphone-17", appearance: "light")
            m.content = template.map { ContentReport(category: nil, customViewHeight: 0, clippedBy: 0, template: $0) }
            return GalleryReport.Input(payload: payload, category: nil, outcome: "rendered", key: "", mockups: [m])
        }
        let report = GalleryReport(tool: "", project: "", devices: [], deviceProfiles: [], appearances: [], locales: [], shard: nil, summary: .init(),
                                   inputs: [input("payloads/a.apns", template: "Templates/boarding-pass.html"), input("payloads/b.apns", template: "stock/image.html"), input("payloads/c.apns", template: nil)])
        let at = { (path: String) in EditPlan.touched(by: [project.folder.path + "/" + path], project: project, templates: templates, report: report) }
        #expect(at("payloads/c.apns") == EditPlan(payloads: ["payloads/c.apns"]))
        #expect(at("Templates/boarding-pass.html") == EditPlan(payloads: ["payloads/a.apns"]))
        #expect(EditPlan.touched(by: [templates.path + "/stock/image.html"], project: project, templates: templates, report: report) == EditPlan(payloads: ["payloads/b.apns"]))
        #expect(at("Templates/icons/x.png") == EditPlan(payloads: nil))
        #expect(at("categories.json") == EditPlan(payloads: nil, readProjectAgain: true))
        #expect(at("received/x.apns") == EditPlan(payloads: []))
        // A template added or removed may change which category has one: every payload.
        let added = project.folder.path + "/Templates/new-category.html"
        #expect(EditPlan.touched(by: [added], addedOrRemoved: [added], project: project, templates: templates, report: report) == EditPlan(payloads: nil))
        #expect(EditPlan.touched(by: [added], project: project, templates: templates, report: report) == EditPlan(payloads: []), "an edit to a template no payload draws with")
    }

    @Test func aSlowPageLosesItsOldestEventsAndIsToldToReload() {
        let hub = EventHub()
        let page = hub.subscribe()
        for i in 0..<(EventHub.queueLimit + 5) { hub.publish(event: "changed", data: "{\"n\":\(i)}") }
        let first = String(decoding: page.next(waiting: 1) ?? [], as: UTF8.self)
        #expect(first.hasPrefix("event: reload") && first.contains("\"n\":\(EventHub.queueLimit)}"), "\(first)")
        for i in (EventHub.queueLimit + 1)..<(EventHub.queueLimit + 5) {
            #expect(String(decoding: page.next(waiting: 1) ?? [], as: UTF8.self).contains("\"n\":\(i)}"))
        }
        #expect(String(decoding: page.next(waiting: 0.05) ?? [], as: UTF8.self).hasPrefix(":"), "a keep-alive when quiet")
        hub.close()
        #expect(page.next(waiting: 1) == nil)
    }
}
