import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Layout
import Styling
import Templating
import Typography

/// Laying out one view: its template composed with its data, styled, laid out at the device's
/// width (the custom view measured under the device's cap), then handed to the writer.
extension MockupRenderer {
    /// A view laid out, with the @font-face files its page links.
    struct LaidOut {
        var composition: ContentStage.Composition
        var styled: StyledElement
        var scene: Scene
        var fontFiles: [String: URL]
    }

    /// The app's own fonts (UIAppFonts, `fonts`), known by their own family names.
    func loadAppFonts(_ job: Job, result: inout MockupResult) {
        for file in job.project.fonts {
            do {
                if !fonts.addFace(try job.project.inputs.open(file), family: nil) {
                    result.findings.append(Diagnostic(.warning, code: .font, file: file.path, "the app's font is not a font file fontconfig can read; text in it is drawn in Inter"))
                }
            } catch {
                result.findings.append(Diagnostic(.warning, code: .font, file: file.path, "the app's font \(error.isMissing ? "does not exist" : error.why); text in it is drawn in Inter"))
            }
        }
    }

    /// Composes, styles and lays out one view, then writes its PNG and HTML. The custom view is
    /// laid out at its content's height under the device's cap; a view with no height of its own
    /// gets width × InitialContentSizeRatio, and `--show-limits` draws it whole with the cap
    /// marked — both by laying out once more with the measured height in the template data.
    func render(_ view: ContentStage.View, name: String, context: TemplateContext, customView: ContentStage.CustomView?,
                ratio: Double, templateFile: String?, job: Job, result: inout MockupResult) {
        let subject = "\(templateFile.map { job.project.relativePath(URL(fileURLWithPath: $0)) } ?? "the system templates") for \(job.stem(name))"
        activity?("laying out \(subject)")
        do {
            var context = context
            var laidOut = try layout(view, context: context, customView: customView, job: job)
            if customView != nil, let box = laidOut.scene.find(id: "custom-view") {
                let natural = box.contentBottom
                let height = natural > 0 ? natural : (context.platterWidths.longLook * ratio * 100).rounded() / 100
                let shown = min(height, context.customView.limit)
                context.customView.clippedBy = height - shown
                if natural == 0 || context.customView.showLimits {
                    context.customView.height = height
                    laidOut = try layout(view, context: context, customView: customView, job: job)
                }
                result.content = ContentReport(category: context.notification.category, customViewHeight: shown,
                                               clippedBy: (context.customView.clippedBy * 100).rounded() / 100, template: templateFile)
                if context.customView.clippedBy > 0 && view == .expanded {
                    result.findings.append(Diagnostic(.warning, code: .clipped, file: templateFile ?? "", "\((templateFile.map { URL(fileURLWithPath: $0).lastPathComponent }) ?? "custom view") is \(formatNumber(height)) pt tall; iOS shows \(formatNumber(shown)) pt on \(context.device.name) and clips \(formatNumber(context.customView.clippedBy)) pt"))
                }
            }
            // A key the template data lacks is said once per template and payload, not on every view.
            result.findings += laidOut.composition.warnings.map(\.diagnostic).filter { $0.code != .templateMissingKey || saidForPayload.insert($0.description).inserted }
            activity?("painting \(subject)")
            try writer.write(laidOut, stem: job.stem(name), context: context, job: job, result: &result)
        } catch {
            result.findings.append(error.asDiagnostic)
        }
    }

    func layout(_ view: ContentStage.View, context: TemplateContext, customView: ContentStage.CustomView?, job: Job) throws -> LaidOut {
        let images = media.images
        var composition = try job.stage.compose(view, context: context, customView: customView) {
            images.entries[$0] != nil ? $0 : MediaPreparation.templateURL($0, project: job.project)
        }
        let (fontFiles, faceWarnings) = loadFontFaces(composition.sheets, job: job)
        composition.warnings += faceWarnings
        let (styled, styleWarnings) = StyleResolver(sheets: composition.sheets, media: job.variant.media, deviceScale: DeviceScale(Double(job.device.scale)))
            .resolve(composition.document.body, file: composition.document.file, fonts: fonts)
        composition.warnings += styleWarnings
        let engine = LayoutEngine(fonts: fonts) { images.size(of: $0) }
        return LaidOut(composition: composition, styled: styled, scene: engine.layout(styled, width: job.device.width, language: job.language), fontFiles: fontFiles)
    }

    /// The templates' @font-face files: each `url()` a file inside the media roots (the rule
    /// images follow), loaded into the fonts under the rule's family name; the page links a copy
    /// of each file loaded, by its `url()`.
    func loadFontFaces(_ sheets: [Stylesheet], job: Job) -> ([String: URL], [TemplateWarning]) {
        var warnings: [TemplateWarning] = [], files: [String: URL] = [:]
        for sheet in sheets {
            for face in sheet.fontFaces {
                let media = job.project.serviceFolders
                let found = face.sources.compactMap { src in Sanitizer.localURL(src).flatMap { media.mediaFile($0) }.map { (src, $0) } }
                    .filter { media.media.isFile($0.1) }
                if let (src, file) = found.first(where: { (try? media.media.open($0.1)).map { fonts.addFace($0, family: face.family) } ?? false }) {
                    files[src] = file
                } else {
                    warnings.append(TemplateWarning(file: sheet.file, line: face.line, message: found.isEmpty
                        ? "@font-face \"\(face.family)\": \(face.sources.joined(separator: ", ")) is not a file inside the media roots (\(job.project.service.mediaRoots.joined(separator: ", ")))"
                        : "@font-face \"\(face.family)\": \(found.map { job.project.relativePath($0.1) }.joined(separator: ", ")) is not a font file fontconfig can read"))
                }
            }
        }
        return (files, warnings)
    }
}
