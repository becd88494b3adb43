import Foundation
import Payload
@testable import ServiceStage
import Templating
import Testing
import Formats

/// Issue 16: key paths wherever a key is named (mediaKeys, attachment options, enrich keys),
/// arrays indexed, a missing or wrong-typed step a warning; and the `set` step writing every
/// field an extension may change.
struct KeyPathTests {
    @Test func lookups() throws {
        let value: [AnyHashable: Any] = ["attachment": ["url": "a.jpg", "hide-thumbnail": true], "items": [["url": "0.jpg"], ["url": "1.jpg"]],
                                         "com.example.url": "dotted.jpg", "count": 3]
        #expect(KeyPath("attachment.url").lookup(in: value).value as? String == "a.jpg")
        #expect(KeyPath("items.1.url").lookup(in: value).value as? String == "1.jpg")
        #expect(KeyPath("com.example.url").lookup(in: value).value as? String == "dotted.jpg")
        guard case .missing(let at) = KeyPath("items.2.url").lookup(in: value) else { Issue.record("items.2 found"); return }
        #expect(at == "items.2")
        guard case .missing(let at2) = KeyPath("attachment.thumb.url").lookup(in: value) else { Issue.record("attachment.thumb found"); return }
        #expect(at2 == "attachment.thumb")
        guard case .wrongType(let at3, let found) = KeyPath("count.value").lookup(in: value) else { Issue.record("count.value found"); return }
        #expect(at3 == "count" && found == "a number")
        guard case .wrongType(_, let found2) = KeyPath("items.url").lookup(in: value) else { Issue.record("items.url found"); return }
        #expect(found2.contains("index it with a number"))
        guard case .wrongType = KeyPath("items.-1").lookup(in: value) else { Issue.record("items.-1 found"); return }
    }

    /// mediaKeys and attachment options at nested paths: the attachment is made, the app's own
    /// option name is read; a wrong-typed step is a trace warning, never a crash.
    @Test func nestedMediaAndOptions() throws {
        let p = ScratchProject()
        try p.write("media/chart.jpg", testJPEG)
        var settings = ServiceSettings()
        settings.mediaKeys = ["attachment.url", "items.0.url"]
        settings.attachmentOptions = ["thumbnail-hidden": "attachment.hide-thumbnail"]
        let n = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "attachment": {"url": "media/chart.jpg", "hide-thumbnail": true}, "items": [{"url": "media/chart.jpg"}]}"#, settings: settings)
        #expect(n.attachments.count == 2 && n.attachments.allSatisfy(\.thumbnailHidden), "\(n.trace.steps)")
        settings.attachmentOptions = [:]
        #expect(try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "attachment": {"url": "media/chart.jpg", "hide-thumbnail": true}}"#, settings: settings)
            .attachments.map(\.thumbnailHidden) == [false], "without the mapping the app's own name means nothing")

        let wrong = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "attachment": "media/chart.jpg", "items": {"0": 5}}"#, settings: settings)
        #expect(wrong.attachments.isEmpty)
        #expect(wrong.trace.steps.contains { $0.step == "attach" && $0.message.contains("mediaKeys attachment.url: attachment is a string, not an object") }, "\(wrong.trace.steps)")
        #expect(wrong.trace.steps.contains { $0.step == "attach" && $0.message.contains("items.0.url") })
        // A nested media URL not named in mediaKeys is said, with its path.
        let unnamed = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "post": {"images": ["https://example.com/a.jpg"]}}"#, settings: settings)
        #expect(unnamed.trace.steps.contains { $0.outcome == "not attached" && $0.message.hasPrefix("post.images.0:") }, "\(unnamed.trace.steps)")
    }

    @Test func enrichLooksUpAKeyPath() throws {
        let p = ScratchProject()
        try p.write("app-group/people.json", #"{"u1": {"name": "Marta"}}"#)
        var settings = ServiceSettings()
        settings.enrich = [.init(key: "sender.id", data: "app-group/people.json", set: [("title", "{{name}} ({{userInfo.sender.id}})")])]
        let n = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "sender": {"id": "u1"}}"#, settings: settings)
        #expect(n.title == "Marta (u1)", "\(n.trace.steps)")
        let wrong = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "sender": ["u1"]}"#, settings: settings)
        #expect(wrong.title == "T" && wrong.trace.steps.contains { $0.step == "enrich" && $0.message.contains("sender") && $0.message.contains("an array") })
    }

    /// Mustache indexes arrays and has first and last.
    @Test func mustacheIndexesArrays() throws {
        let data = TemplateValue.object(["items": .list([.object(["url": .string("a")]), .object(["url": .string("b")]), .object(["url": .string("c")])])])
        #expect(try MustacheTemplate("{{items.0.url}} {{items.first.url}} {{items.last.url}} {{items.2.url}}[{{items.3.url}}]", name: "t").render(data) == "a a c c[]")
    }

    /// Every field an extension may change, from Mustache over the payload; an unknown name is a
    /// custom key, a bad value is said and leaves the field as it was.
    @Test func theSetStep() throws {
        let p = ScratchProject()
        try p.write("pushpreview.json", #"""
        {"set": {"category": "{{userInfo.kind}}-detail", "thread-id": "room-{{userInfo.room}}", "sound": "chime.caf", "badge": "{{userInfo.unread}}",
                 "target-content-id": "room/{{userInfo.room}}", "interruption-level": "time-sensitive", "relevance-score": "0.8",
                 "filter-criteria": "work", "summary-arg": "{{userInfo.from}}", "summary-arg-count": "2",
                 "communication.senderName": "{{userInfo.from}}", "communication.senderHandle": "@{{userInfo.from}}", "title": "{{#body}}{{title}}{{/body}}{{^title}}{{body}}{{/title}}",
                 "flag": "on"}}
        """#)
        let settings = try ServiceSettings(settings: try JSONParser.parse([UInt8](try Data(contentsOf: p.folder.appendingPathComponent("pushpreview.json"))), file: "pushpreview.json"), file: "pushpreview.json")
        let n = try p.run(#"{"aps": {"alert": {"body": "Lunch?"}, "mutable-content": 1, "category": "message"}, "kind": "photo", "room": "7", "unread": 4, "from": "Marta"}"#, settings: settings)
        #expect(n.category == "photo-detail" && n.threadId == "room-7" && n.sound == "chime.caf" && n.badge == 4)
        #expect(n.targetContentId == "room/7" && n.interruptionLevel == .timeSensitive && n.relevanceScore == 0.8 && n.filterCriteria == "work")
        #expect(n.summaryArgument == "Marta" && n.summaryArgumentCount == 2)
        #expect(n.communication?.senderName == "Marta" && n.communication?.senderHandle == "@Marta", "the sender carried to the content stage")
        #expect(n.title == "Lunch?", "the body as title when the title is empty")
        #expect(n.userInfo.contains { $0.key == "flag" && $0.value == .string("on") })
        #expect(n.trace.steps.contains { $0.step == "set" && $0.outcome == "set" })

        var bad = ServiceSettings()
        bad.set = [("badge", "many"), ("interruption-level", "urgent"), ("relevance-score", "2"), ("title", "New")]
        let b = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1, "badge": 1}}"#, settings: bad)
        #expect(b.badge == 1 && b.interruptionLevel == .active && b.relevanceScore == 0 && b.title == "New")
        let step = try #require(b.trace.steps.first { $0.step == "set" })
        #expect(step.outcome == "partly set" && step.message.contains("set.badge") && step.message.contains("set.interruption-level") && step.message.contains("set.relevance-score"))
    }

    /// Bad `set` settings are errors naming the file and key.
    @Test func badSetSettings() throws {
        for (json, said) in [(#"{"set": 3}"#, "set: expected an object"), (#"{"set": {"title": 4}}"#, "set.title: expected a template string"),
                             (#"{"set": {"aps": "x"}}"#, "set.aps: not a field"), (#"{"set": {"title": "{{#a}}"}}"#, "set.title:")] {
            do {
                _ = try ServiceSettings(settings: try JSONParser.parse(Array(json.utf8), file: "p.json"), file: "p.json")
                Issue.record("\(json) was read")
            } catch { #expect("\(error)".contains("p.json: \(said)"), "\(error)") }
        }
    }
}
