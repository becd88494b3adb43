import ContentStage
import Diagnostics
import Foundation
import PushPreview
import ServiceStage
import Testing

let debianJSONSchema: Bool = {
    (try? runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", "import jsonschema"]))?.status == 0
}()

/// `pushpreview schema`: the keys it lists are the keys the readers know, and a real validator
/// (python3-jsonschema) takes Examples/pushpreview.json and what init writes, and refuses a wrong file.
struct SettingsSchemaTests {
    static var schema: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(SettingsSchema.text.utf8))) as? [String: Any] ?? [:] }

    /// The object schema at a path of property names ("*" for additionalProperties, "[]" for items).
    static func object(_ path: [String]) -> [String: Any] {
        path.reduce(schema) { node, step in
            let next: Any? = step == "*" ? node["additionalProperties"] : step == "[]" ? node["items"] : (node["properties"] as? [String: Any])?[step]
            return next as? [String: Any] ?? [:]
        }
    }

    static func keys(_ path: [String]) -> Set<String> { Set((object(path)["properties"] as? [String: Any] ?? [:]).keys) }

    @Test func theSchemaListsExactlyTheKeysTheReadersKnow() {
        #expect(!Self.schema.isEmpty, "SettingsSchema.text is not JSON")
        let readers: [([String], [String])] = [
            ([], Array(Project.settingKeys)),
            (["decrypt"], ServiceSettings.Decrypt.settingKeys),
            (["decrypt", "alertKeys"], ServiceSettings.Decrypt.alertFields),
            (["enrich", "[]"], ServiceSettings.EnrichRule.settingKeys),
            (["communication"], ServiceSettings.communicationFields),
            (["attachmentOptions"], ServiceSettings.attachmentOptionNames),
            (["categories", "*"], CategoryViewSettings.settingKeys),
            (["categories", "*", "actionFields"], NotificationAction.fieldNames),
        ]
        for (path, known) in readers {
            #expect(Self.keys(path) == Set(known), "\(path.joined(separator: ".")): schema \(Self.keys(path).sorted()), reader \(known.sorted())")
            #expect(Self.object(path)["additionalProperties"] as? Bool == false, "\(path): the schema must refuse keys the reader does not know")
        }
    }

    /// The lists above are what the readers act on: each key of the schema is read (a wrong value
    /// is an error, not "unknown"), and a key outside it is said to be unknown.
    @Test func theReadersKnowEachKeyTheSchemaLists() throws {
        func findings(_ settings: String) throws -> [Diagnostic] {
            let folder = temporaryFolder("schema-keys")
            try Data(settings.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
            do { return Validator(templates: repositoryRoot.appendingPathComponent("Templates")).projectFindings(try Project(folder: folder)) } catch { return [error.diagnostic] }
        }
        /// Whether the finding about `keyPath` says the key is unknown.
        func unknown(_ keyPath: String, in settings: String) throws -> Bool {
            try findings(settings).contains { $0.keyPath == keyPath && $0.message.contains("unknown") }
        }
        for key in Self.keys([]) {
            #expect(try !unknown(key, in: #"{"\#(key)": 0}"#), "\(key)")
        }
        for key in Self.keys(["categories", "*"]) {
            #expect(try !unknown("categories.c.\(key)", in: #"{"categories": {"c": {"\#(key)": 0}}}"#), "categories.c.\(key)")
        }
        for key in Self.keys(["decrypt"]) {
            #expect(try !unknown("decrypt.\(key)", in: #"{"decrypt": {"\#(key)": 0}}"#), "decrypt.\(key)")
        }
        for (keyPath, typo) in [("appNmae", #"{"appNmae": "x"}"#), ("categories.c.titel", #"{"categories": {"c": {"titel": "x"}}}"#),
                                ("decrypt.sheme", #"{"decrypt": {"sheme": "webpush"}}"#), ("enrich[0].sett", #"{"enrich": [{"key": "k", "data": "d", "set": {}, "sett": {}}]}"#)] {
            #expect(try unknown(keyPath, in: typo), "\(typo)")
        }
        // "$schema" is read without a word.
        #expect(try findings(#"{"$schema": "pushpreview.schema.json", "appName": "Harbor"}"#).isEmpty)
    }

    @Test func theCommandPrintsIt() throws {
        let r = try runProcess(pushpreviewBinary, ["schema"])
        #expect(r.status == 0 && r.stdout == SettingsSchema.text)
        #expect(Self.schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    static func validate(_ files: [URL]) throws -> ProcessRun {
        let schema = temporaryFolder("schema").appendingPathComponent("pushpreview.schema.json")
        try Data(SettingsSchema.text.utf8).write(to: schema)
        return try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/validate-schema.py").path, schema.path] + files.map(\.path))
    }

    @Test(.enabled(if: debianJSONSchema, "skipped: /usr/bin/python3 cannot import jsonschema (scripts/install-deps installs python3-jsonschema)"))
    func aRealValidatorTakesTheExamplesAndRefusesAWrongFile() throws {
        let good = try Self.validate([examples.appendingPathComponent("pushpreview.json")])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let wrong = temporaryFolder().appendingPathComponent("pushpreview.json")
        try Data(#"{"appName": 7, "timeBudget": 900, "decrypt": {"scheme": "rot13"}, "categories": {"c": {"mediaPlayPauseButtonType": "big"}}, "devcies": []}"#.utf8).write(to: wrong)
        let bad = try Self.validate([wrong])
        #expect(bad.status == 1, "\(bad.stdout)\(bad.stderr)")
        for said in [": appName: ", ": timeBudget: ", ": decrypt.scheme: ", ": categories.c.mediaPlayPauseButtonType: ", "'devcies' was unexpected"] {
            #expect(bad.stdout.contains(said), "missing \(said): \(bad.stdout)")
        }
    }

    /// init writes the schema beside pushpreview.json, which names it; both pass the validator.
    @Test(.enabled(if: debianJSONSchema, "skipped: /usr/bin/python3 cannot import jsonschema (scripts/install-deps installs python3-jsonschema)"))
    func initWritesTheSchemaItNames() throws {
        let repo = try XcodeRunTests.Repo(font: false)
        try FileManager.default.removeItem(at: repo.project)
        let made = try runProcess(pushpreviewBinary, ["init", repo.root.path])
        #expect(made.status == 0, "\(made.stderr)")
        let settings = repo.project.appendingPathComponent("pushpreview.json"), schema = repo.project.appendingPathComponent("pushpreview.schema.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: settings)) as? [String: Any]
        #expect(json?["$schema"] as? String == "pushpreview.schema.json")
        #expect(try String(contentsOf: schema, encoding: .utf8) == SettingsSchema.text)
        let checked = try Self.validate([settings])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        // And the project it made reads without a word about "$schema".
        let validate = try runProcess(pushpreviewBinary, ["validate", repo.project.path, "--json"])
        #expect(!validate.stdout.contains("$schema"), "\(validate.stdout)")
    }
}
