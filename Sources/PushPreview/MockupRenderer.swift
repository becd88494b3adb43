import ContentStage
import Foundation
import Imaging
import Layout
import Payload
import Rendering
import ServiceStage
import Styling
import Templating
import Typography

/// What to render for each payload.
public struct RenderOptions: Sendable {
    public var devices: [DeviceProfile] = [.standard]
    public var appearances: [Appearance] = [.light]
    /// Empty: the development language only, and no locale in file names.
    public var locales: [String] = []
    public var formats: Set<String> = ["html", "png"]
    public var outputFolder = URL(fileURLWithPath: "Output")
    public var layoutJSON = false
    /// A custom-view template to use instead of the category's (`--template`).
    public var template: URL?
    /// Overrides the project's service-stage time budget (`--time-budget`).
    public var timeBudget: Double?
    /// zlib level 3 with no PNG row filter: measured 6x faster than libpng's adaptive
    /// filters at level 6, for files about a third larger on photos (`make bench`).
    public var pngCompressionLevel = 3
    public var pngFilters: Int32 = 0x08
    public init() {}
}

/// One mock-up's outcome, as `--json` prints it and `report.json` will list it.
public struct MockupResult: Sendable, Codable, Equatable {
    public var payload: String
    public var device: String
    public var appearance: String
    public var locale: String?
    public var view: String
    public var outputs: [String]
    public var warnings: [String]
    public var errors: [String]
    public var service: ServiceReport
    /// The custom view, when there is one: its drawn height and how much of it was clipped (pt).
    public var content: ContentReport?
}

public struct ContentReport: Sendable, Codable, Equatable {
    public var category: String?
    public var customViewHeight: Double
    public var clippedBy: Double
}

/// The service stage's part of a result: `{"ran", "level", "steps": [{"step", "outcome", "ms", "bytes", "message"}]}`.
public struct ServiceReport: Sendable, Codable, Equatable {
    public var ran: Bool
    public var level: String
    public var steps: [ServiceTrace.Step]
    public init(_ trace: ServiceTrace) { ran = trace.ran; level = trace.level.rawValue; steps = trace.steps }
    public static let none = ServiceReport(ServiceTrace())
}

/// Runs the whole pipeline for payload files. Owns one font system, so one renderer per thread.
public final class MockupRenderer {
    let fonts: FontSystem
    let contentStage: ContentStage
    let images = ImageStore()

    public init(fonts: FontSet, templates: URL, projectTemplates: URL? = nil) throws(TypographyError) {
        self.fonts = try FontSystem(fonts: fonts)
        contentStage = ContentStage(templateFolders: (projectTemplates.map { [$0] } ?? []) + [templates])
    }

    /// Renders one payload file in every requested variant. Never throws: a failure is a result with errors.
    public func render(payloadFile: URL, project: Project, options: RenderOptions) -> [MockupResult] {
        let name = payloadFile.deletingPathExtension().lastPathComponent
        let failure = { (message: String) in
            [MockupResult(payload: payloadFile.path, device: "", appearance: "", locale: nil, view: "expanded",
                          outputs: [], warnings: [], errors: [message], service: .none, content: nil)]
        }
        guard let data = FileManager.default.contents(atPath: payloadFile.path) else {
            return failure("\(payloadFile.path): no such file (check the path)")
        }
        let payload: Payload, diagnostics: [PayloadDiagnostic]
        do { (payload, diagnostics) = try PayloadParser.parse([UInt8](data), file: payloadFile.path) } catch {
            return failure(error.description)
        }
        var service = ServiceStage(projectFolder: project.folder, settings: project.service)
        if let budget = options.timeBudget { service.settings.timeBudget = budget }
        var notifications: [String: DeliveredNotification] = [:]
        let folder = options.outputFolder.appendingPathComponent(name)
        var results: [MockupResult] = []
        for device in options.devices {
            for appearance in options.appearances {
                for locale in options.locales.isEmpty ? [nil] : options.locales.map(Optional.some) {
                    let language = locale ?? "en"
                    if notifications[language] == nil { notifications[language] = service.run(payload, locale: language) }
                    let notification = notifications[language]!
                    var result = MockupResult(payload: payloadFile.path, device: device.id, appearance: appearance.rawValue, locale: locale,
                                              view: "expanded", outputs: [], warnings: diagnostics.map(\.description) + project.warnings, errors: [],
                                              service: ServiceReport(notification.trace), content: nil)
                    let stem = [device.id, appearance.rawValue, locale].compactMap { $0 }.joined(separator: "-") + "-expanded"
                    do {
                        try renderExpanded(notification, project: project, device: device, appearance: appearance, locale: language,
                                           folder: folder, stem: stem, options: options, result: &result)
                    } catch {
                        result.errors.append("\(error)")
                    }
                    results.append(result)
                }
            }
        }
        return results
    }

    /// A template's own image: a `data:image/…;base64` URL, or a file inside the media roots.
    static func resolveTemplateImage(_ src: String, project: Project) -> (bytes: [UInt8], fileName: String?, identity: String)? {
        if src.lowercased().hasPrefix("data:image/"), let comma = src.firstIndex(of: ","), src[..<comma].lowercased().hasSuffix(";base64") {
            guard let data = Data(base64Encoded: String(src[src.index(after: comma)...]), options: .ignoreUnknownCharacters) else { return nil }
            return ([UInt8](data), nil, "data:\(data.count):\(src.suffix(32))")
        }
        guard Sanitizer.isLocalURL(src), !src.contains(":") else { return nil }
        guard let file = project.service.mediaFile(src, in: project.folder), let bytes = try? ImageFile.read(file.path) else { return nil }
        return (bytes, src, file.path)
    }

    private func renderExpanded(_ notification: DeliveredNotification, project: Project, device: DeviceProfile, appearance: Appearance,
                                locale: String, folder: URL, stem: String, options: RenderOptions, result: inout MockupResult) throws {
        let images = self.images
        images.beginPage()
        images.resolver = { src in Self.resolveTemplateImage(src, project: project) }
        var sources: [(src: String, width: Int, height: Int)] = []
        for attachment in notification.attachments {
            let ext = URL(fileURLWithPath: attachment.path).pathExtension.lowercased()
            let src = "media/\(attachment.identifier).\(ext.isEmpty ? "img" : ext)"
            do {
                try images.register(src, bytes: attachment.bytes, fileName: src, identity: attachment.path)
                let size = images.size(of: src)!
                sources.append((src, Int(size.width), Int(size.height)))
            } catch {
                result.errors.append("\(attachment.path): \(error)")
                return
            }
        }
        var iconSource: String?
        if let icon = project.appIcon {
            let url = project.folder.appendingPathComponent(icon)
            if let data = FileManager.default.contents(atPath: url.path) {
                let src = "media/app-icon.\(url.pathExtension.lowercased())"
                do {
                    try images.register(src, bytes: [UInt8](data), fileName: src, identity: url.path)
                    iconSource = src
                } catch { result.warnings.append("\(url.path): app icon not usable: \(error); drawing the placeholder") }
            } else { result.warnings.append("\(url.path): app icon not found; drawing the placeholder") }
        }

        let context = TemplateContext(notification: notification, appName: project.appName, appIconSource: iconSource, device: device,
                                      appearance: appearance, locale: locale, attachmentSources: sources)
        var customView: ContentStage.CustomView?
        if let template = options.template {
            guard let data = FileManager.default.contents(atPath: template.path) else {
                throw TemplateError(file: template.path, line: 0, message: "no such template file")
            }
            customView = .init(source: String(decoding: data, as: UTF8.self), file: template.path)
        }
        let composition = try contentStage.compose(.expanded, context: context, customView: customView) {
            images.entries[$0] != nil || Sanitizer.isLocalURL($0)
        }
        result.warnings += composition.warnings.map(\.description)
        let (styled, styleWarnings) = StyleResolver(sheets: composition.sheets, appearance: appearance)
            .resolve(composition.document.body, file: composition.document.file)
        result.warnings += styleWarnings.map(\.description)

        let engine = LayoutEngine(fonts: fonts) { images.size(of: $0) }
        let scene = engine.layout(styled, width: device.width, language: locale)
        if customView != nil, let view = scene.find(id: "custom-view") {
            let clipped = max(0, view.contentBottom - view.box.frame.height)
            result.content = ContentReport(category: notification.category, customViewHeight: view.box.frame.height, clippedBy: (clipped * 100).rounded() / 100)
            if clipped > 0 {
                result.warnings.append("\(options.template?.lastPathComponent ?? "custom view") is \(formatNumber(view.contentBottom)) pt tall; iOS shows \(formatNumber(device.customViewHeightLimit)) pt on \(device.name) and clips \(formatNumber(clipped)) pt")
            }
        }
        for src in images.missing.sorted() {
            result.warnings.append("image \(src.prefix(80)): not an attachment, not found in \(project.service.mediaRoots.joined(separator: ", ")), or not a readable image")
        }
        if scene.missingGlyphs > 0 { result.warnings.append("\(scene.missingGlyphs) character(s) have no glyph in the fonts and show as boxes") }
        let background = styled.style.backgroundColor.a > 0 ? styled.style.backgroundColor : .white

        if options.formats.contains("png") {
            let painted = PNGPainter(fonts: fonts, images: images, scale: device.scale).paint(scene, background: background)
            result.warnings += painted.warnings
            let url = folder.appendingPathComponent(stem + ".png")
            try OutputFile.write(try PNGCodec.encode(painted.image, scale: device.scale, compressionLevel: options.pngCompressionLevel, filters: options.pngFilters), to: url)
            result.outputs.append(url.path)
        }
        if options.formats.contains("html") {
            let page = HTMLWriter.Page(title: "\(notification.title.isEmpty ? project.appName : notification.title) — \(device.name), \(appearance.rawValue)",
                                       body: composition.document.body, sheets: composition.sheets, appearance: appearance,
                                       width: device.width, background: background, language: locale)
            let url = folder.appendingPathComponent(stem + ".html")
            try OutputFile.write(HTMLWriter.html(page) { $0 }, to: url)
            for entry in images.entries.values where !entry.fileName.isEmpty {
                try OutputFile.write(entry.bytes, to: folder.appendingPathComponent(entry.fileName))
            }
            result.outputs.append(url.path)
        }
        if options.layoutJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let url = folder.appendingPathComponent(stem + ".layout.json")
            try OutputFile.write([UInt8](try encoder.encode(scene.boxes)), to: url)
            result.outputs.append(url.path)
        }
    }
}
