import Testing
import Diagnostics
import Payload
import Formats

struct JSONParserTests {
    @Test func keepsBooleansAndOrder() throws {
        let v = try JSONParser.parse(Array(#"{"b": true, "a": 1, "s": "\u00e9\ud83d\ude00"}"#.utf8), file: "x.json")
        #expect(v["b"] == .bool(true) && v["a"] == .number(1) && v["s"] == .string("é😀"))
        guard case .object(let members) = v else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "s"])
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n  \"b\": }", 3, 8, "expected a JSON value"),
        ("{\"a\": 1", 1, 8, "} is missing"),
        ("{\"a\" 1}", 1, 6, "expected :"),
        ("[1, 2,]", 1, 7, "expected a JSON value"),
        ("{\"a\": \"line\nbreak\"}", 1, 12, "control character"),
        ("{\"a\": 01}", 1, 7, "not a JSON number"),
        ("", 1, 1, "end of file"),
    ])
    func errorsNameLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ words: String) {
        do {
            _ = try JSONParser.parse(Array(text.utf8), file: "p.apns")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.file == "p.apns" && error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(Array(deep.utf8), file: "deep.json") }
    }
}

struct PayloadParserTests {
    func parse(_ text: String) throws -> (Payload, [Diagnostic]) {
        try PayloadParser.parse(Array(text.utf8), file: "test.apns")
    }

    @Test func readsAlertDictionaryAndCustomKeys() throws {
        let (p, d) = try parse(#"{"Simulator Target Bundle": "com.x", "aps": {"alert": {"title": "T", "subtitle": "S", "body": "B"}, "badge": 2, "mutable-content": 1, "thread-id": "t"}, "image-url": "media/a.jpg"}"#)
        #expect(p.alert?.title == "T" && p.alert?.subtitle == "S" && p.alert?.body == "B")
        #expect(p.badge == 2 && p.mutableContent && p.threadId == "t" && p.targetBundle == "com.x")
        #expect(p.userInfo.map(\.key) == ["image-url"])
        #expect(d.isEmpty)
        #expect(p.size == #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"badge":2,"mutable-content":1,"thread-id":"t"},"image-url":"media/a.jpg"}"#.utf8.count)
    }

    /// A WidgetKit push (`apns-push-type: widgets`) is `{"aps": {"content-changed": true}}`: read,
    /// and not warned of as an alert with nothing to show; anything but true is said.
    @Test func widgetsPushPayload() throws {
        let (p, d) = try parse(#"{"aps": {"content-changed": true}}"#)
        #expect(p.contentChanged && p.alert == nil && d.isEmpty, "\(d)")
        let (q, e) = try parse(#"{"aps": {"content-changed": 1}}"#)
        #expect(!q.contentChanged && e.contains { $0.keyPath == "aps.content-changed" }, "\(e)")
    }

    @Test func alertStringIsTheBody() throws {
        #expect(try parse(#"{"aps": {"alert": "Hello"}}"#).0.alert?.body == "Hello")
    }

    @Test(arguments: [
        (#"{"aps": {"alert": {"title-loc-args": ["a", 3]}}}"#, "aps.alert.title-loc-args[1]: expected string, got number"),
        (#"{"aps": {"alert": 5}}"#, "aps.alert: expected string or object, got number"),
        (#"{"aps": {"badge": "3"}}"#, "aps.badge: expected a whole number"),
        (#"{"aps": []}"#, "aps: expected object, got array"),
        (#"{"alert": "x"}"#, "aps: missing"),
        (#"[1]"#, "expected an object"),
    ])
    func wrongTypesNameTheJSONPath(_ text: String, _ message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains("test.apns") && "\(error)".contains(message), "\(error)")
        }
    }

    @Test func flagsLikelyMistakes() throws {
        let (p, d) = try parse(#"{"aps": {"alert": {"title": "T", "title-loc-key": "K"}, "mutable-content": "1", "interruption-level": "urgent", "image-url": "x"}}"#)
        #expect(!p.mutableContent)
        let text = d.map(\.description).joined(separator: "\n")
        #expect(text.contains("aps.mutable-content: is the string \"1\""))
        #expect(text.contains("aps.interruption-level"))
        #expect(text.contains("aps.image-url: is not an Apple key"))
        #expect(text.contains("both title and title-loc-key"))
    }

    @Test func refusesPayloadsOverAPNsLimit() {
        let body = String(repeating: "x", count: 4100)
        #expect(throws: PayloadError.self) { try parse(#"{"aps": {"alert": "\#(body)"}}"#) }
        // The Simulator key is not sent, so it does not count.
        let fits = String(repeating: "y", count: 4000)
        #expect(throws: Never.self) { try parse(#"{"Simulator Target Bundle": "\#(fits)", "aps": {"alert": "hi"}}"#) }
    }

    @Test func refusesHugeFilesBeforeParsing() {
        let huge = [UInt8](repeating: 32, count: PayloadParser.maxFileSize + 1)
        #expect(throws: PayloadError.self) { try PayloadParser.parse(huge, file: "big.apns") }
    }
}
