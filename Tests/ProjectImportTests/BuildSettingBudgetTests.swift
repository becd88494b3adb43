import Foundation
import Testing
import ProjectImport

/// Build-setting expansion under its budgets: a cycle or a value that doubles at every step is
/// a problem naming the setting and the file and line that define it, never a hang or a blow-up
/// (a 110-byte xcconfig once grew `init` past 16 GB), and real `$(inherited)` chains still read.
struct BuildSettingBudgetTests {
    /// A spec whose Debug configuration reads `xcconfig`; the app target's settings and problems.
    static func read(xcconfig: String, targetSettings: String = "", name: String = #function) throws -> (settings: [String: String], problems: [String]) {
        let spec = try XcodeGenTests.spec([
            "project.yml": """
            name: Loop
            configFiles:
              Debug: Config/Loop.xcconfig
            targets:
              App:
                type: application
                platform: iOS
            \(targetSettings)
            """,
            "Config/Loop.xcconfig": xcconfig,
        ], name: name)
        let project = try XcodeProject(xcodeGenSpec: spec)
        let app = try #require(project.targets.first { $0.name == "App" })
        return (try #require(app.configuration("Debug")).settings, project.problems)
    }

    @Test func doublingCycleIsOneProblemAtItsLine() throws {
        // The 110-byte shape the mutation campaign found: two settings naming each other eight times.
        let (settings, problems) = try Self.read(xcconfig: "A = $(B)$(B)$(B)$(B)$(B)$(B)$(B)$(B)\nB = $(A)$(A)$(A)$(A)$(A)$(A)$(A)$(A)\n")
        #expect(problems.contains { $0.hasSuffix("Config/Loop.xcconfig:2: the build setting B refers to itself (A → B → A); that reference reads as empty")
            || $0.hasSuffix("Config/Loop.xcconfig:1: the build setting A refers to itself (A → B → A); that reference reads as empty") }, "\(problems)")
        #expect(settings["A"] == "" && settings["B"] == "")
    }

    @Test func deepDoublingStopsAtTheValueBudget() throws {
        // 64 levels of K(n) = $(K(n-1))$(K(n-1)): 2^64 copies of K0 unbudgeted.
        var lines = ["K0 = twelve bytes"]
        for n in 1...64 { lines.append("K\(n) = $(K\(n - 1))$(K\(n - 1))") }
        let (settings, problems) = try Self.read(xcconfig: lines.joined(separator: "\n"))
        let over = problems.filter { $0.contains("expands to more than 64 KB") }
        #expect(over.count == 1, "\(problems)")
        // K13 is 2^13 × 12 bytes = 96 KB: the first over; its line is 14.
        #expect(over.first?.contains("Config/Loop.xcconfig:14: the build setting K13 expands to more than 64 KB") == true, "\(over)")
        #expect(settings["K12"]?.utf8.count == 4096 * 12 && settings["K13"] == "" && settings["K64"] == "")
        #expect(settings.values.allSatisfy { $0.utf8.count <= BuildSettingExpansion.maxValueBytes })
    }

    @Test func deepDoublingWorkIsBounded() {
        var raw = ["K0": "twelve bytes"]
        for n in 1...64 { raw["K\(n)"] = "$(K\(n - 1))$(K\(n - 1))" }
        var expansion = BuildSettingExpansion(raw)
        for key in raw.keys.sorted() { _ = expansion.value(of: key) }
        // Each setting is expanded once: the bytes made stay near two values' budget, not 2^64.
        #expect(expansion.budget.size <= 3 * BuildSettingExpansion.maxValueBytes, "\(expansion.budget.size) bytes made")
        #expect(expansion.problems.count == 1)
    }

    @Test func longChainStopsAtTheDepthBudget() {
        // 10,000 settings each naming the next: recursion that deep would overflow the stack.
        var raw: [String: String] = ["S10000": "end"]
        for n in 0..<10_000 { raw["S\(n)"] = "$(S\(n + 1))" }
        var expansion = BuildSettingExpansion(raw, origins: ["S64": "Chain.xcconfig:65"])
        #expect(expansion.value(of: "S9990") == "end")
        #expect(expansion.value(of: "S0") == "")
        #expect(expansion.problems.first == "Chain.xcconfig:65: the build setting S64 is reached through more than 64 settings naming one another (S0 → S1 → S2 → …); read as empty")
        #expect(expansion.budget.deepest == BuildSettingExpansion.maxDepth)
    }

    @Test func plainCycleAndSelfReference() throws {
        let (settings, problems) = try Self.read(xcconfig: """
        FIRST = one $(SECOND)
        SECOND = two $(FIRST)
        LOUD = $(LOUD:upper)!
        """)
        #expect(problems.contains { $0.hasSuffix("Config/Loop.xcconfig:1: the build setting FIRST refers to itself (FIRST → SECOND → FIRST); that reference reads as empty") }, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("Config/Loop.xcconfig:3: the build setting LOUD refers to itself (LOUD → LOUD); that reference reads as empty") }, "\(problems)")
        #expect(settings["FIRST"] == "one two " && settings["SECOND"] == "two " && settings["LOUD"] == "!")
    }

    /// A setting naming itself is the value beneath, as Xcode reads it (`$(inherited)` by another
    /// name), at every level; doubled that way it meets the same budget.
    @Test func selfReferenceIsTheValueBeneath() throws {
        let (settings, problems) = try Self.read(xcconfig: """
        OTHER_SWIFT_FLAGS = -DBASE
        OTHER_SWIFT_FLAGS = -DBETA $(OTHER_SWIFT_FLAGS)
        WARNINGS = $(WARNINGS) -warnings-as-errors
        """, targetSettings: """
            settings:
              base:
                OTHER_SWIFT_FLAGS: ${OTHER_SWIFT_FLAGS} -DAPP
        """)
        #expect(problems.isEmpty, "\(problems)")
        #expect(settings["OTHER_SWIFT_FLAGS"] == "-DBETA -DBASE -DAPP" && settings["WARNINGS"] == "-warnings-as-errors")
        let doubling = ["K = x"] + Array(repeating: "K = $(K)$(K)", count: 64)
        let (cut, said) = try Self.read(xcconfig: doubling.joined(separator: "\n"), name: "selfDoubling")
        #expect(said.contains { $0.contains("Config/Loop.xcconfig:18: the build setting K would be longer than 64 KB") }, "\(said)")
        #expect((cut["K"]?.utf8.count ?? .max) <= BuildSettingExpansion.maxValueBytes)
    }

    @Test func cycleInASpecNamesTheSpecLine() throws {
        let (_, problems) = try Self.read(xcconfig: "", targetSettings: """
            settings:
              base:
                LOOP_A: $(LOOP_B)
                LOOP_B: ${LOOP_A}
        """)
        #expect(problems.contains { $0.contains("project.yml:10") && $0.contains("the build setting LOOP_A refers to itself (LOOP_A → LOOP_B → LOOP_A)") }, "\(problems)")
    }

    @Test func inheritedChainsStillRead() throws {
        let spec = try XcodeGenTests.spec([
            "project.yml": """
            name: Chain
            configFiles:
              Debug: Config/Debug.xcconfig
            settings:
              base:
                FLAGS: $(inherited) -project
            targets:
              App:
                type: application
                platform: iOS
                settings:
                  base:
                    FLAGS: $(inherited) -target
                    PRODUCT_BUNDLE_IDENTIFIER: $(BASE_ID).$(PRODUCT_NAME:lower)
            """,
            "Config/Base.xcconfig": "FLAGS = -base\nBASE_ID = com.example\n",
            "Config/Debug.xcconfig": "#include \"Base.xcconfig\"\nFLAGS = $(inherited) -debug\nFLAGS = ${inherited} -again\n",
        ])
        let project = try XcodeProject(xcodeGenSpec: spec)
        #expect(project.problems.isEmpty, "\(project.problems)")
        let debug = try #require(project.targets.first?.configuration("Debug"))
        #expect(debug["FLAGS"] == "-base -debug -again -project -target")
        #expect(debug["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.app")
    }

    @Test func inheritedDoublingInOneFileIsCut() throws {
        // Each line doubles K through $(inherited): 2^64 bytes unbudgeted.
        let lines = ["K = x"] + Array(repeating: "K = $(inherited)$(inherited)", count: 64)
        let (settings, problems) = try Self.read(xcconfig: lines.joined(separator: "\n"))
        #expect(problems.contains { $0.contains("Config/Loop.xcconfig:") && $0.contains("the build setting K would be longer than 64 KB with $(inherited) the value beneath (2 times); read without it") }, "\(problems)")
        #expect((settings["K"]?.utf8.count ?? .max) <= BuildSettingExpansion.maxValueBytes)
    }

    /// The same expansion for a pbxproj: a cycle in the project's settings is said once (not
    /// once per target), placed by its configuration, as the pbxproj's values carry no lines.
    @Test func cycleInAPbxproj() throws {
        var text = try String(contentsOf: xcodeFixtures.appendingPathComponent("Harbor.pbxproj"), encoding: .utf8)
        text = text.replacingOccurrences(of: "MARKETING_VERSION = 2.1;\n", with: "MARKETING_VERSION = 2.1;\nA = \"$(B)$(B)$(B)$(B)\";\nB = \"$(A)$(A)$(A)$(A)\";\n")
        let bundle = temporaryFolder().appendingPathComponent("Harbor.xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: bundle.appendingPathComponent("project.pbxproj"))
        let project = try XcodeProject(bundle: bundle)
        let file = bundle.appendingPathComponent("project.pbxproj").standardizedFileURL.path
        #expect(project.problems == ["\(file): the project's Debug configuration: the build setting A refers to itself (A → B → A); that reference reads as empty"])
        #expect(project.targets.count == 2 && project.targets.allSatisfy { $0.configuration("Debug")?["A"] == "" })
        #expect(project.targets.first { $0.name == "Harbor" }?.configuration("Debug")?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor.debug")
    }

    /// An Info.plist's `$(VAR)` strings go through the same expansion, placed by their key path.
    @Test func infoPlistExpansionThroughTheProject() throws {
        let spec = try XcodeGenTests.spec([
            "project.yml": """
            name: Plist
            configFiles:
              Debug: Big.xcconfig
            targets:
              App:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                  properties:
                    CFBundleDisplayName: $(NAME) Beta
                    UIHuge: [$(BIG)$(BIG)]
            """,
            "Big.xcconfig": "NAME = Tides\nBIG = " + String(repeating: "x", count: 40_000) + "\n",
        ])
        let project = try XcodeProject(xcodeGenSpec: spec)
        let app = try #require(project.targets.first)
        var problems: [String] = []
        let plist = XcodeDiscovery.infoPlist(of: app, in: project, configuration: "Debug", problems: &problems)
        #expect(plist["CFBundleDisplayName"]?.string == "Tides Beta")
        #expect(plist["UIHuge"]?.array?.first == .string(""))
        #expect(problems == ["target App's Info.plist: UIHuge[0]: expands to more than 64 KB of build settings; read as empty"])
    }

    /// The fuzzer's find: `J = $(inherited)$(J-` doubled line by line is a value of thousands of
    /// unclosed `$(`, each once searched to the value's end for its `)`; now searched once.
    @Test func unclosedReferencesAreScannedOnce() {
        let unclosed = String(repeating: "$(J-x ", count: 10_000)
        var expansion = BuildSettingExpansion(["J": unclosed, "K": "$(J)"])
        #expect(expansion.value(of: "K") == unclosed && expansion.problems.isEmpty)
        #expect(expansion.budget.size == unclosed.utf8.count)
    }

    /// Every line of a 1 MB file copying a 64 KB value through `$(inherited)` is bounded too.
    @Test func inheritedCopiesHaveABudget() throws {
        let lines = ["K = " + String(repeating: "x", count: 60_000)] + Array(repeating: "K = $(inherited)", count: 200)
        let (settings, problems) = try Self.read(xcconfig: lines.joined(separator: "\n"))
        #expect(problems.contains { $0.contains("Config/Loop.xcconfig:141: $(inherited) has copied more than 8 MB of settings in this chain of files; from here on it reads as empty") }, "\(problems)")
        #expect(settings["K"] == "")
    }

    @Test func infoPlistStringsShareOneBudget() {
        let big = String(repeating: "x", count: 40_000)
        var expansion = BuildSettingExpansion(["BIG": big, "NAME": "Tides"])
        #expect(expansion.expand("$(NAME) app", at: "Info.plist: CFBundleDisplayName") == "Tides app")
        #expect(expansion.expand("$(BIG)$(BIG)", at: "Info.plist: Huge") == "")
        #expect(expansion.problems == ["Info.plist: Huge: expands to more than 64 KB of build settings; read as empty"])
    }
}
