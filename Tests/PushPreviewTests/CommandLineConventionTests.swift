import Foundation
import Testing

/// The conventions people rely on, checked on the binary: `-h`/`--help` and `help COMMAND` on every
/// command, usage errors exit 2, the README's tables are the ones the command tables make.
struct CommandLineConventionTests {
    func run(_ arguments: [String]) throws -> ProcessRun { try runProcess(pushpreviewBinary, arguments) }

    /// The commands `pushpreview help` lists.
    func commands() throws -> [String] {
        let usage = try run(["help"])
        #expect(usage.status == 0)
        return usage.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func everyCommandTakesHelpThreeWays() throws {
        let names = try commands()
        #expect(Set(names).isSuperset(of: ["init", "render", "thumbnail", "devices", "gallery", "validate", "diff", "schema", "completion", "help"]), "\(names)")
        for name in names {
            let long = try run([name, "--help"]), short = try run([name, "-h"]), viaHelp = try run(["help", name])
            #expect(long.status == 0 && short.status == 0 && viaHelp.status == 0, "\(name): \(long.stderr)\(short.stderr)\(viaHelp.stderr)")
            #expect(long.stdout.hasPrefix("usage: pushpreview \(name)"), "\(name): \(long.stdout.prefix(80))")
            #expect(short.stdout == long.stdout && viaHelp.stdout == long.stdout, "\(name): -h, --help and help \(name) differ")
            #expect(long.stdout.contains("-h, --help") && long.stdout.contains("exit status: 0 "), "\(name)")
        }
        // -h anywhere before the payloads, as people type it after a command line they are building.
        #expect(try run(["render", "Examples/payloads/plain-alert.apns", "-h"]).stdout.hasPrefix("usage: pushpreview render"))
    }

    @Test(arguments: [
        ["render", "x.apns", "-x"], ["render", "x.apns", "--json=yes"], ["render", "x.apns", "--out"], ["help", "frobnicate"],
        ["completion"], ["completion", "tcsh"], ["schema", "extra"], ["devices", "--bogus"], ["validate", "--project"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let r = try run(arguments)
        #expect(r.status == 2 && r.stderr.contains("usage: pushpreview \(arguments[0])"), "\(arguments): \(r.status) \(r.stderr)")
    }

    /// `--` ends the options: what follows is a file, however it is named.
    @Test func doubleDashEndsOptions() throws {
        let r = try run(["validate", "--json", "--", "--no-such-file.apns"])
        #expect(r.status == 1 && r.stdout.contains(#""code":"path""#) && r.stdout.contains("--no-such-file.apns"), "\(r.status) \(r.stdout) \(r.stderr)")
    }

    /// `validate --json`: where a finding is stands in its fields (file, line, column, keyPath),
    /// never inside its message, for a settings key, a payload's JSON and a template's Mustache.
    @Test func validateJSONKeepsThePlaceOutOfTheMessage() throws {
        let folder = temporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
        try fm.createDirectory(at: folder.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        try Data("{\"aps\": {\"alert\": }}".utf8).write(to: folder.appendingPathComponent("payloads/bad.apns"))
        try Data("<div>\n{{#open}}</div>".utf8).write(to: folder.appendingPathComponent("Templates/card.html"))
        func findings() throws -> [[String: Any]] {
            let r = try run(["validate", folder.path, "--json"])
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            return r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let found = try findings()
        let payload = found.first { ($0["file"] as? String)?.hasSuffix("bad.apns") == true }
        #expect(payload?["line"] as? Int == 1 && payload?["column"] as? Int == 19 && payload?["severity"] as? String == "error" && payload?["code"] as? String == "json", "\(found)")
        let template = found.first { ($0["file"] as? String)?.hasSuffix("card.html") == true && $0["line"] != nil }
        #expect(template?["line"] as? Int == 2, "\(found)")
        try Data(#"{"decrypt": {"scheme": "webpush", "keyIdKey": "k"}}"#.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
        let settings = try findings().first
        #expect(settings?["keyPath"] as? String == "decrypt.keyIdKey" && (settings?["file"] as? String)?.hasSuffix("pushpreview.json") == true, "\(String(describing: settings))")
        for finding in found + [settings ?? [:]] {
            let message = finding["message"] as? String ?? "", file = (finding["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "-"
            #expect(!message.contains(file) && !message.hasPrefix("decrypt."), "the place is inside the message: \(finding)")
        }
    }

    /// `render --json`: a mock-up's errors also as findings, the place in fields.
    @Test func renderJSONCarriesFindings() throws {
        let folder = temporaryFolder()
        let bad = folder.appendingPathComponent("bad.apns")
        try Data("{\"aps\": {\"alert\": }}".utf8).write(to: bad)
        let r = try run(["render", bad.path, "--json", "--out", folder.appendingPathComponent("out").path])
        #expect(r.status == 1)
        let line = try #require(r.stdout.split(separator: "\n").first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let finding = (line["findings"] as? [[String: Any]])?.first
        #expect(finding?["file"] as? String == bad.path && finding?["line"] as? Int == 1 && finding?["column"] as? Int == 19
                && finding?["severity"] as? String == "error" && (finding?["message"] as? String)?.hasPrefix("unexpected character") == true, "\(r.stdout)")
    }

    /// README.md holds each table `help --markdown` makes, between the same markers, unchanged.
    @Test func readmeTablesAreTheGeneratedOnes() throws {
        let generated = try run(["help", "--markdown"])
        #expect(generated.status == 0)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let expected = Self.blocks(generated.stdout), found = Self.blocks(readme)
        #expect(expected.count >= 8 && expected["exit-status"] != nil, "\(expected.keys.sorted())")
        #expect(Set(found.keys) == Set(expected.keys), "README.md's generated tables: \(found.keys.sorted()); pushpreview help --markdown makes \(expected.keys.sorted())")
        for (name, table) in expected.sorted(by: { $0.key < $1.key }) where found[name] != nil {
            #expect(found[name] == table, "README.md's table \(name) is not what `pushpreview help --markdown` makes; run scripts/readme-tables:\n\(table)")
        }
    }

    /// Name → text of each `<!-- generated: NAME -->` … `<!-- end generated -->` block.
    static func blocks(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for part in text.components(separatedBy: "<!-- generated: ").dropFirst() {
            guard let close = part.range(of: " -->\n"), let end = part.range(of: "\n<!-- end generated -->") else { continue }
            out[String(part[..<close.lowerBound])] = String(part[close.upperBound..<end.lowerBound])
        }
        return out
    }
}
