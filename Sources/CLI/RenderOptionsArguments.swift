import ConfinedFiles
import ContentStage
import Foundation
import PushPreview
import Styling

/// The options `render` and `gallery` share, read the same way for both.
extension RenderOptions {
    /// The options `render` and `gallery` share; `appearances` and `views` say what differs.
    static func sharedOptions(appearances: String, views: String) -> [CommandSpec.Option] {
        [
            .value("out", "DIR", "output folder (default Output)", completes: .folder),
            .list("device", "LIST", "device profiles, e.g. iphone-17,ipad-pro-11 (pushpreview devices; default: the project's devices, else iphone-17)", completes: .devices),
            .list("appearance", "LIST", "light,dark (default \(appearances))", completes: .words(Appearance.allCases.map(\.rawValue))),
            .list("locale", "LIST", "locales to localize for, e.g. en,nl; a locale is in the file names (default: the project's locales, else none)"),
            .list("format", "LIST", "html,png (default both)", completes: .words(["html", "png"])),
            .list("text-size", "LIST", "Dynamic Type sizes with SwiftUI's names: xSmall, small, medium, large (the default), xLarge, xxLarge, xxxLarge, accessibility1 … accessibility5; a size other than large is in the file names",
                  completes: .words(TextSize.allCases.map(\.rawValue))),
            .list("ios", "LIST", "iOS versions whose chrome is drawn: 26 (Liquid Glass, the default; 27 draws as 26) and/or 18; a version is in the file names when more than one is drawn (default: the project's ios, else 26)",
                  completes: .words(IOSVersion.accepted)),
            .list("glass", "LIST", "clear (the default) and/or tinted: the glass iOS 26 draws with (Settings › Display & Brightness); a style is in the file names when more than one is drawn",
                  completes: .words(IOSChrome.Glass.allCases.map(\.rawValue))),
            .list("accessibility", "LIST", "none (the default), reduce-transparency and/or increase-contrast: the display settings to draw with (Settings › Accessibility › Display & Text Size), each answering the templates' @media (prefers-reduced-transparency) and (prefers-contrast); a setting other than none is in the file names",
                  completes: .words(AccessibilitySetting.allCases.map(\.rawValue))),
            .value("wallpaper", "FILE", "an image for the wallpaper behind the banner, the Lock Screen and stacks (what iOS 26's glass blurs), cropped to each device's screen as iOS crops it: scaled to fill, centred (default: PushPreview's own)",
                   completes: .file),
            .value("backdrop", "B", "what lies behind the banner: wallpaper (the default) or app:FILE, a screenshot of the app the banner comes down over, cropped to each device's screen as the wallpaper is (the Lock Screen keeps its wallpaper)",
                   completes: .words(["wallpaper", "app:"])),
            .list("view", "LIST", "optional views: \(views)", completes: .words(RenderOptions.optionalViews)),
            .flag("show-limits", "review mode: the custom view drawn whole, its height cap and the clipped part marked (-expanded-limits)"),
            .value("media-state", "S", "paused (default) or playing: how the media play/pause button is drawn (-expanded-playing)", completes: .words(["paused", "playing"])),
            .flag("hidden-previews", "the banner as with previews hidden (-banner-hidden)"),
            .value("time-budget", "S", "service-stage budget in seconds, 0 < S ≤ 600 (default: the project's timeBudget, else 30)"),
            .list("font-dir", "DIR", "more fonts to load (Inter and Noto Color Emoji are always loaded; SF Pro's faces here draw the system's text)", completes: .folder),
        ] + WorkerPlan.options(
            timeout: "seconds one payload may take in its worker, every device and locale included, before it is stopped (default 120); the project's reading (its Xcode app, strings and template checks) has the same limit",
            memory: "memory a worker may use before its payload (or the project's reading) is stopped (default 1024)")
    }

    init(_ a: Arguments, defaultAppearances: [Appearance]) throws {
        self.init()
        do { outputFolder = try TrustedFiles.outputFolder(a.value("out") ?? "Output") } catch { throw Arguments.UsageError(description: "--out \(error.description)") }
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
        axes.iosVersions = try a.list("ios").map { v in
            guard let version = IOSVersion(argument: v) else { throw Arguments.UsageError(description: "--ios takes \(IOSVersion.accepted.joined(separator: " and/or ")), not '\(v)'") }
            return version
        }
        let glass = a.list("glass")
        if !glass.isEmpty {
            axes.glassStyles = try glass.map { v in
                guard let style = IOSChrome.Glass(rawValue: v) else { throw Arguments.UsageError(description: "--glass takes clear and/or tinted, not '\(v)'") }
                return style
            }
        }
        let settings = a.list("accessibility")
        if !settings.isEmpty {
            axes.accessibilitySettings = try settings.map { v in
                guard let setting = AccessibilitySetting(rawValue: v) else {
                    throw Arguments.UsageError(description: "--accessibility takes \(AccessibilitySetting.allCases.map(\.rawValue).joined(separator: ", ")), not '\(v)'")
                }
                return setting
            }
        }
        if let path = a.value("wallpaper") {
            do { wallpaper = try NamedPicture(URL(fileURLWithPath: path)) } catch { throw Arguments.UsageError(description: "--wallpaper \(error.description)") }
        }
        switch a.value("backdrop") {
        case nil, "wallpaper"?: break
        case let value? where value.hasPrefix("app:") && value.count > 4:
            do { appScreen = try NamedPicture(URL(fileURLWithPath: String(value.dropFirst(4)))) } catch { throw Arguments.UsageError(description: "--backdrop \(error.description)") }
        case let value?: throw Arguments.UsageError(description: "--backdrop takes wallpaper or app:FILE, not '\(value)'")
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
    /// `--timeout S` and `--max-memory MB`, which every command with workers takes.
    static func options(timeout: String, memory: String) -> [CommandSpec.Option] {
        [.value("timeout", "S", timeout), .value("max-memory", "MB", memory)]
    }

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
