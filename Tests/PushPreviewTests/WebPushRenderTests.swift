import Foundation
import PushPreview
import Testing

/// Whether Tests/Support/webpush-encrypt.py can run: it needs Python's `cryptography`.
let pythonCryptography: Bool = {
    (try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography.hazmat.primitives.ciphers.aead"]))?.status == 0
}()

/// Web Push end to end: messages that Python's `cryptography` encrypts for a new subscription
/// (Tests/Support/webpush-encrypt.py, which shares no code with ours), rendered by the CLI.
@Suite(.enabled(if: pythonCryptography, "python3 cannot import cryptography: install python3-cryptography (scripts/install-deps does)"))
struct WebPushRenderTests {
    struct Message: Decodable { var keys: [String: String]; var payload: [String: String] }

    /// Encrypts `plaintext`, writes a project around it and renders its banner.
    func render(_ coding: String, _ encoding: String, recordSize: Int = 4096, plaintext: String, decrypt: String,
                keys change: (inout [String: String]) -> Void = { _ in }) throws -> (result: MockupResult, page: String) {
        let script = repositoryRoot.appendingPathComponent("Tests/Support/webpush-encrypt.py").path
        let made = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, coding, encoding, String(recordSize), plaintext])
        #expect(made.status == 0, "\(made.stderr)")
        var message = try JSONDecoder().decode(Message.self, from: Data(made.stdout.utf8))
        change(&message.keys)
        let project = temporaryFolder()
        func write(_ path: String, _ data: Data) throws {
            let file = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        try write("pushpreview.json", Data(#"{"appName": "Harbor", "decrypt": \#(decrypt)}"#.utf8))
        try write("app-group/webpush.json", try JSONEncoder().encode(message.keys))
        var payload: [String: Any] = ["aps": ["alert": ["title": "Encrypted message", "body": "Open the app"], "mutable-content": 1]]
        payload.merge(message.payload) { a, _ in a }
        try write("payloads/message.apns", try JSONSerialization.data(withJSONObject: payload))

        let out = project.appendingPathComponent("out")
        let run = try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/message.apns").path, "--out", out.path, "--json", "--device", "iphone-17"])
        #expect(run.status == 0, "\(run.stderr)")
        let results = run.stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(MockupResult.self, from: Data($0.utf8)) }
        let banner = try #require(results.first { $0.view == "banner" }, "\(run.stdout)")
        let page = try String(contentsOfFile: try #require(banner.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        return (banner, page)
    }

    func decryptOutcome(_ result: MockupResult) -> String? { result.service.steps.first { $0.step == "decrypt" }?.outcome }

    @Test func anAes128gcmMessageRendersDecrypted() throws {
        let (result, page) = try render("aes128gcm", "base64url", plaintext: #"{"title": "Marta", "body": "Fender out, port side 🚤", "thread": "t1"}"#,
                                        decrypt: #"{"scheme": "webpush", "payloadKey": "p", "keys": "app-group/webpush.json"}"#)
        #expect(decryptOutcome(result) == "decrypted" && result.service.level == "full", "\(result.service)")
        #expect(page.contains("Marta") && page.contains("Fender out, port side") && !page.contains("Encrypted message"))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    /// Records of 40 bytes: Python cuts the body into several, each with its own nonce.
    @Test func aBodyOfManyRecordsRendersDecrypted() throws {
        let (result, page) = try render("aes128gcm", "base64url", recordSize: 40, plaintext: #"{"title": "Tide table", "body": "High water 14:02, low water 20:17, spring tide"}"#,
                                        decrypt: #"{"scheme": "webpush", "payloadKey": "p"}"#)
        #expect(decryptOutcome(result) == "decrypted", "\(result.service)")
        #expect(page.contains("Tide table") && page.contains("High water 14:02"))
    }

    /// The older coding as a fediverse relay forwards it: body, salt and sender key in z85.
    @Test func anAesgcmMessageInZ85RendersDecrypted() throws {
        let (result, page) = try render("aesgcm", "z85", plaintext: #"{"title": "Jonas boosted your post", "body": "Reef early tonight"}"#,
                                        decrypt: #"{"scheme": "webpush", "payloadKey": "p", "contentEncoding": "aesgcm", "saltKey": "s", "senderKeyKey": "k", "encoding": "z85"}"#)
        #expect(decryptOutcome(result) == "decrypted", "\(result.service)")
        #expect(page.contains("Jonas boosted your post") && page.contains("Reef early tonight"))
    }

    @Test func aWrongAuthSecretRendersTheOriginalWithAWarning() throws {
        let (result, page) = try render("aes128gcm", "base64url", plaintext: #"{"title": "Marta", "body": "Never shown"}"#,
                                        decrypt: #"{"scheme": "webpush", "payloadKey": "p"}"#, keys: { $0["auth"] = "AAAAAAAAAAAAAAAAAAAAAA" })
        #expect(decryptOutcome(result) == "failed" && result.service.level == "original")
        #expect(page.contains("Encrypted message") && !page.contains("Never shown"))
        #expect(result.warnings.contains { $0.hasPrefix("service stage, decrypt: failed: record 1 of 1: authentication failed") }, "\(result.warnings)")
    }
}
