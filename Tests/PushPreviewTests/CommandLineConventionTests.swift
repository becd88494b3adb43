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

    /// README.md holds each table `help --markdown` makes, between the same markers, unchanged.
    @Test func readmeTablesAreTheGeneratedOnes() throws {
        let generated = try run(["help", "--markdown"])
        #expect(generated.status == 0)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let expected = Self.blocks(generated.stdout), found = Self.blocks(readme)
        #expect(expected.count >= 8 && expected["exit-status"] != nil, "\(expected.keys.sorted())")
        #expect(Set(found.keys) == Set(expected.keys), "README.md's generated tables: \(found.keys.sorted()); pushpreview help --markdown makes \(expected.keys.sorted())")
        for (name, table) in expected.sorted(by: { $0.key < $1.key }) where found[name] != nil {
            #expect(found[name] == table, "README.md's table \(name) is not what `pushpreview help --markdown` makes; paste its block:\n\(table)")
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
