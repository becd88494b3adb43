import Checked
import ConfinedFiles
import Foundation
import Imaging
import Layout
import Payload
import Rendering
import ServiceStage
import Styling
import Templating
import Typography
import ProjectImport
import Formats

/// What each fuzz target does with one input, shared by the libFuzzer executables in Fuzz/ and by
/// the regression test that replays every crasher kept in Tests/Fixtures/fuzz/TARGET/. Each may
/// refuse its input with an error; none may trap, hang or grow without bound.
public enum FuzzTargets {
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "json": json, "payload": payload, "plist": plist, "strings": strings, "mustache": mustache,
        "css": css, "html": html, "layout": layout, "image": image, "media": media,
        "yaml": yaml, "storyboard": storyboard, "objc": objc, "assets": assets, "xcconfig": xcconfig,
    ]

    /// The importers read files: each input is written to this process's own scratch file.
    static func scratch(_ bytes: [UInt8], _ name: String) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try? Data(bytes).write(to: file)
        return file
    }

    /// Any bytes as an XcodeGen spec (project.yml), read as a project.
    public static func yaml(_ bytes: [UInt8]) {
        _ = try? YAMLReader.parse(bytes, file: "project.yml")
        _ = try? XcodeProject(xcodeGenSpec: scratch(bytes, "project.yml"))
    }

    /// Any bytes as an app icon set's Contents.json and as an Icon Composer icon's icon.json (its
    /// layers a PNG and an SVG beside it), each appearance read.
    public static func assets(_ bytes: [UInt8]) {
        let root = scratch([], "assets").deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Assets.xcassets"), bundle = root.appendingPathComponent("AppIcon.icon")
        let folder = catalog.appendingPathComponent("AppIcon.appiconset")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: bundle.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        for name in ["Icon.png", "Dark.png"] where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try? Data([137, 80, 78, 71, 13, 10, 26, 10]).write(to: folder.appendingPathComponent(name))
        }
        for name in ["Front.svg", "Back.png"] { try? Data("<svg width=\"10\" height=\"10\"/>".utf8).write(to: bundle.appendingPathComponent("Assets/" + name)) }
        try? Data(bytes).write(to: folder.appendingPathComponent("Contents.json"))
        try? Data(bytes).write(to: bundle.appendingPathComponent("icon.json"))
        var problems: [String] = []
        _ = try? AppIconSet.read(catalog: catalog, name: "AppIcon", in: Repository(around: catalog), problems: &problems)
        if let folder = try? ConfinedFolder(trusted: bundle), let icon = try? IconComposerIcon.read(bundle: folder) {
            for appearance in IconComposerIcon.Appearance.allCases { _ = icon.rendition(appearance) }
            _ = icon.inputs
        }
    }

    /// A spec whose configurations read the fuzzed xcconfig at both levels, with settings and an
    /// Info.plist that name its settings, so every layer of expansion meets what it sets.
    static let xcconfigSpec = """
    name: Fuzz
    configFiles:
      Debug: Settings.xcconfig
    settings:
      base:
        OTHER_SWIFT_FLAGS: $(inherited) -DPROJECT
    targets:
      App:
        type: application
        platform: iOS
        configFiles:
          Debug: Settings.xcconfig
          Release: Settings.xcconfig
        settings:
          base:
            PRODUCT_BUNDLE_IDENTIFIER: $(BASE_BUNDLE_IDENTIFIER).$(PRODUCT_NAME:rfc1034identifier)
            OTHER_SWIFT_FLAGS: ${OTHER_SWIFT_FLAGS} -DAPP
        info:
          path: Info.plist
          properties:
            CFBundleDisplayName: $(DISPLAY_NAME) $(APP_NAME:upper)
            NSExtension: {NSExtensionAttributes: {UNNotificationExtensionCategory: [$(CATEGORY), "${CATEGORY:lower}"]}}
    """

    /// Any bytes as an xcconfig file, read through an XcodeGen spec: layered, `$(inherited)`
    /// resolved, every setting expanded for each configuration, and the Info.plist's strings.
    public static func xcconfig(_ bytes: [UInt8]) {
        _ = scratch(bytes, "Settings.xcconfig") // beside the spec, in this process's scratch folder
        guard let project = try? XcodeProject(xcodeGenSpec: scratch(Array(xcconfigSpec.utf8), "project.yml")) else { return }
        var problems: [String] = []
        for target in project.targets {
            for configuration in target.configurations {
                _ = XcodeDiscovery.infoPlist(of: target, in: project, configuration: configuration.name, problems: &problems)
            }
        }
    }

    /// Any bytes as a content extension's storyboard, converted to a template.
    public static func storyboard(_ bytes: [UInt8]) {
        _ = try? StoryboardTemplate.convert(scratch(bytes, "MainInterface.storyboard"), bindings: ["label": "title", "image": "attachment.url"], colors: [:])
    }

    /// Any bytes as Objective-C registering notification categories.
    public static func objc(_ bytes: [UInt8]) {
        let file = scratch(bytes, "Categories.m")
        _ = CodeImport.read([file], root: file.deletingLastPathComponent()).categoriesJSON()
    }

    /// Any bytes as a JSON file.
    public static func json(_ bytes: [UInt8]) {
        if let value = try? JSONParser.parse(bytes, file: "fuzz.json") { _ = value.compact }
    }

    /// Any bytes as an APNs payload file.
    public static func payload(_ bytes: [UInt8]) { _ = try? PayloadParser.parse(bytes, file: "fuzz.apns") }

    /// Any bytes as an Info.plist, XML or binary.
    public static func plist(_ bytes: [UInt8]) { _ = try? PropertyList.read(bytes, file: "Info.plist") }

    /// Any bytes as a Localizable.strings file, a String Catalog, and a format string.
    public static func strings(_ bytes: [UInt8]) {
        _ = try? StringsFile.parse(bytes, file: "fuzz.strings")
        _ = try? StringCatalog(bytes, file: "fuzz.xcstrings")
        _ = Localizer.format(String(decoding: bytes, as: UTF8.self), ["1", "-9223372036854775808", "x"])
    }

    /// A template, then (after a NUL) JSON data for it; the template is also every partial.
    public static func mustache(_ bytes: [UInt8]) {
        let cut = bytes.firstIndex(of: 0) ?? bytes.count
        let source = String(decoding: bytes[..<cut], as: UTF8.self)
        let json = cut < bytes.count ? (try? JSONParser.parse(Array(bytes[(cut + 1)...]), file: "data.json")) : nil
        guard let template = try? MustacheTemplate(source, name: "fuzz.html") else { return }
        _ = try? template.render(json.map(TemplateValue.init(json:)) ?? .object(["a": .list([.null, .string("<b>"), .number(1e300)])])) { _ in source }
    }

    /// Any text as a style sheet and a style attribute, on a small document in both appearances.
    public static func css(_ bytes: [UInt8]) {
        let css = String(decoding: bytes, as: UTF8.self)
        let sheet = Stylesheet(css, file: "fuzz.css")
        let p = Element(tag: "p", attributes: [.init("class", "title"), .init("style", css)], children: [.text("Ferry")])
        let body = Element(tag: "body", children: [.element(Element(tag: "div", attributes: [.init("id", "card")], children: [.element(p)]))])
        for appearance in Appearance.allCases { _ = StyleResolver(sheets: [sheet], appearance: appearance).resolve(body, file: "fuzz.html") }
    }

    /// Any text as a template's HTML: parsed, then sanitized.
    public static func html(_ bytes: [UInt8]) {
        if let document = try? HTMLParser.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.html") {
            _ = Sanitizer.sanitize(document, allowURL: Sanitizer.localURL).body.html()
        }
    }

    /// Fonts and an image, set up once for the whole run, as a render worker does.
    nonisolated(unsafe) static let fonts = try! FontSystem(fonts: try! FontSet.standard())
    nonisolated(unsafe) static let images: ImageStore = {
        let store = ImageStore()
        let png = try! PNGCodec.encode(RGBAImage(width: 8, height: 6, filledWith: (200, 80, 20, 255)))
        try! store.register("media/a.png", bytes: png, fileName: "media/a.png", identity: "a")
        return store
    }()

    /// Any text as a template: sanitized, styled, laid out 361 pt wide and painted at @3x.
    public static func layout(_ bytes: [UInt8]) {
        guard let parsed = try? HTMLParser.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.html") else { return }
        let document = Sanitizer.sanitize(parsed, allowURL: Sanitizer.localURL)
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: "fuzz.html", firstLine: $0.line) }
        let (styled, _) = StyleResolver(sheets: sheets, appearance: .dark).resolve(document.body, file: "fuzz.html")
        let images = Self.images
        let scene = LayoutEngine(fonts: fonts) { images.size(of: $0) }.layout(styled, width: 361)
        _ = PNGPainter(fonts: fonts, images: images, scale: 3).paint(scene, background: .white)
    }

    /// Any bytes as an attachment: sniffed, decoded (JPEG, PNG or GIF) and thumbnailed, as the
    /// banner's thumbnail is made, and again at a late frame with a clip.
    public static func image(_ bytes: [UInt8]) {
        _ = try? Thumbnailer.thumbnail(bytes, width: 114, height: 114, fit: .fill)
        _ = try? Thumbnailer.thumbnail(bytes, width: 40, height: 90, fit: .fit, clip: .init(x: 0.25, y: 0, width: 0.5, height: 1), frame: 3)
    }

    /// Any bytes as a video or audio attachment: measured, and its poster taken (first frame, and
    /// the frame at 1.5 s) into a banner thumbnail's box.
    public static func media(_ bytes: [UInt8]) {
        _ = try? MediaFile.info(bytes)
        _ = try? MediaFile.poster(bytes, maxWidth: 114, maxHeight: 114)
        _ = try? MediaFile.poster(bytes, at: 1.5, maxWidth: 114, maxHeight: 114)
    }
}
