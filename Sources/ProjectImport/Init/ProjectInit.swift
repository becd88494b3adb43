import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// `pushpreview init`: the project folder for an Xcode app. It points at the Xcode project
/// (`"xcode"`, relative), so every run reads the app's Info.plists, strings, catalogs, icon and
/// fonts where they live, and holds only what the project cannot say at run time: the categories
/// imported from code, a starter template per content-extension category (from its storyboard
/// when it has one), and a sample payload per category. Same inputs, same bytes.
public struct ProjectInit {
    public var app: XcodeApp
    public var folder: URL
    /// Path relative to `folder` → contents, sorted by path.
    public var files: [(path: String, text: String)] = []
    /// Files that are not text (the sample image), sorted by path.
    public var media: [(path: String, bytes: [UInt8])] = []
    /// Everything init writes, sorted by path.
    public var output: [(path: String, bytes: [UInt8])] { (files.map { ($0.path, Array($0.text.utf8)) } + media).sorted { $0.path < $1.path } }
    /// What was found, a line each, for the person running init.
    public var found: [String] = []
    /// What could not be read or resolved, each with its file (and line, where there is one).
    public var problems: [String] = []
    /// The JSON Schema the pushpreview.json it writes names (`"$schema"`), written beside it by
    /// `pushpreview init`: relative, so the project folder carries it and editors resolve it offline.
    public static let schemaFile = "pushpreview.schema.json"

    /// `folder`: where the project folder goes (default: `pushpreview/` beside `path`).
    public init(path: URL, folder: URL? = nil) throws(XcodeProject.ReadError) {
        let path = path.standardizedFileURL
        // A React Native, Expo, Flutter or Capacitor app: its ios/ (ios/App) is the Xcode app read.
        let given = Repository(around: path)
        let shell = TrustedFiles.isFolder(path) && !ProjectKinds.namesProjectFile(path) ? CrossPlatformApp.detect(at: path, in: given) : nil
        // An Expo app before prebuild: drawn from its @bacons/apple-targets folders when it has
        // notification targets there, else explained (what prebuild makes, what to run).
        let expoConfig = shell.flatMap { $0.iosFolder == nil ? ExpoTargetsKind.config(at: $0.root, in: given) : nil }
        if let shell, shell.iosFolder == nil, expoConfig == nil {
            var ignored: [String] = []
            let code = shell.categories(in: given, problems: &ignored)
            throw XcodeProject.ReadError(description: ExpoConfig.read(shell, in: given).explanation(shell, path: path.path, categories: code))
        }
        app = try XcodeApp(path: shell?.iosFolder ?? expoConfig ?? path, within: shell?.root)
        self.folder = (folder ?? (ProjectKinds.namesProjectFile(path) ? path.deletingLastPathComponent() : path)
            .appendingPathComponent("pushpreview")).standardizedFileURL
        problems = app.problems
        if let shell {
            app.root = shell.root
            if let ios = shell.iosFolder {
                found.append("framework: \(shell.framework.rawValue), from \(shell.evidence); its iOS app is in \(relative(ios))/")
            } else {
                found.append("framework: \(shell.framework.rawValue), from \(shell.evidence); no ios/ yet: drawn from \(relative(expoConfig!)) and targets/ as `npx expo prebuild --platform ios` would make them (@bacons/apple-targets); init again after prebuild to read the project it writes")
            }
            found += shell.generatedNotes
            for other in shell.otherApps { problems.append("\(other.path): \(other.why), not this app; its code and payloads are left out (give init that folder to read it)") }
        }
        let project = app.project
        found.append("project: \(relative(project.bundle))")
        for target in project.targets {
            let point = app.extensions.first { $0.target.id == target.id }?.point
            found.append("target \(target.name): \(target.productType.replacingOccurrences(of: "com.apple.product-type.", with: ""))" + (point.map { " (\($0))" } ?? ""))
        }
        if let name = app.displayName { found.append("app name: \(name)") }
        switch app.appIcon(problems: &problems) {
        case .set(let icon)?:
            let kinds = [("light", icon.light), ("dark", icon.dark), ("tinted", icon.tinted)].filter { $0.1 != nil }
            found.append("app icon: " + kinds.map { "\($0.0) \(relative($0.1!))" }.joined(separator: ", "))
        case .composer(let icon)?:
            let layers = icon.rendition(.light).groups.reduce(0) { $0 + $1.layers.count }
            found.append("app icon: \(relative(icon.bundle)) (Icon Composer, \(layers) layer\(layers == 1 ? "" : "s"))")
        case nil: break
        }
        let fonts = app.fonts(problems: &problems)
        if !fonts.isEmpty { found.append("fonts: " + fonts.map(relative).joined(separator: ", ")) }
        let locales = Self.locales(project)
        found.append("locales: " + locales.joined(separator: ", ") + " (the first is the development region)")
        let strings = app.stringsFolders(problems: &problems)
        if !strings.isEmpty { found.append("strings: " + strings.map(relative).joined(separator: ", ")) }

        // Categories from the app's and the extensions' code.
        var code = CodeImport.read(app.sources(problems: &problems), in: app.repository, root: app.root)
        problems += code.problems
        if let shell {
            let scripts = shell.categories(in: app.repository, problems: &problems)
            problems += scripts.problems
            code.merge(scripts)
        }
        for category in code.categories {
            found.append("category \(category.identifier): " + (category.actions.isEmpty ? "no actions" : category.actions.map(\.identifier).joined(separator: ", ")) + " (\(category.sites.joined(separator: ", ")))")
        }
        if !code.categories.isEmpty { files.append(("categories.json", code.categoriesJSON())) }

        // A template per category a content extension claims; a payload per category.
        // Each catalog once: a catalog the app and its extensions share is not two sets of colours.
        var catalogs = Set<String>()
        let colors = AssetColors.read(catalogs: ([app.app].compactMap { $0 } + app.extensions.map(\.target)).flatMap(\.resources)
            .filter { $0.hasSuffix(".xcassets") && catalogs.insert($0).inserted }.compactMap { app.file($0, problems: &problems) }, in: app.repository, problems: &problems)
        var claimed: [String] = [], viewSDKs: [PushSDK] = []
        for ext in app.extensions where ext.isContent {
            let category = ext.infoPlist["NSExtension"]?["NSExtensionAttributes"]?["UNNotificationExtensionCategory"]
            let categories = category?.strings ?? [category?.string].compactMap { $0 }
            let extensionCode = CodeImport.read(ext.target.sources.compactMap { app.file($0, problems: &problems) }, in: app.repository, root: app.root)
            var (template, drawnInCode, isStarter) = starterTemplate(ext, code: extensionCode, colors: colors)
            // A view the SDK draws: PushPreview's copy of it where it has one, else a stand-in said on every mock-up.
            if let (sdk, at) = extensionCode.sdks.contentView {
                if let view = sdk.contentView {
                    template = "{{! \(ext.target.name) shows \(sdk.name)'s own content view (\(at)): PushPreview's copy of it, filled from the payload as \(sdk.name) fills it. }}\n{{> stock/\(view.template)}}\n"
                    found.append("content view of \(sdk.name) in \(ext.target.name): \(at) → Templates/stock/\(view.template).html, \(sdk.said(view.source))")
                    if !viewSDKs.contains(sdk) { viewSDKs.append(sdk) }
                } else {
                    let what = "\(ext.target.name) shows \(sdk.name)'s own content view (\(at)), which PushPreview does not draw: the template is a stand-in"
                    template = "{{! warning: \(what) }}\n" + template
                    problems.append(what)
                }
                drawnInCode = nil
            }
            var written: [String] = []
            for category in categories {
                guard Self.isFileName(category) else { problems.append("\(ext.target.name): category \"\(category)\" cannot name a template file; write Templates/… and set its template in categories.json"); continue }
                files.append(("Templates/\(category).html", template))
                claimed.append(category)
                written.append("Templates/\(category).html")
            }
            if let drawnInCode, !written.isEmpty {
                let one = written.count == 1, files = written.joined(separator: ", ")
                problems.append("\(drawnInCode); " + (isStarter ? "\(files) \(one ? "is a starter that shows" : "are starters that show") the notification's fields"
                                                                  : "\(files) \(one ? "holds" : "hold") the storyboard's views only") + ", and each mock-up says so until you draw that view there")
            }
        }
        let hasService = app.extensions.contains { !$0.isContent }
        let extensionsCode = CodeImport.read(app.extensions.flatMap(\.target.sources).compactMap { app.file($0, problems: &problems) }, in: app.repository, root: app.root)
        let userInfoKeys = extensionsCode.userInfoKeys
        if !userInfoKeys.isEmpty { found.append("userInfo keys the extensions read: " + userInfoKeys.map { k in extensionsCode.userInfoTypes[k].map { "\(k) (\($0.rawValue))" } ?? k }.joined(separator: ", ")) }
        // A service extension that downloads and attaches: the keys it makes URLs of are its media.
        var mediaKeys: [String] = [], sdks: [PushSDK] = []
        var setFields: [(key: String, value: JSONValue)] = [], codeChanges: [JSONValue] = []
        let catalog = PushSDK.Catalog.standard
        for ext in app.extensions where !ext.isContent {
            let serviceCode = CodeImport.read(ext.target.sources.compactMap { app.file($0, problems: &problems) }, in: app.repository, root: app.root)
            // The push SDK it hands payloads to: by its code, else by the pods of its own Podfile target.
            let manifests = SDKRecognition.inManifests(bundle: project.bundle, extensionTarget: ext.target.name, repository: app.repository, catalog: catalog.sdks)
            let chosen = !serviceCode.sdks.isEmpty ? serviceCode.sdks : serviceCode.downloadsAttachments ? SDKRecognition() : manifests.extensionPods
            for e in chosen.evidence where !sdks.contains(e.sdk) {
                sdks.append(e.sdk)
                let more = (manifests.extensionPods.evidence + manifests.elsewhere.evidence).filter { $0.sdk == e.sdk }.flatMap(\.found).filter { !e.found.contains($0) }
                found.append("push SDK \(e.sdk.name) in \(ext.target.name): " + (e.found + more).joined(separator: ", ") + " → \"sdks\": [\"\(e.sdk.id)\"]: " + Self.whatSDKDoes(e.sdk))
                if e.sdk.media.isEmpty, let note = e.sdk.changes.first(where: { $0.field == "attachments" })?.note { problems.append("\(ext.target.name): \(note)") }
            }
            if chosen.isEmpty {
                let others = manifests.extensionPods.evidence + manifests.elsewhere.evidence
                if !others.isEmpty {
                    found.append("push SDKs in the manifests, not read as \(ext.target.name)'s (its code neither imports nor calls them): " + others.map { "\($0.sdk.name) (\($0.found.joined(separator: ", ")))" }.joined(separator: "; "))
                }
            }
            // What its code sets on the content: followed as `set`, else listed as not followed (said by validate and the gallery).
            for change in serviceCode.contentChanges {
                let at = relative(app.root.appendingPathComponent(change.file), from: self.folder) + ":\(change.line)"
                if let template = change.template, !setFields.contains(where: { $0.key == change.field }) {
                    setFields.append((change.field, .string(template)))
                    found.append("\(change.site): \(change.code) → \"set\": {\"\(change.field)\": \"\(template)\"}")
                } else {
                    let what = change.field == "communication" ? "makes a communication notification" : "sets \(change.field)"
                    let why = change.template == nil ? "in code PushPreview does not follow" : "again (only the first is written to set)"
                    problems.append("\(change.site): \(ext.target.name) \(what) \(why): \(change.code); listed in pushpreview.json codeChanges")
                    codeChanges.append(.object([("field", .string(change.field)), ("at", .string(at)), ("code", .string(change.code))]))
                }
            }
            guard serviceCode.downloadsAttachments else { continue }
            mediaKeys += serviceCode.userInfoTypes.filter { $0.value == .url }.map(\.key).filter { !mediaKeys.contains($0) }
        }
        // A Podfile target with a push SDK's pods that the project does not build: an extension on disk only.
        if !hasService {
            let built = Set(project.targets.map(\.name))
            for case let (target?, pods) in SDKRecognition.podfileTargets(bundle: project.bundle, repository: app.repository).sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) where !built.contains(target) {
                for sdk in catalog.sdks where !sdk.media.isEmpty {
                    guard let pod = pods.first(where: { sdk.recognise.pods.contains($0) }) else { continue }
                    problems.append("Podfile: target \(target) has \(sdk.name)'s pod \(pod), but \(project.bundle.lastPathComponent) builds no target \(target): that service extension is not in the app, so nothing of \(sdk.name) is drawn")
                }
            }
        }
        // The SDK whose view is drawn reads its data and images in the service stage too (its sample keys with it).
        for sdk in viewSDKs where !sdks.contains(sdk) {
            sdks.append(sdk)
            found.append("push SDK \(sdk.name) for its content view → \"sdks\": [\"\(sdk.id)\"]")
        }
        mediaKeys.sort()
        if !mediaKeys.isEmpty { found.append("media keys (the service extension downloads and attaches them): " + mediaKeys.joined(separator: ", ")) }
        problems += catalog.problems

        var settings: [(key: String, value: JSONValue)] = [("$schema", .string(Self.schemaFile)), ("xcode", .string(relative(project.bundle, from: self.folder)))]
        if locales.count > 1 { settings.append(("locales", .array(locales.map(JSONValue.string)))) }
        if !mediaKeys.isEmpty { settings.append(("mediaKeys", .array(mediaKeys.map(JSONValue.string)))) }
        if !sdks.isEmpty { settings.append(("sdks", .array(sdks.map { .string($0.id) }))) }
        if !setFields.isEmpty { settings.append(("set", .object(setFields))) }
        if !codeChanges.isEmpty { settings.append(("codeChanges", .array(codeChanges))) }
        files.append(("pushpreview.json", JSONValue.object(settings).pretty))

        // The repository's own payloads first; a sample only for a category none of them shows.
        let tests = project.targets.filter { $0.productType.contains("unit-test") || $0.productType.contains("ui-testing") }
        let repository = RepositoryPayloads(repository: app.repository, root: app.root, skipping: self.folder, testSources: tests.flatMap(\.sources).compactMap { app.file($0, problems: &problems) },
                                            otherApps: shell?.otherApps.map { shell!.root.appendingPathComponent($0.path) } ?? [])
        problems += repository.problems
        var shown = Set<String?>()
        for payload in repository.found {
            files.append(("payloads/\(payload.name).apns", payload.json.pretty))
            shown.insert(payload.category)
            found.append("payload payloads/\(payload.name).apns ← " + payload.sources.joined(separator: ", "))
        }
        var seen = Set<String>()
        let categories = (code.categories.map(\.identifier) + claimed).filter { seen.insert($0).inserted && Self.isFileName($0) }.sorted()
        let types = extensionsCode.userInfoTypes.merging(mediaKeys.map { ($0, UserInfoType.url) }) { $1 }
        var samples = 0
        for category in categories.isEmpty ? [nil] : categories.map(Optional.some) where !shown.contains(category) {
            var name = "payloads/\(category ?? "sample").apns"
            if files.contains(where: { $0.path.lowercased() == name.lowercased() }) { name = "payloads/\(category ?? "sample")-sample.apns" }
            // The keys each SDK reads, as its payloads carry them; a category the payload names keeps the SDK's buttons away.
            var sdkKeys = sdks.flatMap(\.sample)
            if category != nil { for path in sdks.compactMap(\.actions?.keyPath) { sdkKeys = Self.removing(path.split(separator: ".").map(String.init), from: sdkKeys) } }
            files.append((name, SamplePayload.text(category: category, appName: app.displayName ?? project.name, mutable: hasService || !sdks.isEmpty, userInfoKeys: userInfoKeys, types: types, sdkKeys: sdkKeys)))
            samples += 1
        }
        if samples > 0, userInfoKeys.contains(where: { types[$0] == .url }) || sdks.contains(where: { !$0.sample.isEmpty }) {
            do { media.append((SamplePayload.imagePath, try SamplePayload.image())) } catch { problems.append("\(SamplePayload.imagePath): cannot be drawn: \(error)") }
        }
        files.sort { $0.path < $1.path }
        if shell != nil {
            // A generated file that is not committed is said once, with the command that makes it.
            var explained = Set<String>()
            problems = problems.compactMap { p in
                guard let why = CrossPlatformApp.generatedFile(p) else { return p }
                return explained.insert(why).inserted ? why : nil
            }
        }
    }

    /// The content extension's storyboard as a template, else a starter that shows the
    /// notification's fields; and, when the view is made in code, where (for init's finding).
    /// A storyboard with outlets is kept even then, and says that code adds to it.
    mutating func starterTemplate(_ ext: XcodeApp.Extension, code: CodeImport, colors: [String: NamedColor]) -> (html: String, drawnInCode: String?, isStarter: Bool) {
        let view = code.codeView
        let madeInCode = view.map { !$0.madeAt.isEmpty } ?? false
        let firstSite = view?.madeAt.first.map { String($0.prefix { $0 != " " }) }
        let said = firstSite.map { "\($0): \(ext.target.name) makes its content view in code" + (view?.hostsSwiftUI == true ? " (a SwiftUI view in a UIHostingController)" : "") }
        let storyboardName = ext.infoPlist["NSExtension"]?["NSExtensionMainStoryboard"]?.string
        if let storyboardName {
            let candidates = ext.target.resources.filter { $0.hasSuffix("/\(storyboardName).storyboard") || $0 == "\(storyboardName).storyboard" }
            // The Base localization first, as the storyboard's layout lives there.
            if let path = candidates.first(where: { $0.contains("Base.lproj/") }) ?? candidates.first, let file = app.file(path, problems: &problems) {
                do {
                    Activity.now("converting the storyboard \(file.path)")
                    let converted = try StoryboardTemplate.convert(file, in: app.repository, bindings: code.outletBindings, colors: colors)
                    if !madeInCode || !converted.outlets.isEmpty {
                        problems += converted.problems
                        found.append("storyboard \(relative(file)) → template, outlets: " + (converted.outlets.isEmpty ? "none" : converted.outlets.joined(separator: ", ")))
                        guard madeInCode, let view else { return (converted.html, nil, false) }
                        let note = "{{! warning: \(ext.target.name) also adds views in code at \(view.madeAt.prefix(3).joined(separator: ", ")); they are not in this template }}\n"
                        return (note + converted.html, said.map { $0 + " beside its storyboard's outlets" }, false)
                    }
                    found.append("storyboard \(relative(file)): no outlets, the view is made in code → a starter template")
                } catch { problems.append(error.description) }
            } else {
                problems.append("\(ext.target.name): NSExtensionMainStoryboard is \(storyboardName), which is not among its resources; a starter template is written")
            }
        }
        let sources = ext.target.sources.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") }
        let defaultContentHidden = ext.infoPlist["NSExtension"]?["NSExtensionAttributes"]?["UNNotificationExtensionDefaultContentHidden"]?.isTrue ?? false
        let html = StarterTemplate.html(extensionName: ext.target.name, sources: sources, view: view, readsAttachments: code.readsAttachments,
                                        showsTitleAndBody: defaultContentHidden, userInfoKeys: code.userInfoKeys, types: code.userInfoTypes)
        return (html, said ?? "\(ext.target.name): has no storyboard; its view is made in code (\(sources.prefix(3).joined(separator: ", ")))", true)
    }

    /// `members` without the value at `path` (an SDK's buttons, which a payload's own category keeps away).
    static func removing(_ path: [String], from members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard let first = path.first else { return members }
        return members.compactMap { m in
            guard m.key == first else { return m }
            if path.count == 1 { return nil }
            guard case .object(let inner) = m.value else { return m }
            return (m.key, .object(removing(Array(path.dropFirst()), from: inner)))
        }
    }

    /// What init's finding says the SDK does: its media keys, its buttons, its changes.
    static func whatSDKDoes(_ sdk: PushSDK) -> String {
        var parts: [String] = []
        if !sdk.media.isEmpty { parts.append("media from " + sdk.media.map(\.keyPath).joined(separator: ", ")) }
        if let a = sdk.actions { parts.append("buttons from \(a.keyPath)") }
        let changed = sdk.changes.filter { $0.note == nil }.map(\.field)
        if !changed.isEmpty { parts.append("changes " + changed.joined(separator: ", ")) }
        if let gate = sdk.gate { parts.append("only with " + gate.keyPaths.joined(separator: " and ")) }
        return parts.isEmpty ? "nothing PushPreview can draw is known of it" : parts.joined(separator: "; ")
    }

    /// The project's regions as locale names (`pt_BR` is `pt-BR`, the old `English` is `en`),
    /// the development one first, Base left out, each once.
    static func locales(_ project: XcodeProject) -> [String] {
        let legacy = ["english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it", "dutch": "nl"]
        func name(_ region: String) -> String { legacy[region.lowercased()] ?? region.replacingOccurrences(of: "_", with: "-") }
        let development = name(project.developmentRegion ?? "en")
        var seen: Set<String> = [development, "Base"]
        return [development] + project.knownRegions.map(name).sorted().filter { seen.insert($0).inserted }
    }

    static func isFileName(_ s: String) -> Bool { !s.isEmpty && !s.contains("/") && !s.hasPrefix(".") && !s.contains("\0") }

    func relative(_ url: URL) -> String { relative(url, from: app.root) }

    /// `url`'s path from `base` (`../Harbor.xcodeproj`), both made absolute and symlinks resolved.
    func relative(_ url: URL, from base: URL) -> String {
        let to = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents, from = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let common = zip(to, from).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - common) + to.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
