import Checked
import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Payload
import ServiceStage
import Styling
import Templating
import Typography

/// `pushpreview validate`: checks a project's configuration, payloads and templates against each
/// other without rendering or writing anything.
public struct Validator {
    static let categoryKey = "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory"
    let templates: URL
    /// The font system the template checks measure with, made once per run (not per template).
    private let fonts = Fonts()
    public init(templates: URL) { self.templates = templates }

    /// Templates a project check reads beyond those its categories name: a project of thousands
    /// would take minutes, and none draws more than its categories.
    static let maxUnusedTemplates = 256

    private final class Fonts {
        lazy var system: FontSystem? = try? FontSystem(fonts: FontSet.standard())
    }

    /// A project folder: everything in it. A payload file: it and its project's configuration.
    /// A template file: it alone, with placeholder data.
    public func validate(_ path: URL, project explicitProject: URL? = nil) -> [Diagnostic] {
        guard TrustedFiles.exists(path) else { return [Diagnostic(.error, code: .path, file: path.path, "no such file or folder")] }
        let isDirectory = TrustedFiles.isFolder(path)
        if path.pathExtension == "html" {
            let folder = explicitProject ?? path.deletingLastPathComponent().deletingLastPathComponent()
            return checkTemplate(path, category: path.deletingPathExtension().lastPathComponent, project: try? Project(folder: folder))
        }
        let folder = explicitProject ?? (isDirectory ? path : Project.folder(containing: path))
        let project: Project
        do { project = try Project(folder: folder) } catch { return [error.diagnostic] }
        var findings = projectFindings(project)
        for payload in isDirectory ? project.payloadFiles : [path] {
            findings += checkPayload(payload, project: project)
        }
        return findings
    }

    /// Everything about the project as a whole, with its severity: what validate reports and what
    /// render and gallery say once per run (one list, so the three never disagree): the settings,
    /// the Xcode app, the icon, strings, categories and their templates, devices, and each
    /// category's action texts in every locale the gallery draws.
    public func projectFindings(_ project: Project) -> [Diagnostic] {
        let findings = project.issues + project.content.issues.filter { $0.category != nil } + checkCategories(project) + checkDevices(project)
            + ActionTexts.findings(project, locales: project.locales.isEmpty ? ["en"] : project.locales)
        var seen: Set<Diagnostic> = []
        return findings.filter { seen.insert($0).inserted }
    }

    /// The project's devices.json, which the repository's profiles are merged with.
    func checkDevices(_ project: Project) -> [Diagnostic] {
        do { _ = try MockupRenderer.deviceCatalog(templates: templates, project: project) } catch {
            return [Diagnostic(located: error.description, severity: .error, code: .devices)]
        }
        return []
    }

    /// Extensions, categories and templates against each other.
    func checkCategories(_ project: Project) -> [Diagnostic] {
        let config = project.content
        let categoriesFile = project.folder.appendingPathComponent("categories.json").path
        var findings: [Diagnostic] = []
        let stage = ContentStage(project: project.files, templates: templates)
        var used: Set<String> = []
        for ext in config.extensions {
            for id in ext.categories {
                let category = config.category(id)
                if category == nil { findings.append(Self.undefinedCategory(id, claimedBy: ext)) }
                let name = (category?.template ?? id) + ".html"
                used.insert(name)
                guard let file = stage.templateFolders.first(where: { $0.isFile(name) })?.url.appendingPathComponent(name) else {
                    findings.append(Self.missingTemplate(id, name: name, claimedBy: ext))
                    continue
                }
                findings += checkTemplate(file, category: id, project: project)
            }
        }
        for category in config.categories {
            if let t = category.template, config.contentExtension(for: category.identifier) == nil {
                findings.append(Diagnostic(.warning, code: .templateUnused, file: categoriesFile, keyPath: category.identifier, "names template \"\(t)\" but no extension claims the category: iOS draws the default look"))
            }
            for action in category.actions {
                if let warning = stage.symbol(action.icon).warning {
                    findings.append(Diagnostic(.warning, code: .symbol, file: categoriesFile, keyPath: "\(category.identifier).\(action.identifier)", warning, category: category.identifier))
                }
            }
        }
        let projectTemplates = project.folder.appendingPathComponent("Templates")
        let unused = ((try? project.files.names("Templates")) ?? []).filter { $0.hasSuffix(".html") && !used.contains($0) }
        if unused.count > Self.maxUnusedTemplates {
            findings.append(Diagnostic(.warning, code: .templateCount, file: projectTemplates.path, "\(unused.count) templates no extension claims; the first \(Self.maxUnusedTemplates) are checked"))
        }
        for name in unused.prefix(Self.maxUnusedTemplates) {
            let id = String(name.dropLast(5))
            findings.append(Diagnostic(.warning, code: .templateUnused, file: projectTemplates.appendingPathComponent(name).path, "a template for category \"\(id)\", which no extension's Info.plist claims: iOS never shows it"))
            findings += checkTemplate(projectTemplates.appendingPathComponent(name), category: id, project: project)
        }
        for (id, _) in config.viewSettings where config.contentExtension(for: id) == nil {
            findings.append(Diagnostic(.warning, code: .settingsUnused, file: project.folder.appendingPathComponent(Project.settingsFile).path, keyPath: "categories.\(id)", "no extension claims this category, so its view settings are never used"))
        }
        return findings
    }

    /// A payload: its own checks, then its category against the configuration.
    func checkPayload(_ file: URL, project: Project) -> [Diagnostic] {
        let data: [UInt8]
        do { data = try Project.read(file, in: project, limit: 1 << 20) } catch {
            return [Diagnostic(.error, code: .path, file: file.path, error.isMissing ? "no such file" : error.why)]
        }
        do {
            let (payload, diagnostics) = try PayloadParser.parse(data, file: file.path)
            var findings = diagnostics
            if let unknown = Self.unknownCategory(payload.category, file: file.path, in: project.content) { findings.append(unknown) }
            findings += Self.unattachedMedia(payload, file: file.path, project: project)
            return findings
        } catch {
            return error.diagnostics
        }
    }

    /// What looks like media in a payload but is attached from no key: never drawn (MediaRule, the
    /// rule the service stage says the same by on the mock-up).
    static func unattachedMedia(_ payload: Payload, file: String, project: Project) -> [Diagnostic] {
        let settings = project.service
        let sdks = settings.sdks.isEmpty ? "" : " nor a media key of \(settings.sdks.map(\.name).joined(separator: ", "))"
        return MediaRule(folders: project.serviceFolders).unattached(payload.userInfo, settings: settings).map { m in
            Diagnostic(.warning, code: .mediaUnattached, file: file, keyPath: m.path,
                       "\(m.value.prefix(80)) looks like media, but \(m.path) is not in mediaKeys of pushpreview.json (\(settings.mediaKeys.joined(separator: ", ")))\(sdks): it is not drawn")
        }
    }

    /// An extension claims a category categories.json does not define (said by validate and on its mock-ups).
    static func undefinedCategory(_ id: String, claimedBy ext: ContentExtension) -> Diagnostic {
        Diagnostic(.warning, code: .categoryUndefined, file: ext.file, keyPath: categoryKey, "claims category \"\(id)\", which categories.json does not define: it has no actions", category: id)
    }

    /// An extension claims a category with no template in the project or the repository.
    static func missingTemplate(_ id: String, name: String, claimedBy ext: ContentExtension) -> Diagnostic {
        Diagnostic(.error, code: .templateMissing, file: ext.file, keyPath: categoryKey, "claims category \"\(id)\" but there is no Templates/\(name) in the project or the repository", category: id)
    }

    /// A payload's `aps.category` that neither categories.json nor an extension knows: no
    /// actions and no custom view, whether or not the project defines any category.
    static func unknownCategory(_ id: String?, file: String, in config: ContentConfiguration) -> Diagnostic? {
        guard let id, config.category(id) == nil, config.contentExtension(for: id) == nil else { return nil }
        let near = (config.categories.map(\.identifier) + config.extensions.flatMap(\.categories)).first { $0.lowercased() == id.lowercased() }
        return Diagnostic(.warning, code: .categoryUnknown, file: file, keyPath: "aps.category", "\"\(id)\" is not a category of this project"
                          + (near.map { " (category identifiers are case-sensitive: did you mean \"\($0)\"?)" } ?? "") + "; no actions are shown")
    }

    /// A template through Mustache, libxml2, the sanitizer and the style resolver, with
    /// placeholder data, inside the expanded view: what it removes or does not support.
    func checkTemplate(_ file: URL, category: String, project: Project?) -> [Diagnostic] {
        let data: [UInt8]
        do { data = try Project.read(file, in: project, limit: 4 << 20) } catch {
            return [Diagnostic(.error, code: .path, file: file.path, error.isMissing ? "no such file" : error.why)]
        }
        Activity.now("checking the template \(file.path)")
        let stage = project.map { ContentStage(project: $0.files, templates: templates) } ?? ContentStage(templateFolders: [try? ConfinedFolder(trusted: templates)].compactMap { $0 })
        let notification = DeliveredNotification(title: "Title", subtitle: "Subtitle", body: "Body", category: category, threadId: nil, badge: nil, sound: nil,
                                                 attachments: [], userInfo: [], trace: ServiceTrace())
        let device: DeviceProfile, chrome: ChromeMetrics
        do {
            chrome = try ChromeMetrics.load(templates: templates)
            guard let d = try DeviceProfile.catalog(templates: templates).first(where: { $0.id == DeviceProfile.standardID }) else {
                return [Diagnostic(.error, code: .devices, file: "Templates/system/devices.json", "has no \(DeviceProfile.standardID) profile")]
            }
            device = d
        } catch { return [Diagnostic(located: error.description, severity: .error, code: .devices)] }
        var findings: [Diagnostic] = []
        // The faces measure ch and ex, as rendering does (without them those lengths are warned about).
        let fonts = self.fonts.system
        for appearance in Appearance.allCases {
            let context = TemplateContext(notification: notification, appName: project?.appName ?? "App", appIconSource: nil, device: device, chrome: chrome,
                                          appearance: appearance, locale: "en", attachmentSources: [])
            do {
                let composition = try stage.compose(.expanded, context: context, customView: .init(source: String(decoding: data, as: UTF8.self), file: file.path)) { Sanitizer.localURL($0) }
                let (_, styleWarnings) = StyleResolver(sheets: composition.sheets, appearance: appearance).resolve(composition.document.body, file: composition.document.file, fonts: fonts)
                // Placeholder data lacks a payload's own keys: that is no finding about the template.
                findings += (composition.warnings + styleWarnings).filter { $0.file == file.path && $0.code != .templateMissingKey }
                    .map { var d = $0.diagnostic; d.category = category; return d }
            } catch {
                findings.append(error.asDiagnostic)
            }
        }
        var seen: Set<Diagnostic> = []
        return findings.filter { seen.insert($0).inserted }
    }
}
