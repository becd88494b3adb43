import Foundation
import Payload
import Testing
@testable import ServiceStage
import Formats

/// Each push SDK of Templates/sdks against a payload in the shape its vendor sends, the image
/// served without a file extension by a real HTTP server on 127.0.0.1.
@Suite(.serialized)
struct PushSDKTests {
    static let catalog = PushSDK.Catalog.read(repositoryRoot.appendingPathComponent("Templates/sdks"))
    let project = ScratchProject()
    let server: TestServer

    init() throws {
        try project.write("served/photo", testJPEG)
        server = try TestServer(serving: project.folder.appendingPathComponent("served"))
    }

    func settings(_ id: String) throws -> ServiceSettings {
        var s = ServiceSettings()
        s.sdks = [try #require(Self.catalog.sdk(id), "no Templates/sdks/\(id).json")]
        s.allowedHosts = ["127.0.0.1:\(server.port)"]
        s.timeBudget = 10
        return s
    }

    func payload(_ custom: String, category: String? = nil) -> String {
        #"{"aps": {"alert": {"title": "Hello", "body": "World"}, "mutable-content": 1\#(category.map { #", "category": "\#($0)""# } ?? "")}, \#(custom)}"#
    }

    @Test func everyFileReadsAndEveryFactHasItsSource() throws {
        #expect(Self.catalog.problems.isEmpty, "\(Self.catalog.problems)")
        #expect(Self.catalog.sdks.map(\.id) == ["airship", "batch", "braze", "clevertap", "customerio", "expo-notifications", "firebase-messaging",
                                                "iterable", "klaviyo", "moengage", "onesignal", "pushengage", "pushwoosh"])
        for sdk in Self.catalog.sdks {
            let sources = [sdk.recognise.source] + sdk.media.map(\.source) + [sdk.actions?.source, sdk.gate?.source].compactMap { $0 } + sdk.changes.map(\.source)
            #expect(sources.allSatisfy { $0.contains("@") && $0.contains(":") }, "\(sdk.id): \(sources)")
        }
    }

    @Test func aFactWithoutItsSourceIsRefused() throws {
        let json = try JSONParser.parse(Array(#"{"name": "X", "recognise": {"imports": ["X"], "source": "a/b@c:d:1"}, "media": [{"keyPath": "img"}]}"#.utf8), file: "x.json")
        #expect(throws: PushSDK.FormatError.self) { try PushSDK(json, id: "x", file: "x.json") }
    }

    /// SDK → its media in its vendor's payload shape, and the key path the attachment comes from.
    static let media: [(String, String, String)] = [
        ("firebase-messaging", #""fcm_options": {"image": "URL"}"#, "fcm_options.image"),
        ("onesignal", #""custom": {"i": "n-1"}, "att": {"id": "URL"}"#, "att.id"),
        ("braze", #""ab": {"att": {"url": "URL", "type": "jpg"}}"#, "ab.att.url"),
        ("airship", #""com.urbanairship.media_attachment": {"url": ["URL"]}"#, "com.urbanairship.media_attachment.url.0"),
        ("iterable", #""itbl": {"messageId": "m-1", "attachment-url": "URL"}"#, "itbl.attachment-url"),
        ("klaviyo", #""rich-media": "URL", "rich-media-type": "jpg""#, "rich-media"),
        ("customerio", #""CIO-Delivery-ID": "d", "CIO-Delivery-Token": "t", "CIO": {"push": {"image": "URL"}}"#, "CIO.push.image"),
        ("clevertap", #""ct_mediaUrl": "URL", "ct_mediaType": "image""#, "ct_mediaUrl"),
        ("pushengage", #""pe": {"tag": "t", "att": "URL"}"#, "pe.att"),
        ("batch", #""com.batch": {"at": {"u": "URL", "t": "image/jpeg"}}"#, "com.batch.at.u"),
        ("pushwoosh", #""pw_msg": "1", "attachment": "URL""#, "attachment"),
    ]

    @Test(arguments: media)
    func attachesFromTheSDKsKeyWithoutAFileExtension(_ id: String, _ custom: String, _ path: String) throws {
        let url = "\(server.base)/files/photo"
        let note = try project.run(payload(custom.replacingOccurrences(of: "URL", with: url)), settings: try settings(id))
        let sdk = try #require(Self.catalog.sdk(id))
        #expect(note.attachments.count == 1 && note.attachments.first?.uti == "public.jpeg", "\(id): \(note.trace.steps)")
        let step = try #require(note.trace.steps.first { $0.step == "attach" }, "\(id)")
        #expect(step.outcome == "attached" && step.message.hasPrefix("\(path): ") && step.message.contains("as \(sdk.name) does ("), "\(id): \(step.message)")
        #expect(note.trace.fallbacks.isEmpty, "\(id): \(note.trace.fallbacks)")
    }

    @Test func withoutTheSDKTheSameValueIsSaidNotDrawn() throws {
        let note = try project.run(payload(#""rich-media": "\#(server.base)/files/photo", "rich-media-type": "jpg""#))
        #expect(note.attachments.isEmpty)
        #expect(note.trace.fallbacks.map(\.message).contains { $0.contains("rich-media: \(server.base)/files/photo looks like media") }, "\(note.trace.fallbacks)")
    }

    @Test func aPathTheMediaRootsHoldWithoutAnExtensionIsTypedByItsBytes() throws {
        try project.write("media/hero", testJPEG)
        let note = try project.run(payload(#""image-url": "media/hero""#))
        #expect(note.attachments.first?.uti == "public.jpeg", "\(note.trace.steps)")
    }

    @Test func theGateKeepsTheSDKAwayAndSaysSo() throws {
        let note = try project.run(payload(#""CIO-Delivery-ID": "d", "CIO": {"push": {"image": "\#(server.base)/files/photo"}}"#), settings: try settings("customerio"))
        #expect(note.attachments.isEmpty)
        let step = try #require(note.trace.steps.first { $0.step == "sdk" })
        #expect(step.outcome == "not handled" && step.message.contains("CIO-Delivery-Token") && step.message.contains("as Customer.io does ("), "\(step.message)")
    }

    @Test func cleverTapAttachesNothingWithoutItsTypeKey() throws {
        let note = try project.run(payload(#""ct_mediaUrl": "\#(server.base)/files/photo""#), settings: try settings("clevertap"))
        #expect(note.attachments.isEmpty)
        #expect(note.trace.steps.contains { $0.outcome == "not attached" && $0.message.contains("ct_mediaType") }, "\(note.trace.steps)")
    }

    @Test func iterableButtonsBecomeTheCategoryItRegisters() throws {
        let custom = #""itbl": {"messageId": "m-42", "actionButtons": [{"identifier": "open", "title": "Open", "buttonType": "default", "openApp": true},"#
            + #"{"identifier": "no", "title": "Not now", "buttonType": "destructive", "openApp": false},"#
            + #"{"identifier": "reply", "title": "Reply", "buttonType": "textInput", "inputTitle": "Send", "inputPlaceholder": "Say hi"}]}"#
        let note = try project.run(payload(custom), settings: try settings("iterable"))
        let category = try #require(note.registeredCategory, "\(note.trace.steps)")
        #expect(category.identifier == "m-42" && note.category == "m-42")
        #expect(category.actions.map(\.title) == ["Open", "Not now", "Reply"])
        #expect(category.actions[0].foreground && !category.actions[1].foreground && category.actions[1].destructive)
        #expect(category.actions[2].textInput?.button == "Send" && category.actions[2].textInput?.placeholder == "Say hi")
        #expect(category.said.hasPrefix("as Iterable does (Iterable/iterable-swift-sdk@"))
    }

    @Test func klaviyoButtonsNeedItsMarkerAndLeaveAPayloadsCategoryAlone() throws {
        let buttons = #""body": {"_k": "x", "action_buttons": [{"id": "shop", "label": "Shop", "action": "open_app"}]}"#
        let built = try project.run(payload(buttons), settings: try settings("klaviyo"))
        #expect(built.registeredCategory?.actions.map(\.title) == ["Shop"] && built.category == "com.klaviyo.button.test.apns")
        let kept = try project.run(payload(buttons, category: "mine"), settings: try settings("klaviyo"))
        #expect(kept.registeredCategory == nil && kept.category == "mine")
        #expect(kept.trace.steps.contains { $0.outcome == "not registered" && $0.message.contains("\"mine\"") })
        let unmarked = try project.run(payload(#""body": {"action_buttons": [{"id": "shop", "label": "Shop"}]}"#), settings: try settings("klaviyo"))
        #expect(unmarked.registeredCategory == nil && unmarked.trace.steps.contains { $0.message.contains("body._k") })
    }

    @Test func pushEngageAndOneSignalButtons() throws {
        let pe = try project.run(payload(#""pe": {"tag": "t", "ab": [{"a": "yes", "b": "Yes"}, {"a": "no", "b": "No"}]}"#), settings: try settings("pushengage"))
        #expect(pe.registeredCategory?.actions.map(\.identifier) == ["yes", "no"])
        #expect(pe.sound == "default", "PushEngage sets the default sound when the payload has none")
        let os = try project.run(payload(#""custom": {"i": "abc"}, "buttons": [{"i": "b1", "n": "Reply"}]"#), settings: try settings("onesignal"))
        #expect(os.registeredCategory?.identifier == "__onesignal__dynamic__abc" && os.registeredCategory?.actions.first?.title == "Reply")
    }

    @Test func airshipTakesTheTextFromItsMediaObject() throws {
        let note = try project.run(payload(#""com.urbanairship.media_attachment": {"url": [], "content": {"title": "New title", "body": "New body"}}"#), settings: try settings("airship"))
        #expect(note.title == "New title" && note.body == "New body" && note.subtitle == "")
        #expect(note.trace.steps.filter { $0.step == "sdk" && $0.outcome == "set" }.count == 2)
    }

    @Test func aChangeNobodyCanDrawIsSaidOnlyWhenThePayloadAsksForIt() throws {
        let plain = try project.run(payload(#""rich-media-type": "jpg""#), settings: try settings("klaviyo"))
        #expect(!plain.trace.steps.contains { $0.outcome == "not drawn" })
        let badge = try project.run(payload(#""badge_config": "increment_one""#), settings: try settings("klaviyo"))
        #expect(badge.trace.fallbacks.map(\.message).contains { $0.contains("badge: ") && $0.contains("as Klaviyo does (") }, "\(badge.trace.fallbacks)")
    }
}
