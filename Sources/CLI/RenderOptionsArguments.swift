import Foundation
import PushPreview
import Styling

/// The options `render` and `gallery` share, read the same way for both.
extension RenderOptions {
    static let sharedValued: Set<String> = ["out", "device", "appearance", "locale", "format", "font-dir", "time-budget", "media-state"]
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
        showLimits = a.flags.contains("show-limits")
        hiddenPreviews = a.flags.contains("hidden-previews")
        switch a.value("media-state") {
        case nil, "paused": break
        case "playing": mediaPlaying = true
        case let other?: throw Arguments.UsageError(description: "--media-state takes paused or playing, not '\(other)'")
        }
    }
}
