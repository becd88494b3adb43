import Foundation
import Payload
import Testing
@testable import ProjectImport
import Formats

/// Issue 22, items 4 and 6, on Tests/Fixtures/xcode/codeview/Kestrel (written in the shapes of
/// Surround's SwiftUI content extension, iOSNotifications' Objective-C one and service extension,
/// and PushesTutorialApp's payload.apns): a content view made in code is said, with where; the
/// repository's own payloads come before samples; samples hold values of the types the code reads.
struct CodeViewInitTests {
    static let fixture = xcodeFixtures.appendingPathComponent("codeview/Kestrel")

    static func repository(_ name: String = #function) throws -> URL {
        let root = temporaryFolder(name).appendingPathComponent("Kestrel")
        try FileManager.default.copyItem(at: fixture, to: root)
        return root
    }

    static func read(_ paths: [String]) -> CodeImport { CodeImport.read(paths.map { fixture.appendingPathComponent($0) }, root: fixture) }

    /// The 1-based line of the fixture's first line holding `text`.
    static func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOf: fixture.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(text) }, "\(file) has no line with \(text)") + 1
    }

    @Test func aUIKitViewMadeInSwift() throws {
        let file = "FlightContent/FlightViewController.swift"
        let code = Self.read([file])
        let view = try #require(code.codeView)
        #expect(view.madeAt.first == "\(file):\(try Self.line(of: "view.addSubview(stack)", in: file)) (addSubview)", "\(view.madeAt)")
        #expect(view.madeAt.contains("\(file):\(try Self.line(of: "NSLayoutConstraint.activate", in: file)) (NSLayoutConstraint.activate)"))
        let sizeLine = try Self.line(of: "preferredContentSize =", in: file)
        #expect(view.preferredHeight == 240 && view.preferredSizeSite == "\(file):\(sizeLine)")
        #expect(!view.hostsSwiftUI && code.readsAttachments)
        #expect(code.userInfoTypes["gate"] == .number && code.userInfoTypes["delayed"] == .bool && code.userInfoTypes["route"] == .string
                && code.userInfoTypes["crew.captain"] == .string, "\(code.userInfoTypes)")
    }

    @Test func aUIKitViewMadeInObjectiveC() throws {
        let file = "GateContent/KSGateViewController.m"
        let code = Self.read([file, "GateContent/KSGateViewController.h"])
        let view = try #require(code.codeView)
        #expect(view.madeAt.first == "\(file):\(try Self.line(of: "addSubview:self.gateLabel", in: file)) (addSubview)", "\(view.madeAt)")
        #expect(view.madeAt.contains { $0.hasSuffix("(activateConstraints)") })
        let sizeLine = try Self.line(of: "self.preferredContentSize", in: file)
        #expect(view.preferredHeight == 180 && view.preferredSizeSite == "\(file):\(sizeLine)")
        #expect(code.userInfoTypes["closing"] == .bool && !code.readsAttachments)
    }

    @Test func aSwiftUIViewInAHostingController() throws {
        let file = "BoardingContent/BoardingViewController.swift"
        let view = try #require(Self.read([file]).codeView)
        let hostLine = try Self.line(of: "UIHostingController(rootView:", in: file)
        #expect(view.hostsSwiftUI && view.madeAt.first == "\(file):\(hostLine) (UIHostingController)")
        #expect(view.preferredSizeSite == nil && view.preferredHeight == nil)
    }

    /// A computed size is where it is set, with no height; heights no view has are no height.
    @Test func preferredSizesThatAreNotANumber() throws {
        let folder = temporaryFolder()
        func height(_ statement: String) throws -> CodeMadeView? {
            let file = folder.appendingPathComponent("V\(UUID().uuidString.prefix(6)).swift")
            try Data("import UserNotificationsUI\nclass V: UIViewController, UNNotificationContentExtension {\n  let ratio = 0.5\n  override func viewDidLoad() {\n    \(statement)\n  }\n}\n".utf8).write(to: file)
            return CodeImport.read([file], root: folder).codeView
        }
        let computed = try #require(try height("preferredContentSize = CGSize(width: view.bounds.width, height: view.bounds.width * ratio)"))
        #expect(computed.preferredHeight == nil && computed.preferredSizeSite?.hasSuffix(":5") == true && computed.preferredSizeSketch?.contains("CGSize") == true)
        #expect(try height("preferredContentSize = CGSize(width: 320, height: 1e12)")?.preferredHeight == nil)
        #expect(try height("preferredContentSize = CGSize(width: 320, height: -40)")?.preferredHeight == nil)
        #expect(try height("preferredContentSize.height = 96.5")?.preferredHeight == 96.5)
        #expect(try height("self.preferredContentSize = CGSize(width: 320, height: 120)")?.preferredHeight == 120)
        #expect(try height("print(1)") == nil)
    }

    @Test func initWritesStartersTheRepositorysPayloadsAndTypedSamples() throws {
        let root = try Self.repository()
        let plan = try ProjectInit(path: root)
        #expect(plan.files.map(\.path) == ["Templates/BOARDING.html", "Templates/FLIGHT.html", "Templates/GATE.html", "categories.json",
                                           "payloads/DelayNotificationTests.apns", "payloads/FLIGHT.apns", "payloads/KSLegacyPayloadTests.apns",
                                           "payloads/boarding.apns", "payloads/gate-change.apns", "pushpreview.json"], "\(plan.files.map(\.path))")
        func text(_ path: String) throws -> String { try #require(plan.files.first { $0.path == path }?.text) }
        func json(_ path: String) throws -> JSONValue { try JSONParser.parse(Array(try text(path).utf8), file: path) }

        // The starter: the notification's fields at the preferred height, and where the view is made.
        let flight = try text("Templates/FLIGHT.html")
        let site = "FlightContent/FlightViewController.swift:\(try Self.line(of: "view.addSubview(stack)", in: "FlightContent/FlightViewController.swift"))"
        #expect(flight.contains("{{! warning: the custom view is init's starter: KestrelFlightContent makes its view in code at \(site) (addSubview)"))
        // The extension shows the default content, which draws title and body below the view: not again in it.
        #expect(flight.contains("height: 240px") && !flight.contains("{{title}}") && !flight.contains("{{body}}") && flight.contains("{{#attachment}}"))
        #expect(flight.contains("{{userInfo.gate}}") && flight.contains("{{userInfo.crew.captain}}") && !flight.contains("{{userInfo.crew}}"))
        #expect(try text("Templates/GATE.html").contains("height: 180px") && !text("Templates/GATE.html").contains("{{#attachment}}"))
        #expect(try text("Templates/BOARDING.html").contains("a SwiftUI view in a UIHostingController"))
        #expect(plan.found.contains("storyboard BoardingContent/Base.lproj/MainInterface.storyboard: no outlets, the view is made in code → a starter template"))
        #expect(plan.problems.contains { $0.hasPrefix("\(site): KestrelFlightContent makes its content view in code; Templates/FLIGHT.html is a starter") }, "\(plan.problems)")

        // The repository's payloads, each once, named after their sources; no sample for their categories.
        #expect(plan.found.contains("payload payloads/boarding.apns ← Payloads/boarding.apns, docs/boarding-copy.apns"), "\(plan.found)")
        #expect(plan.found.contains("payload payloads/gate-change.apns ← tests/fixtures/gate-change.json"))
        #expect(plan.found.contains("payload payloads/DelayNotificationTests.apns ← KestrelTests/DelayNotificationTests.swift:6"))
        #expect(try json("payloads/boarding.apns")["seat"]?.string == "14A")
        let delay = try json("payloads/DelayNotificationTests.apns")
        #expect(delay["aps"]?["category"]?.string == "DELAY" && delay["gate"] == .number(12) && delay["delayed"] == .bool(true) && delay["route"]?.string == "AMS → LIS")
        let legacy = try json("payloads/KSLegacyPayloadTests.apns")
        #expect(legacy["gate"] == .number(7) && legacy["closing"] == .bool(false) && legacy["terminal"] == nil)
        #expect(plan.problems.contains("KestrelTests/KSLegacyPayloadTests.m:10: the userInfo literal's terminal is not a literal; left out of its payload"), "\(plan.problems)")
        #expect(plan.problems.contains { $0.hasPrefix("Payloads/broken.apns:1:") && $0.hasSuffix("; not used as a payload") })
        #expect(!plan.problems.contains { $0.contains("settings.json") || $0.contains("Pods/") })

        // The sample: typed values, the downloaded key in mediaKeys, its value the sample image.
        let sample = try json("payloads/FLIGHT.apns")
        #expect(sample["gate"] == .number(1) && sample["delayed"] == .bool(true) && sample["closing"] == .bool(true))
        #expect(sample["crew"]?["captain"]?.string == "sample captain" && sample["route"]?.string == "sample route")
        #expect(sample["map"]?.string == SamplePayload.imagePath)
        #expect(try json("pushpreview.json")["mediaKeys"] == .array([.string("map")]))
        #expect(plan.found.contains("media keys (the service extension downloads and attaches them): map"))
        let image = try #require(plan.media.first { $0.path == "media/sample-image.png" }?.bytes)
        #expect(image.prefix(8).elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) && image[16..<24].elementsEqual([0, 0, 1, 64, 0, 0, 0, 240]))
        #expect(try ProjectInit(path: root).media.first?.bytes == image, "the same image every run")
    }

    /// Init's own payloads are not read back as the repository's, and a rerun writes nothing.
    @Test func rerunsDoNotCollectInitsOwnPayloads() throws {
        let root = try Self.repository()
        let plan = try ProjectInit(path: root)
        let first = try InitWriter.write(plan.output, into: plan.folder, force: false)
        #expect(first.written.count == plan.output.count && first.written.contains("media/sample-image.png"))
        let again = try ProjectInit(path: root)
        #expect(again.files.map(\.path) == plan.files.map(\.path))
        let second = try InitWriter.write(again.output, into: plan.folder, force: false)
        #expect(second.written.isEmpty && second.unchanged.count == plan.output.count)
    }

    @Test func badPayloadFiles() throws {
        let root = try Self.repository()
        func write(_ path: String, _ bytes: [UInt8]) throws {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try write("Payloads/huge.apns", Array(("{\"aps\": {\"alert\": \"" + String(repeating: "x", count: 70_000) + "\"}}").utf8))
        try write("Payloads/list.apns", Array(#"[{"aps": {}}]"#.utf8))
        try write("Payloads/no-aps.apns", Array(#"{"alert": "hi"}"#.utf8))
        try write("Payloads/aps-string.apns", Array(#"{"aps": "hi"}"#.utf8))
        try write("Payloads/binary.apns", [0xFF, 0xFE, 0x00, 0x7B])
        try write("tests/fixtures/deep.json", Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8))
        try write("tests/fixtures/config.json", Array(#"{"aps": 3}"#.utf8))
        let deep = "let userInfo: [String: Any] = [\"aps\": " + String(repeating: "[\"a\": ", count: 60) + "1" + String(repeating: "]", count: 60) + "]\n"
        try write("KestrelTests/DeepTests.swift", Array(deep.utf8))
        try write("KestrelTests/TruncatedTests.swift", Array("let userInfo = [\"aps\": [\"alert\": \"cut".utf8))
        try write("KestrelTests/SwitchTests.swift", Array("func f(k: String) { switch k { case \"aps\": break; default: break } }\n".utf8))
        let plan = try ProjectInit(path: root)
        let problems = plan.problems.joined(separator: "\n")
        #expect(problems.contains("Payloads/huge.apns: 70022 bytes, over the 64 KB a payload file may have here (APNs takes 4 KB); not read"), "\(problems)")
        #expect(problems.contains("Payloads/list.apns: has no \"aps\" object; not used as a payload"))
        #expect(problems.contains("Payloads/no-aps.apns: has no \"aps\" object") && problems.contains("Payloads/aps-string.apns: has no \"aps\" object"))
        #expect(problems.contains("Payloads/binary.apns:"))
        // Not payloads, and not said to be: a deep list and a JSON whose aps is no object in a tests folder.
        #expect(!problems.contains("deep.json") && !problems.contains("config.json"))
        #expect(!plan.files.contains { ["payloads/huge.apns", "payloads/list.apns", "payloads/deep.apns", "payloads/config.apns", "payloads/SwitchTests.apns"].contains($0.path) })
        // A literal nested past the reader's depth keeps what it could read, and says what it left out.
        #expect(problems.contains("KestrelTests/DeepTests.swift:1: the userInfo literal's aps"), "\(problems)")
        #expect(!plan.files.contains { $0.path == "payloads/TruncatedTests.apns" })
    }

    @Test func payloadLiterals() {
        func find(_ source: String) -> [PayloadLiteral] { PayloadLiteral.find(in: Array(source.utf8)) }
        let swift = find("""
        let a = 1
        let info: [AnyHashable: Any] = [
            // the alert
            "aps": ["alert": ["title": "Hi \\"there\\"", "body": "x"], "badge": 3, "sound": "default"], /* more */
            "ids": [1, 2.5, -3], "flag": false, "empty": [:], "none": [], "who": "\\(name)", "when": Date(),
        ]
        """)
        #expect(swift.count == 1 && swift.first?.line == 2)
        let json = swift.first?.json
        #expect(json?["aps"]?["alert"]?["title"]?.string == "Hi \"there\"" && json?["aps"]?["badge"] == .number(3))
        #expect(json?["ids"] == .array([.number(1), .number(2.5), .number(-3)]) && json?["flag"] == .bool(false))
        #expect(json?["empty"] == .object([]) && json?["none"] == .array([]))
        #expect(swift.first?.leftOut == ["who", "when"])
        let objc = find(#"NSDictionary *d = @{@"aps": @{@"alert": @"Hi", @"content-available": @1}, @"ok": @YES, @"n": @(count), @"list": @[@"a", @"b"]};"#)
        #expect(objc.first?.json["aps"]?["content-available"] == .number(1) && objc.first?.json["ok"] == .bool(true))
        #expect(objc.first?.json["list"] == .array([.string("a"), .string("b")]) && objc.first?.leftOut == ["n"])
        #expect(find(#"let x = ["alert": "no aps key"]"#).isEmpty && find(#"let s = "aps: nothing""#).isEmpty)
        #expect(find("[\"aps\": [) ) ) ]").count <= 1, "stray brackets end, not loop")
    }

    /// Every prefix of the fixtures' literals (a file cut anywhere) reads without a trap or a hang,
    /// and what it finds still has its "aps".
    @Test func truncatedLiteralsAtEveryByte() throws {
        for file in ["KestrelTests/DelayNotificationTests.swift", "KestrelTests/KSLegacyPayloadTests.m"] {
            let bytes = [UInt8](try Data(contentsOf: Self.fixture.appendingPathComponent(file)))
            for end in 0...bytes.count {
                for literal in PayloadLiteral.find(in: Array(bytes[..<end])) { #expect(literal.json["aps"] != nil, "\(file) cut at \(end)") }
            }
            #expect(PayloadLiteral.find(in: bytes).count == 1)
        }
    }

    @Test func userInfoTypesFromTheText() {
        func type(_ key: String, _ source: String) -> UserInfoType? { UserInfoType.read(spellings: ["\"\(key)\""], in: [Array(source.utf8)]) }
        #expect(type("n", #"let n = userInfo["n"] as? Int ?? 0"#) == .number)
        #expect(type("n", #"let n = (userInfo["n"] as? NSNumber)?.intValue"#) == .number)
        #expect(type("o", #"if let o = info["o"] as? [String: Any] {"#) == .object)
        #expect(type("l", #"let l = info["l"] as! [String]"#) == .array)
        #expect(type("b", #"BOOL b = [userInfo[@"b"] boolValue];"#) == .bool)
        #expect(type("d", #"double d = [[userInfo objectForKey:@"d"] doubleValue];"#) == .number)
        #expect(type("s", #"label.text = userInfo["s"] as? String"#) == .string)
        #expect(type("u", #"print(userInfo["u"])"#) == nil)
        #expect(type("x", "userInfo[\"x\"] as") == nil, "a cut-off cast is no type")
        // Through a constant the key is spelled by: its name whole, not the end of another's.
        #expect(UserInfoType.read(spellings: ["\"n\"", "Keys.n"], in: [Array("let n = info[Keys.n] as? Int".utf8)]) == .number)
        #expect(UserInfoType.read(spellings: ["\"n\"", "Keys.n"], in: [Array("let n = info[OtherKeys.n] as? Int".utf8)]) == nil)
    }

    /// Title and body only where the extension hides the default content; a starter with nothing
    /// of the notification's own says what stands there.
    @Test func starterShowsTitleAndBodyOnlyWhenTheDefaultContentIsHidden() {
        let hidden = StarterTemplate.html(extensionName: "Ext", sources: ["A.swift"], view: nil, readsAttachments: false, showsTitleAndBody: true, userInfoKeys: [], types: [:])
        let shown = StarterTemplate.html(extensionName: "Ext", sources: ["A.swift"], view: nil, readsAttachments: false, showsTitleAndBody: false, userInfoKeys: [], types: [:])
        #expect(hidden.contains("{{title}}") && hidden.contains("{{body}}") && !hidden.contains("made in code</p>"))
        #expect(!shown.contains("{{title}}") && shown.contains("Ext's view, made in code</p>"))
    }
}
