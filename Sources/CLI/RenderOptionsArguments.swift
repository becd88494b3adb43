import Foundation
import PushPreview
import Styling
import ContentStage

/// The options `render` and `gallery` share, read the same way for both.
extension RenderOptions {
    static let sharedValued: Set<String> = ["out", "device", "appearance", "locale", "format", "font-dir", "time-budget", "media-state",
                                            "timeout", "max-memory", "text-size", "view"]
    static let sharedFlags: Set<String> = ["show-limits", "hidden-previews"]

    init(_ a: Arguments, defaultAppearances: [Appearance]) throws {
        self.init()
        outputFolder = URL(fileURLWithPath: a.value("out") ?? "Output")
        devices = a.list("device")
        appearances = try a.list("appearance").map { v in
            guard let ap = Appearance(rawValue: v) else { throw Arguments.UsageError(description: "--appearance takes light and/or dark, not '\(v)'") }
            return ap
        }
        if appearances.isEmpty { appearances = defaultAppearances }
        locales = a.list("locale")
        let formats = a.list("format")
        if !formats.isEmpty {
            guard formats.allSatisfy(["html", "png"].contains) else { throw Arguments.UsageError(description: "--format takes html and/or png") }
            self.formats = Set(formats)
        }
        if let budget = a.value("time-budget") {
            guard let seconds = Double(budget), seconds > 0, seconds <= 600 else { throw Arguments.UsageError(description: "--time-budget takes seconds, 0 < S ≤ 600") }
            timeBudget = seconds
        }
        let sizes = a.list("text-size")
        if !sizes.isEmpty {
            textSizes = try sizes.map { v in
                guard let size = TextSize(rawValue: v) else {
                    throw Arguments.UsageError(description: "--text-size takes Dynamic Type sizes (\(TextSize.allCases.map(\.rawValue).joined(separator: ", "))), not '\(v)'")
                }
                return size
            }
        }
        for view in a.list("view") {
            guard RenderOptions.optionalViews.contains(view) else {
                throw Arguments.UsageError(description: "--view takes \(RenderOptions.optionalViews.joined(separator: ", ")), not '\(view)'")
            }
            extraViews.insert(view)
        }
        showLimits = a.flags.contains("show-limits")
        hiddenPreviews = a.flags.contains("hidden-previews")
        switch a.value("media-state") {
        case nil, "paused": break
        case "playing": mediaPlaying = true
        case let other?: throw Arguments.UsageError(description: "--media-state takes paused or playing, not '\(other)'")
        }
    }
}

extension WorkerPlan {
    /// Workers running this very executable, with `--timeout S` and `--max-memory MB`.
    init(_ a: Arguments) throws {
        self.init(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        if let t = a.value("timeout") {
            guard let s = Double(t), s > 0, s <= 86_400 else { throw Arguments.UsageError(description: "--timeout takes seconds a payload may take, 0 < S ≤ 86400") }
            seconds = s
        }
        if let m = a.value("max-memory") {
            guard let mb = Int(m), mb >= 64, mb <= 1 << 20 else { throw Arguments.UsageError(description: "--max-memory takes the MB a worker may use, 64 to 1048576") }
            memoryMB = mb
        }
    }
}
