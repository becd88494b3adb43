import Foundation

/// `pushpreview gallery --merge DIR...`: the outputs of `--shard` runs (say, a CI matrix) joined
/// into one gallery and report, as if one machine had rendered them all.
public enum GalleryMerge {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static func merge(_ folders: [URL], into output: URL) throws -> GalleryReport {
        var reports: [(URL, GalleryReport)] = []
        for folder in folders {
            let file = folder.appendingPathComponent("report.json")
            do { reports.append((folder, try GalleryReport.read(file))) } catch {
                throw Failure(description: "\(file.path): not a gallery report (\(error.localizedDescription)); run pushpreview gallery --shard there first")
            }
        }
        guard let (_, first) = reports.first else { throw Failure(description: "give the shard output folders to merge") }
        for (folder, r) in reports where (r.tool, r.project, r.devices, r.appearances, r.locales) != (first.tool, first.project, first.devices, first.appearances, first.locales) {
            throw Failure(description: "\(folder.path)/report.json was made by \(r.tool) for \(r.project) (\(r.devices), \(r.appearances), \(r.locales)), unlike \(folders[0].path): render every shard with the same tool and options")
        }
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
                for file in input.mockups.flatMap(\.outputs) { try copy(folder.appendingPathComponent(file), to: output.appendingPathComponent(file)) }
                // The images pages refer to, beside them.
                for folderName in Set(input.mockups.flatMap(\.outputs).map { ($0 as NSString).deletingLastPathComponent }) {
                    let media = folder.appendingPathComponent(folderName).appendingPathComponent("media")
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: media.path)) ?? [] {
                        try copy(media.appendingPathComponent(name), to: output.appendingPathComponent(folderName).appendingPathComponent("media").appendingPathComponent(name))
                    }
                }
            }
        }
        var report = first
        report.shard = nil
        report.inputs = inputs.sorted { $0.payload < $1.payload }
        report.summarize()
        try OutputFile.write(try report.encoded(), to: output.appendingPathComponent("report.json"))
        try OutputFile.write(GalleryPage.html(report, output: output), to: output.appendingPathComponent("index.html"))
        return report
    }

    static func copy(_ from: URL, to: URL) throws {
        guard let data = FileManager.default.contents(atPath: from.path) else { throw Failure(description: "\(from.path): missing from its shard's output") }
        try OutputFile.write([UInt8](data), to: to)
    }
}
