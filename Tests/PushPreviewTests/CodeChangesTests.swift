import Diagnostics
import Foundation
import PushPreview
import Testing

/// pushpreview.json's `codeChanges` (what init could not follow in the service extension's code):
/// each a warning at its file and line in validate and the gallery; `set` draws what was followed.
struct CodeChangesTests {
    func project(_ settings: String) throws -> URL {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
        try Data(settings.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
        try Data(#"{"aps": {"alert": {"title": "Marta", "body": "On my way"}, "mutable-content": 1}}"#.utf8).write(to: folder.appendingPathComponent("payloads/p.apns"))
        return folder
    }

    @Test func followedAndNotFollowed() throws {
        let folder = try project(#"""
            {"appName": "Chat", "set": {"title": "{{title}} [modified]"},
             "codeChanges": [{"field": "body", "at": "../Ext/NotificationService.swift:7", "code": "content.body = f(x)"},
                             {"field": "communication", "at": "../Ext/NotificationService.swift:9", "code": "content.updating(from: intent)"}]}
            """#)
        let findings = Validator(templates: repositoryRoot.appendingPathComponent("Templates")).validate(folder)
        let said = findings.filter { $0.code == .codeChange }
        let file = folder.deletingLastPathComponent().appendingPathComponent("Ext/NotificationService.swift").standardizedFileURL.path
        #expect(said.map(\.line) == [7, 9] && said.allSatisfy { $0.file == file && $0.severity == .warning }, "\(findings)")
        #expect(said[0].message.contains("sets body in code PushPreview does not follow (content.body = f(x))") && said[1].message.contains("communication notification"))
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        options.devices = ["iphone-17"]
        let banner = try #require(try makeRenderer().render(payloadFile: folder.appendingPathComponent("payloads/p.apns"), project: Project(folder: folder), options: options).first { $0.view == "banner" })
        let page = try String(contentsOfFile: try #require(banner.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(page.contains("Marta [modified]"))
    }

    @Test(arguments: [#"{}"#, #"[{"field": "body"}]"#, #"[{"field": "body", "at": "File.swift", "code": "x"}]"#, #"[{"field": "body", "at": "F.swift:1e308", "code": "x"}]"#,
                      #"[{"field": 1, "at": "F.swift:3", "code": "x"}]"#])
    func aMalformedEntryIsAnErrorAtItsKey(_ value: String) throws {
        let folder = try project(#"{"codeChanges": \#(value)}"#)
        #expect(throws: ProjectError.self) { try Project(folder: folder) }
        let findings = Validator(templates: repositoryRoot.appendingPathComponent("Templates")).validate(folder)
        #expect(findings.contains { $0.severity == .error && $0.code == .settings && ($0.keyPath ?? "").hasPrefix("codeChanges") }, "\(findings)")
    }
}
