import Checked
import ConfinedFiles
import Foundation

/// `pushpreview gallery --merge DIR...`: the outputs of `--shard` runs (say, a CI matrix) joined
/// into one gallery and report, as if one machine had rendered them all.
public enum GalleryMerge {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static func merge(_ folders: [URL], into output: URL) throws -> GalleryReport {
        var reports: [(URL, GalleryReport)] = []
        var shards: [URL: ConfinedFolder] = [:]
        for folder in folders {
            let file = folder.appendingPathComponent("report.json")
            let report: GalleryReport
            do {
                // Each shard's folder held open: its files are read beneath it, no link followed.
                let shard = try ConfinedFolder(trusted: folder, links: .refused)
                shards[folder] = shard
                report = try GalleryReport.read(in: shard)
            } catch {
                throw Failure(description: "\(file.path): not a gallery report (\(error.localizedDescription)); run pushpreview gallery --shard there first")
            }
            try validate(report, file: file.path)
            reports.append((folder, report))
        }
        guard let (_, first) = reports.first else { throw Failure(description: "give the shard output folders to merge") }
        for (folder, r) in reports {
            if (r.tool, r.project) != (first.tool, first.project) {
                throw Failure(description: "\(folder.path)/report.json was made by \(r.tool) for \(r.project), unlike \(folders[0].path) (\(first.tool) for \(first.project)): render every shard with the same tool and options")
            }
            if let differ = r.axes.mismatch(first.axes) {
                throw Failure(description: "\(folder.path)/report.json was drawn for other variants than \(folders[0].path) (\(differ)): render every shard with the same options")
            }
        }
        let out = try ConfinedFolder(trusted: output, links: .refused, create: true)
        var inputs: [GalleryReport.Input] = []
        var owner: [String: String] = [:]
        for (folder, r) in reports {
            for input in r.inputs {
                if let other = owner[input.payload] { throw Failure(description: "\(input.payload) is in both \(other) and \(folder.path): shards overlap") }
                owner[input.payload] = folder.path
                inputs.append(input)
            }
            guard folder.standardizedFileURL != output.standardizedFileURL else { continue }
            for input in r.inputs {
                for file in input.mockups.flatMap(\.outputs) { try copy(file, from: shards[folder]!, to: out) }
            }
        }
        // The images the pages show, stored once per output folder (media/, named by content).
        for (folder, _) in reports where folder.standardizedFileURL != output.standardizedFileURL {
            for name in (try? shards[folder]!.names("media")) ?? [] { try copy("media/" + name, from: shards[folder]!, to: out) }
        }
        var report = first
        report.shard = nil
        report.inputs = inputs.sorted { $0.payload < $1.payload }
        report.summarize()
        try out.write(try report.encoded(), to: "report.json")
        try out.write(GalleryPage.html(report, output: output), to: "index.html")
        return report
    }

    /// A shard's report is input like any other: its paths must stay inside its folder, and its
    /// words must be ones we write (the page escapes every string besides).
    static func validate(_ report: GalleryReport, file: String) throws {
        func fail(_ at: String, _ message: String) -> Failure { Failure(description: "\(file): \(at): \(message); not merged") }
        for (i, input) in report.inputs.enumerated() {
            let at = "inputs[\(i)]"
            guard Confinement.relativeURLPath(input.payload) == input.payload, input.payload.hasPrefix("payloads/") else {
                throw fail("\(at).payload", "\"\(input.payload.prefix(80))\" is not a payloads/ file of the project")
            }
            guard ["rendered", "warnings", "failed"].contains(input.outcome) else { throw fail("\(at).outcome", "\"\(input.outcome.prefix(40))\" is not an outcome") }
            for (j, mockup) in input.mockups.enumerated() {
                for output in mockup.outputs {
                    guard Confinement.relativeURLPath(output) == output, [".png", ".html", ".layout.json"].contains(where: output.hasSuffix) else {
                        throw fail("\(at).mockups[\(j)].outputs", "\"\(output.prefix(80))\" is not a mock-up file inside the shard's folder")
                    }
                }
            }
        }
        if let shard = report.shard, !shard.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "/") }) { throw fail("shard", "\"\(shard.prefix(20))\" is not I/N") }
    }

    /// Copies a shard's file, read beneath the shard's folder (no symlink followed).
    static func copy(_ path: String, from shard: ConfinedFolder, to out: ConfinedFolder) throws {
        let data: [UInt8]
        do { data = try shard.read(path) } catch {
            throw Failure(description: error.isMissing ? "\(error.fullPath): missing from its shard's output" : "\(error.fullPath): \(error.why); not merged")
        }
        try out.write(data, to: path)
    }
}
