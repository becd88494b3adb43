import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Imaging
import ServiceStage
import Styling

/// What to render for each payload.
public struct RenderOptions: Sendable, Codable {
    /// Device profile ids (`Templates/system/devices.json`, a project's `devices.json`),
    /// appearances, locales, text sizes and iOS versions: every axis of the output, one list each.
    public var axes = VariantAxes()
    public var devices: [String] { get { axes.devices } set { axes.devices = newValue } }
    public var appearances: [Appearance] { get { axes.appearances } set { axes.appearances = newValue } }
    /// Empty: the development language only, and no locale in file names.
    public var locales: [String] { get { axes.locales } set { axes.locales = newValue } }
    /// Dynamic Type sizes (`--text-size`); a size other than `large` is in the file names.
    public var textSizes: [TextSize] { get { axes.textSizes } set { axes.textSizes = newValue } }
    public var formats: Set<String> = ["html", "png"]
    /// `--out`: the folder the person named (opened as named; nothing beneath it follows a link).
    public var outputFolder = URL(fileURLWithPath: "Output")
    /// A folder beneath it the mock-ups go into (`received` for pushes `serve` took), never a link.
    public var outputSubfolder = ""
    public var layoutJSON = false
    /// A custom-view template to use instead of the category's (`--template`).
    public var template: URL?
    /// Overrides the project's service-stage time budget (`--time-budget`).
    public var timeBudget: Double?
    /// `--show-limits`: draw the custom view's height cap and what falls below it.
    public var showLimits = false
    /// `--media-state playing`: the play/pause button as it looks while the media plays.
    public var mediaPlaying = false
    /// `--hidden-previews`: the banner as it looks with previews hidden (`-banner-hidden`).
    public var hiddenPreviews = false
    /// The gallery's extra views where they matter: `-expanded-limits` for a clipped custom view,
    /// `-expanded-playing` for a play/pause button, `-banner-hidden` for a category with a
    /// hidden-previews placeholder.
    public var reviewVariants = false
    /// zlib level and libpng filters for a page with transparency. Opaque pages (all mock-ups) go
    /// through the fast encoder in png_opaque.c, which has no settings.
    public var pngCompressionLevel = 1
    public var pngFilters: Int32 = 0x08
    /// Views drawn only when asked (`--view`): `lockscreen`, `notification-center`.
    public var extraViews: Set<String> = []
    public static let optionalViews = ["lockscreen", "notification-center"]
    /// `--wallpaper FILE`: the team's own, behind the banner, the Lock Screen and stacks (what iOS
    /// 26's glass samples); nil: PushPreview's.
    public var wallpaper: NamedPicture?
    /// `--backdrop app:FILE`: a screenshot of the app the banner comes down over (the Lock Screen
    /// keeps its wallpaper); nil: the wallpaper.
    public var appScreen: NamedPicture?
    public init() {}
}

/// A picture a person named for a screen (the wallpaper, the app under a banner): where it is, and
/// its bytes' digest (`--incremental` draws again when it changes). Each worker reads it again, as
/// it reads the fonts.
public struct NamedPicture: Sendable, Codable, Equatable {
    public var path: String
    /// SHA-256 of its bytes; nil for a project's picture, read and hashed per job.
    public var digest: String?

    public init(path: String, digest: String?) { self.path = path; self.digest = digest }

    /// The image at `url` (a file the person named), checked to be one PushPreview decodes.
    public init(_ url: URL) throws(ConfigError) {
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(url, limit: Self.byteLimit) } catch { throw ConfigError("\(url.path): \(error)") }
        do { _ = try ImageSource(bytes) } catch { throw ConfigError("\(url.path): not an image PushPreview reads: \(error)") }
        path = url.path
        digest = SHA256.hex(bytes)
    }

    /// A photo as a phone takes it is a few MB; a file far larger is no screen's picture.
    public static let byteLimit = 64 << 20
}

/// One mock-up's outcome, as `--json` prints it and `report.json` lists it.
public struct MockupResult: Sendable, Codable, Equatable {
    public var payload: String
    public var device: String
    public var appearance: String
    public var locale: String?
    /// expanded, banner, banner-hidden or reply; review variants add -limits or -playing.
    public var view: String
    /// The payload's `aps.category`.
    public var category: String?
    public var outputs: [String]
    /// Everything found while drawing it, each with its kind and place: the one list. `warnings`
    /// and `errors` are its text by severity, also in the JSON for readers of strings.
    public var findings: [Diagnostic] { didSet { (warnings, errors) = Self.texts(findings) } }
    public private(set) var warnings: [String]
    public private(set) var errors: [String]
    public var service: ServiceReport
    /// The custom view, when there is one: its drawn height and how much of it was clipped (pt).
    public var content: ContentReport?
    /// The action buttons this view shows, with their options.
    public var actions: [ActionReport]?
    /// The Dynamic Type size it was drawn at.
    public var textSize: String?
    /// The payload's `interruption-level` (active when it gives none) and `thread-id`.
    public var interruptionLevel: String?
    public var threadId: String?
    /// What the view shows that is not a fallback but a reviewer should know (a passive
    /// notification never shows a banner, say).
    public var notes: [String]?
    /// The iOS version whose chrome drew it ("26", "18"); nil in reports made before there was a choice (iOS 18's).
    public var ios: String?
    /// The glass it was drawn with (clear, tinted) when its iOS version has glass.
    public var glass: String?
    /// The display setting it was drawn with (reduce-transparency, increase-contrast); nil for none.
    public var accessibility: String?
    /// The face that drew the chrome's text: "Inter" (SF Pro's stand-in), or SF Pro's faces when
    /// the fonts hold them ("SF Pro Text and SF Pro Display").
    public var systemFont: String?

    public init(payload: String, device: String = "", appearance: String = "", locale: String? = nil, view: String = "expanded", category: String? = nil,
                findings: [Diagnostic] = [], service: ServiceReport = .none) {
        self.payload = payload; self.device = device; self.appearance = appearance; self.locale = locale; self.view = view; self.category = category
        outputs = []; self.findings = findings; (warnings, errors) = Self.texts(findings); self.service = service
    }

    /// A payload that drew nothing, and why.
    public static func failed(_ payload: String, view: String = "expanded", _ findings: [Diagnostic]) -> MockupResult {
        MockupResult(payload: payload, view: view, findings: findings)
    }

    static func texts(_ findings: [Diagnostic]) -> (warnings: [String], errors: [String]) {
        (findings.filter { $0.severity == .warning }.map(\.description), findings.filter { $0.severity == .error }.map(\.description))
    }

    /// Adds a finding once (a note every view of a job meets is said once per mock-up).
    public mutating func say(_ finding: Diagnostic) { if !findings.contains(finding) { findings.append(finding) } }
}

public struct ContentReport: Sendable, Codable, Equatable {
    public var category: String?
    public var customViewHeight: Double
    public var clippedBy: Double
    /// The custom view's template file.
    public var template: String?
}

public struct ActionReport: Sendable, Codable, Equatable {
    public var identifier: String
    public var title: String
    public var options: [String]
    public var textInput: Bool
}

/// The service stage's part of a result: `{"ran", "level", "steps": [{"step", "outcome", "ms", "bytes", "message"}]}`.
public struct ServiceReport: Sendable, Codable, Equatable {
    public var ran: Bool
    public var level: String
    public var steps: [ServiceTrace.Step]
    public init(_ trace: ServiceTrace) { ran = trace.ran; level = trace.level.rawValue; steps = trace.steps }
    public static let none = ServiceReport(ServiceTrace())
}

/// The tool's version: in reports, and in the inputs of `--incremental`.
public let pushPreviewVersion = "0.2.0"
