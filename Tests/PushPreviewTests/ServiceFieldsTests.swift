import ContentStage
import Foundation
import PushPreview
import Testing

/// Issue 16, drawn: `set` changing the category hands the notification to another content
/// extension (its template, its actions); actions a payload brings are drawn in place of the
/// category's, as an extension that sets `notificationActions` shows them.
struct ServiceFieldsTests {
    /// A project with one content extension per category in `categories`, each drawing a
    /// template that says its name.
    static func project(_ categories: [String], settings: String, categoriesJSON: String, payload: String, _ name: String = #function) throws -> (Project, URL) {
        let folder = temporaryFolder(name)
        let fm = FileManager.default
        for sub in ["payloads", "Templates"] { try fm.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true) }
        for category in categories {
            let dir = folder.appendingPathComponent("Extensions/\(category)")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            let plist: [String: Any] = ["NSExtension": ["NSExtensionPointIdentifier": ContentExtension.pointIdentifier,
                                                        "NSExtensionAttributes": ["UNNotificationExtensionCategory": category, "UNNotificationExtensionInitialContentSizeRatio": 0.5]]]
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: dir.appendingPathComponent("Info.plist"))
            try Data(#"<div style="padding: 16px">VIEW-\#(category.uppercased())</div>"#.utf8).write(to: folder.appendingPathComponent("Templates/\(category).html"))
        }
        try Data(settings.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
        try Data(categoriesJSON.utf8).write(to: folder.appendingPathComponent("categories.json"))
        try Data(payload.utf8).write(to: folder.appendingPathComponent("payloads/p.apns"))
        return (try Project(folder: folder), folder)
    }

    static func expanded(_ project: Project, _ folder: URL) throws -> (MockupResult, String) {
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        options.devices = ["iphone-17"]
        options.appearances = [.light]
        let results = try makeRenderer().render(payloadFile: folder.appendingPathComponent("payloads/p.apns"), project: project, options: options)
        let r = try #require(results.first { $0.view == "expanded" })
        return (r, try String(contentsOfFile: try #require(r.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8))
    }

    @Test func setChangesWhichExtensionDraws() throws {
        let (project, folder) = try Self.project(["message", "photo-detail"],
            settings: #"{"set": {"category": "{{userInfo.kind}}-detail"}}"#,
            categoriesJSON: #"{"categories": [{"identifier": "message", "actions": [{"identifier": "reply", "title": "Reply"}]}, {"identifier": "photo-detail", "actions": [{"identifier": "save", "title": "Save photo"}]}]}"#,
            payload: #"{"aps": {"alert": {"title": "Marta", "body": "Look at this"}, "category": "message", "mutable-content": 1}, "kind": "photo"}"#)
        let (r, page) = try Self.expanded(project, folder)
        #expect(r.category == "photo-detail" && page.contains("VIEW-PHOTO-DETAIL") && !page.contains("VIEW-MESSAGE"), "\(r.warnings)")
        #expect(r.actions?.map(\.title) == ["Save photo"])
        #expect(r.service.steps.contains { $0.step == "set" && $0.message.contains("category = \"photo-detail\"") })
        // A set that did what it was told is no fallback: the mock-up has nothing to warn about.
        #expect(!r.warnings.contains { $0.contains("service stage, set") }, "\(r.warnings)")
    }

    /// A category `set` may change to one with localized actions is drawn in every locale, though
    /// the payload's own category has none; a changed thread-id is said to leave stacks as they are.
    @Test func aChangedCategoryIsDrawnPerLocale() throws {
        let (_, folder) = try Self.project(["message", "photo-detail"],
            settings: #"{"locales": ["en", "nl"], "set": {"category": "{{userInfo.kind}}-detail", "thread-id": "room-{{userInfo.room}}"}}"#,
            categoriesJSON: #"{"categories": [{"identifier": "message"}, {"identifier": "photo-detail", "actions": [{"identifier": "save", "title": {"key": "save.photo", "default": "Save photo"}}]}]}"#,
            payload: #"{"aps": {"alert": {"title": "Marta", "body": "Look"}, "category": "message", "mutable-content": 1}, "kind": "photo", "room": "7"}"#)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nl.lproj"), withIntermediateDirectories: true)
        try Data("\"save.photo\" = \"Foto bewaren\";\n".utf8).write(to: folder.appendingPathComponent("nl.lproj/Localizable.strings"))
        let project = try Project(folder: folder)
        #expect(project.issues.contains { $0.description.contains("changes thread-id") }, "\(project.issues)")
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        options.devices = ["iphone-17"]
        options.appearances = [.light]
        options.locales = project.locales
        let results = try makeRenderer().render(payloadFile: folder.appendingPathComponent("payloads/p.apns"), project: project, options: options)
        let expanded = results.filter { $0.view == "expanded" }
        #expect(expanded.map { $0.locale ?? "-" } == ["en", "nl"])
        #expect(expanded.map { $0.actions?.first?.title ?? "" } == ["Save photo", "Foto bewaren"])
    }

    @Test func actionsFromThePayload() throws {
        let (project, folder) = try Self.project(["dynamic"],
            settings: #"{"categories": {"dynamic": {"actionsFrom": "data.actions", "actionFields": {"identifier": "id", "title": "label"}}}}"#,
            categoriesJSON: #"{"categories": [{"identifier": "dynamic", "actions": [{"identifier": "static", "title": "From categories.json"}]}]}"#,
            payload: #"{"aps": {"alert": {"title": "Garage", "body": "The door is open"}, "category": "dynamic"}, "data": {"actions": [{"id": "close", "label": "Close the door", "options": "destructive", "icon": "xmark"}, {"id": "say", "label": "Tell the family", "textInput": {"placeholder": "Message"}}, {"label": "No identifier"}]}}"#)
        let (r, page) = try Self.expanded(project, folder)
        #expect(r.actions?.map(\.title) == ["Close the door", "Tell the family"], "\(r.warnings)")
        #expect(r.actions?.first?.options == ["destructive"] && r.actions?.last?.textInput == true)
        #expect(page.contains("Close the door") && !page.contains("From categories.json"))
        #expect(r.warnings.contains { $0.contains("data.actions[2].id") && $0.contains("missing") })

        // Not an array, or absent: the category's own, and said.
        for (payload, said) in [(#"{"aps": {"alert": {"body": "B"}, "category": "dynamic"}, "data": {"actions": "close"}}"#, "expected an array of actions"),
                                (#"{"aps": {"alert": {"body": "B"}, "category": "dynamic"}}"#, "the payload has no data.actions")] {
            try Data(payload.utf8).write(to: folder.appendingPathComponent("payloads/p.apns"))
            let (other, _) = try Self.expanded(project, folder)
            #expect(other.actions?.map(\.title) == ["From categories.json"] && other.warnings.contains { $0.contains(said) }, "\(other.warnings)")
        }
    }
}
