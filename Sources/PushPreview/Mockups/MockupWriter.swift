import Checked
import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Imaging
import Rendering
import ServiceStage
import Typography

/// Writes a view that is laid out: its PNG, its HTML page (the images and fonts it shows stored
/// once per output folder, by content) and, with `--layout-json`, its boxes; and says what the
/// layout could not draw.
final class MockupWriter {
    let fonts: FontSystem
    let images: ImageStore
    /// Shared media files already written, by output folder (a renderer may write more than
    /// one), content and size.
    private var sharedNames = BoundedCache<String, String>(budget: 1 << 20)

    init(fonts: FontSystem, images: ImageStore) {
        self.fonts = fonts
        self.images = images
    }

    func write(_ view: MockupRenderer.LaidOut, stem: String, context: TemplateContext, job: MockupRenderer.Job, result: inout MockupResult) throws {
        let scene = view.scene, composition = view.composition
        for src in images.missing.sorted() {
            result.findings.append(Diagnostic(.warning, code: .media, "image \(src.prefix(80)): not an attachment, not found in \(job.project.service.mediaRoots.joined(separator: ", ")), or not a readable image"))
        }
        for family in scene.unknownFamilies {
            result.findings.append(Diagnostic(.warning, code: .font, "font-family \(family.replacingOccurrences(of: ",", with: ", ")): no loaded font provides it; drawn in Inter (add the app's fonts: UIAppFonts in its Xcode project, \"fonts\" in pushpreview.json, or --font-dir)"))
        }
        if scene.truncatedParagraphs > 0 {
            result.findings.append(Diagnostic(.warning, code: .text, "a paragraph is longer than \(Paragraph.maxCharacters) characters; only its first \(Paragraph.maxCharacters) are laid out"))
        }
        if scene.missingGlyphs > 0 { result.findings.append(Diagnostic(.warning, code: .text, "\(scene.missingGlyphs) character(s) have no glyph in the fonts and show as boxes")) }
        let background = view.styled.style.backgroundColor.a > 0 ? view.styled.style.backgroundColor : .white
        let options = job.options, output = job.output, folder = job.folderName
        func write(_ bytes: [UInt8], _ name: String) throws {
            try output.write(bytes, to: folder + "/" + name)
            result.outputs.append(output.url.appendingPathComponent(folder + "/" + name).path)
        }
        if options.formats.contains("png") {
            let painted = try PNGPainter(fonts: fonts, images: images, scale: job.device.scale)
                .paintPNG(scene, background: background, compressionLevel: options.pngCompressionLevel, filters: options.pngFilters)
            result.findings += painted.warnings.map { Diagnostic(.warning, code: .media, $0) }
            try write(painted.png, stem + ".png")
        }
        if options.formats.contains("html") {
            let n = context.notification
            var page = HTMLWriter.Page(title: "\(n.title.isEmpty ? context.appName : n.title) — \(job.device.name), \(job.appearance.rawValue)",
                                       body: composition.document.body, sheets: composition.sheets, appearance: job.appearance,
                                       width: job.device.width, deviceScale: job.device.scale, background: background, language: job.language)
            page.accessibility = job.variant.accessibility
            for (src, file) in view.fontFiles { page.fontFiles[src] = "../" + (try sharedFont(file, job: job)) }
            var shared: [String: String] = [:]
            for (src, entry) in images.entries where !entry.fileName.isEmpty { shared[src] = "../" + (try sharedMedia(src, entry, job: job)) }
            try write(Array(HTMLWriter.html(page) { shared[$0] ?? $0 }.utf8), stem + ".html")
        }
        if options.layoutJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try write([UInt8](try encoder.encode(scene.boxes)), stem + ".layout.json")
        }
    }

    /// The file a page shows for `src`, written once per output folder and named by its content
    /// (`media/<hash>.<ext>`, beside the payload folders), so that one icon or photo shown by every
    /// page of a gallery is stored once. The app icon is stored at the largest size a view draws it.
    private func sharedMedia(_ src: String, _ entry: ImageStore.Entry, job: MockupRenderer.Job) throws -> String {
        let key = "\(job.output.url.path)|\(images.identity(of: src) ?? src)|\(src)|\(job.device.scale)"
        if let known = sharedNames.value(key) { return known }
        var bytes = entry.bytes, ext = URL(fileURLWithPath: entry.fileName).pathExtension.lowercased()
        let side = Int(job.chrome["icon.size"].rounded(.up)) * job.device.scale
        if src.hasPrefix(MediaPreparation.appIconSource), entry.source.uprightSize.width > side || entry.source.uprightSize.height > side {
            bytes = try PNGCodec.encode(try Thumbnailer.thumbnail(entry.bytes, width: side, height: side, fit: .fit), scale: job.device.scale)
            ext = "png"
        }
        let name = try sharedFile(bytes, extension: ext.isEmpty ? "img" : ext, job: job)
        sharedNames.insert(name, for: key, cost: key.utf8.count + name.utf8.count)
        return name
    }

    /// A @font-face file's copy beside the pages, read and hashed once per run.
    private func sharedFont(_ file: URL, job: MockupRenderer.Job) throws -> String {
        let key = "font|\(job.output.url.path)|\(file.path)"
        if let known = sharedNames.value(key) { return known }
        let bytes = try job.project.serviceFolders.media.read(file, limit: 64 << 20)
        let name = try sharedFile(bytes, extension: file.pathExtension.lowercased(), job: job)
        sharedNames.insert(name, for: key, cost: key.utf8.count + name.utf8.count)
        return name
    }

    /// `media/<hash>.<ext>` in the output folder, written once.
    private func sharedFile(_ bytes: [UInt8], extension ext: String, job: MockupRenderer.Job) throws -> String {
        let name = "media/\(SHA256.hex(bytes).prefix(20)).\(ext)"
        if !job.output.isFile(name) { try job.output.write(bytes, to: name) }
        return name
    }
}
